// The fp64 CPU reference of the selective scan, forward and backward, written as plainly as the
// formulas in selective_scan/selective_scan.hpp: every kernel and every test checks against it.
// Complex numbers carry everything, so one code path serves real A (imaginary parts zero) and
// complex A. A gradient with respect to a complex parameter p is dL/dRe(p) + i dL/dIm(p), the
// convention PyTorch uses.
#pragma once

#include <complex>
#include <cstdint>
#include <vector>

namespace ch08 {

using Complex = std::complex<double>;

struct Problem {
  std::int64_t batch = 1, dim = 1, seqlen = 1;
  int dstate = 1, groups = 1;
  bool complex = false;  // false: every imaginary part below is zero and stays zero
  bool variable_B = true, variable_C = true;
  bool has_D = false, has_z = false, has_delta_bias = false, delta_softplus = false;
  bool has_initial_state = false;
  // Packed sequences: batch 1, and sequences laid end to end along seqlen, sequence q at steps
  // cu_seqlens[q] .. cu_seqlens[q + 1] - 1 (cu_seqlens = {0, ..., seqlen}, strictly increasing).
  // Each starts from its own initial state (or 0) and has its own last state. Empty: each batch
  // row is one sequence.
  std::vector<std::int64_t> cu_seqlens;

  std::vector<double> u, delta, z;     // (batch, dim, seqlen); z empty without has_z
  std::vector<Complex> A;              // (dim, dstate)
  std::vector<Complex> B, C;           // variable (batch, groups, dstate, seqlen) or constant (dim, dstate)
  std::vector<double> D, delta_bias;   // (dim), empty when absent
  std::vector<Complex> initial_state;  // (sequences(), dim, dstate), empty when absent

  std::int64_t sequence_elements() const { return batch * dim * seqlen; }
  // The sequences the states are for: batch, or the packed sequences' count.
  std::int64_t sequences() const { return cu_seqlens.empty() ? batch : std::int64_t(cu_seqlens.size()) - 1; }
};

struct ForwardResult {
  std::vector<double> out;          // y before the gate, (batch, dim, seqlen)
  std::vector<double> out_z;        // y * silu(z); empty without has_z
  std::vector<Complex> last_state;  // (sequences(), dim, dstate)
};

struct Gradients {
  std::vector<double> du, ddelta, dz;   // (batch, dim, seqlen); dz empty without has_z
  std::vector<Complex> dA;              // (dim, dstate)
  std::vector<double> dA_terms;         // (dim, dstate): sum of |each term| of dA, to size rounding
  std::vector<Complex> dB, dC;          // same shape as B, C
  std::vector<double> dD, ddelta_bias;  // (dim), empty when absent
  std::vector<Complex> dinitial_state;  // (sequences(), dim, dstate), empty without has_initial_state
};

// The official test suite's data (state-spaces/mamba tests/ops/test_selective_scan.py; see
// official_baseline.md), drawn from `seed`:
// A = -0.5 U[0,1) (complex: both parts), B, C, D, z, u ~ N(0,1), delta = 0.5 U[0,1),
// delta_bias = 0.5 U[0,1), initial state ~ N(0,1). Shape and flags are taken from `shape`.
// Complex B, C and initial state draw both parts from N(0,1) (upstream draws its variable B, C
// so; its constant complex ones have parts of variance 1/2). Every tensor has a random stream
// of its own, so switching one flag leaves the other tensors of the same seed unchanged.
Problem make_official_test_problem(const Problem& shape, unsigned seed);

ForwardResult reference_forward(const Problem& p);
// dout is the gradient of the final output: out_z when has_z, else out. dlast_state, (sequences(),
// dim, dstate) or empty (0), is the gradient of the loss with respect to the last state: what the
// backward of a call over the sequence's next piece hands back (its dinitial_state).
Gradients reference_backward(const Problem& p, const std::vector<double>& dout,
                             const std::vector<Complex>& dlast_state = {});

// The scalar loss sum(out_final * dout) + Re(sum(conj(dlast_state) * last_state)): its gradients
// are exactly reference_backward's, so finite differences of it check every gradient.
double reference_loss(const Problem& p, const std::vector<double>& dout, const std::vector<Complex>& dlast_state = {});

// Two steps of reference_backward, each in a file of its own (the chapter's exercises 1 and 2).
//
// Exercise 1 (step_size_gradient.cpp): ∂L/∂delta_raw from ddelta = ∂L/∂δ, where
// δ = softplus(x) with x = delta_raw + delta_bias (or δ = x without softplus): ddelta·σ(x), and
// ddelta itself past softplus's cut at x > 20, where the forward takes δ = x.
double step_size_gradient(double ddelta, double x, bool softplus);

// Exercise 2 (reverse_step.cpp): one step of the reverse scan. From Ā_t, c_t = s dy_t conj(C_t)
// and q_{t+1} (what the later steps hand back to h_t; 0 after the last step):
// g_t = ∂L/∂h_t = c_t + q_{t+1}, and q_t = conj(Ā_t) g_t, what step t hands back to h_{t−1}.
// The blocked GPU backward scans the same q.
struct ReverseStep {
  Complex g, q;
};
ReverseStep reverse_step(Complex A_bar, Complex c, Complex q_next);

}  // namespace ch08
