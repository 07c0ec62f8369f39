// The fp64 backward of the SSD (ssd_problem.hpp defines the forward): every gradient of the loss
//   L = Σ dy ∘ y + Σ dfinal ∘ final_states
// (any loss looks like this to first order, dy and dfinal being its gradients), by the adjoint
// recurrence: the gradient G_t = ∂L/∂S_t of the state runs backwards in time,
//   G_t = dfinal·[t = L−1] + g_t C_tᵀ + r_{t+1} exp(dt'_{t+1} A) G_{t+1},   g_t = ∂L/∂u_t,
// a reverse scan of the same shape as the forward one, and every input's gradient is read off G
// and the states S_t, which the backward recomputes step by step.
#pragma once

#include "ssd_problem.hpp"

#include <vector>

namespace ch10 {

// Laid out as the inputs; the gradients of absent inputs are empty. dD has D's form (per head
// or per channel); ddt is the gradient of the raw dt (through the clamp, softplus and bias).
struct Gradients {
  std::vector<double> dx, ddt, dA, dB, dC, dD, dz, ddt_bias, dinitial_states;
};

// dy: (batch, seqlen, heads, head_dim); dfinal_states: empty (0) or (batch, heads, head_dim, dstate).
Gradients ssd_backward(const Problem& p, const std::vector<double>& dy, const std::vector<double>& dfinal_states = {});

// d silu(v) / dv, the gate's slope.
double silu_slope(double v);

// ∂L/∂dt_raw at one (b, t, h) from ∂L/∂dt' there (raw: the dt given): zero where the clamp cut,
// times softplus's slope below its cut at v = 20. The chunked backward shares it.
double raw_step_gradient(const Problem& p, double ddt_step, double raw, int h);

// L above, from ssd_recurrence.
double ssd_loss(const Problem& p, const std::vector<double>& dy, const std::vector<double>& dfinal_states = {});

}  // namespace ch10
