// The bytes the selective scan must move: the floor that a memory-bound kernel is measured
// against (bytes / copy bandwidth), and the two hardware-aware ideas the chapter measures with
// it -- fusion (what an unfused pipeline would move) and recomputation (what storing every
// state would keep).
//
// The model is the floor a kernel's measured time is divided by (chapter 08's benchmark, for its
// versions and for the official kernel timed in the same run): every input is read once and every output written once, nothing else. With s = the input
// type's size in bytes:
//   forward   reads u, delta (and z): s each per (b, d, t); B, C; A, D, delta_bias (and the
//             initial state); writes out (and out_z): s each; the chunk states (and the last
//             state).
//   backward  reads u, delta, dout (and z, out): s each per (b, d, t); B, C, A, D, delta_bias,
//             the chunk states (and the initial state); writes du, ddelta (and dz): s each;
//             dB, dC, dA, dD, ddelta_bias (and dinitial_state).
// Every count is a function of the sizes and flags alone, so the chapter's program, its tests
// and its benchmark tables use the same numbers.
#pragma once

#include <cstdint>

namespace ch08 {

// How chunk states and the gradients of a variable B, C are counted.
enum class StateAccounting {
  // This library (selective_scan.hpp): a chunk state is dstate fp32 values (complex: pairs), and
  // dB, dC are written in fp32.
  library,
  // As the official kernel stores them: a (decay, state) pair per state (2·dstate values;
  // complex: 2·dstate complex values), and dB, dC in the input type.
  official_kernel,
};

// Defaults: the configuration the official kernel's benchmarks time (real A, variable B and C
// with one group, z, D and delta_bias present), in fp32.
struct ByteShape {
  std::int64_t batch = 1, dim = 1, seqlen = 1;
  int dstate = 16, groups = 1;
  int input_bytes = 4;  // sizeof the input type: 4 (fp32), 2 (fp16, bf16)
  bool complex = false;
  bool variable_B = true, variable_C = true;
  bool has_z = true, has_D = true, has_delta_bias = true;
  bool has_initial_state = false, has_last_state = false;
  StateAccounting accounting = StateAccounting::library;
};

std::int64_t forward_bytes(const ByteShape& shape);
std::int64_t backward_bytes(const ByteShape& shape);
std::int64_t forward_backward_bytes(const ByteShape& shape);  // forward_bytes + backward_bytes

// An unfused forward that materialises the discretisation: one kernel writes Ā and B̄u
// (batch·dim·dstate·seqlen fp32 values each; complex: pairs), the scan reads them back; every
// other byte is the fused forward's.
std::int64_t unfused_forward_bytes(const ByteShape& shape);

// What the backward keeps between the passes: the chunk states the forward writes (the backward
// recomputes every other state from them), against every state h_t stored for every step.
std::int64_t chunk_state_bytes(const ByteShape& shape);
std::int64_t all_states_bytes(const ByteShape& shape);

// The second floor: arithmetic. Every state step (b, d, n, t) needs Ā = exp(Δ A): one exp2 on
// the multiprocessors' special-function unit (MUFU) for a real A (a complex A adds a sine and a
// cosine). The forward takes one per state step; a forward + backward at least two (the backward
// recomputes Ā once and reuses it on its reverse walk). MUFU returns 16 results per clock per
// multiprocessor on sm_80 and sm_90 (the CUDA C++ Programming Guide's throughput table): on an
// H100 or H200 SXM, 132 × 16 × 1.98 GHz ≈ 4.2·10^12 exp2 a second.
constexpr int kForwardExps = 1, kForwardBackwardExps = 2;
constexpr int kMufuResultsPerClock = 16;
std::int64_t state_steps(const ByteShape& shape);  // batch · dim · dstate · seqlen
// Seconds that `exps_per_state_step` exp2 per state step take at the MUFU rate of a GPU with
// `multiprocessors` multiprocessors at `clock_hz`.
double exp_floor_seconds(const ByteShape& shape, int exps_per_state_step, int multiprocessors, double clock_hz);

}  // namespace ch08
