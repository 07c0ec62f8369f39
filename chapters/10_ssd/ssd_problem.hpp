// The inputs of Mamba-2's SSD as mamba_ssm's mamba_chunk_scan_combined takes them, and the one
// definition that every form of this chapter computes (ssd_reference.hpp: the recurrence, the
// quadratic "attention" form, the chunked algorithm; ssd_backward.hpp: the gradients).
//
// For a batch row b and a head h, whose B and C come from group h / (heads / groups):
//   dt'_t = clamp(softplus?(dt_t + dt_bias), lo, hi)   the step size (softplus when dt_softplus)
//   r_t   = [seq_idx_t = seq_idx_{t-1}], seq_idx_{-1} = 0   whether the state carries over to t
//   S_t   = r_t exp(dt'_t A) S_{t-1} + dt'_t x_t B_tᵀ     a head_dim × dstate state, S_{-1} = h0 or 0
//   u_t   = S_t C_t + D ∘ x_t                            (D per head or per channel, or none)
//   y_t   = u_t ∘ silu(z_t)                              (y_t = u_t without z)
// The outputs are y and the final states S_{L-1}.
//
// Three details follow the official kernels (ssd_chunk_state.py, ssd_state_passing.py):
// - the clamp is always applied, and its default (0, ∞) turns a negative dt' into 0;
// - softplus(v) is v itself above v = 20 (common/softplus.hpp);
// - with seq_idx the sequence before position 0 is numbered 0, so the initial states belong to
//   the sequence numbered 0 and a row that starts with another number starts from zero.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace ch10 {

struct Shape {
  std::int64_t batch = 1, seqlen = 1;
  int heads = 1, head_dim = 1, groups = 1, dstate = 1;
};

// The clamp of dt' after softplus; the official default is (0, ∞).
struct DtLimit {
  double lo = 0.0;
  double hi = std::numeric_limits<double>::infinity();
};

// Every optional tensor is absent when empty. Layouts are row-major, the last index fastest.
struct Problem {
  Shape shape;
  std::vector<double> x;               // (batch, seqlen, heads, head_dim)
  std::vector<double> dt;              // (batch, seqlen, heads), before bias, softplus and clamp
  std::vector<double> A;               // (heads)
  std::vector<double> B, C;            // (batch, seqlen, groups, dstate)
  std::vector<double> D;               // (heads) or (heads, head_dim)
  std::vector<double> z;               // (batch, seqlen, heads, head_dim)
  std::vector<double> dt_bias;         // (heads)
  std::vector<double> initial_states;  // (batch, heads, head_dim, dstate)
  std::vector<std::int64_t> seq_idx;   // (batch, seqlen): from 0 up, never decreasing along a row
  bool dt_softplus = false;
  DtLimit dt_limit;
};

// What a forward form returns.
struct Forward {
  std::vector<double> y;             // (batch, seqlen, heads, head_dim), after the gate
  std::vector<double> final_states;  // (batch, heads, head_dim, dstate)
};

// Flat offsets into the layouts above.
struct Index {
  Shape s;
  std::size_t x(std::int64_t b, std::int64_t t, int h, int i) const {  // also z, y, dy
    return std::size_t(((b * s.seqlen + t) * s.heads + h) * s.head_dim + i);
  }
  std::size_t dt(std::int64_t b, std::int64_t t, int h) const { return std::size_t((b * s.seqlen + t) * s.heads + h); }
  std::size_t bc(std::int64_t b, std::int64_t t, int g, int k) const {  // B and C
    return std::size_t(((b * s.seqlen + t) * s.groups + g) * s.dstate + k);
  }
  std::size_t state(std::int64_t b, int h, int i, int k) const {
    return std::size_t(((b * s.heads + h) * s.head_dim + i) * s.dstate + k);
  }
  std::size_t seq(std::int64_t b, std::int64_t t) const { return std::size_t(b * s.seqlen + t); }
  int group(int h) const { return h / (s.heads / s.groups); }

  std::size_t x_size() const { return std::size_t(s.batch * s.seqlen * s.heads * s.head_dim); }
  std::size_t dt_size() const { return std::size_t(s.batch * s.seqlen * s.heads); }
  std::size_t bc_size() const { return std::size_t(s.batch * s.seqlen * s.groups * s.dstate); }
  std::size_t state_size() const { return std::size_t(s.batch * s.heads * s.head_dim) * std::size_t(s.dstate); }
};

// Throws std::invalid_argument with one line naming the first thing wrong: a size below 1, heads
// not divisible by groups, a tensor of the wrong size, lo > hi, a seq_idx row that decreases or
// holds a negative number.
void validate(const Problem& p);

// Throws std::invalid_argument("<who>: <name> has n elements, expected m") where v does not hold
// `expected` elements: the check every function taking the flat tensors makes first.
void require_size(const char* who, const std::vector<double>& v, std::size_t expected, const char* name);

// D for head h and channel i (0 without D), whether D is given per head or per channel.
double skip_weight(const Problem& p, int h, int i);

// dt' for every (b, t, h), laid out as dt.
std::vector<double> step_sizes(const Problem& p);

// The sequence number of position t of row b (0 without seq_idx); the position before 0 (t = −1)
// is numbered 0.
std::int64_t sequence_number(const Problem& p, std::int64_t b, std::int64_t t);

// r_t above: whether the state of row b carries over into position t (always, without seq_idx).
bool carries_state(const Problem& p, std::int64_t b, std::int64_t t);

double silu(double v);

// y from u at element e of x's layout: u·silu(z[e]) with z, else u.
double gated(const Problem& p, std::size_t e, double u);

// Inputs drawn for tests and programs ----------------------------------------------------------

enum class DForm { none, per_head, per_channel };

struct ProblemSpec {
  Shape shape;
  DForm D = DForm::none;
  bool z = false, dt_bias = false, dt_softplus = false, initial_states = false;
  DtLimit dt_limit;
  // Packed sequences: empty (no seq_idx), or one list of lengths per batch row, each summing to
  // seqlen; the row's sequences are numbered 0, 1, 2, ...
  std::vector<std::vector<std::int64_t>> packing;
};

// As Mamba-2's module initialises and its tests draw: A = −U(1, 16); a step size dt' drawn
// log-uniformly from [1e-3, 0.1] for every (b, t, h), with dt (and dt_bias, drawn the same way per
// head) chosen so that softplus (or the plain sum) gives it back; x, B, C, D, z and the initial
// states from N(0, 1). Every tensor has a random stream of its own: switching one option leaves
// the other tensors of the same seed as they were.
Problem make_problem(const ProblemSpec& spec, unsigned seed);

// seq_idx (batch, seqlen) for rows packed from sequences of the given lengths.
std::vector<std::int64_t> packed_seq_idx(const std::vector<std::vector<std::int64_t>>& lengths, std::int64_t seqlen);

}  // namespace ch10
