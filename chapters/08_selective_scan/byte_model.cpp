#include "byte_model.hpp"

#include "selective_scan.hpp"

namespace ch08 {
namespace {

constexpr std::int64_t kFloat = 4;

// Real or complex: a complex value is a pair of reals.
std::int64_t parts(const ByteShape& s) { return s.complex ? 2 : 1; }

// One (batch, dim, seqlen) tensor in the input type: u, delta, z, out, dout, du, ...
std::int64_t sequence_bytes(const ByteShape& s) { return s.batch * s.dim * s.seqlen * s.input_bytes; }

// B or C: variable (batch, groups, dstate, seqlen) in the input type, or constant (dim, dstate) fp32.
std::int64_t projection_bytes(const ByteShape& s, bool variable) {
  return variable ? s.batch * s.groups * s.dstate * s.seqlen * s.input_bytes * parts(s)
                  : s.dim * s.dstate * kFloat * parts(s);
}

// dB or dC: constant ones in fp32 like B, C; variable ones in fp32 (library) or the input type
// (official kernel).
std::int64_t projection_gradient_bytes(const ByteShape& s, bool variable) {
  if (!variable || s.accounting == StateAccounting::official_kernel) return projection_bytes(s, variable);
  return s.batch * s.groups * s.dstate * s.seqlen * kFloat * parts(s);
}

// A, D and delta_bias: read by both passes, and their gradients written by the backward.
std::int64_t weight_bytes(const ByteShape& s) {
  return s.dim * s.dstate * kFloat * parts(s) + (s.has_D ? s.dim * kFloat : 0) +
         (s.has_delta_bias ? s.dim * kFloat : 0);
}

// An initial or last state: (batch, dim, dstate), fp32.
std::int64_t state_bytes(const ByteShape& s) { return s.batch * s.dim * s.dstate * kFloat * parts(s); }

}  // namespace

std::int64_t chunk_state_bytes(const ByteShape& s) {
  const std::int64_t chunks = (s.seqlen + selective_scan::kChunkLength - 1) / selective_scan::kChunkLength;
  const std::int64_t values_per_state = s.accounting == StateAccounting::official_kernel ? 2 : 1;
  return s.batch * s.dim * chunks * s.dstate * values_per_state * kFloat * parts(s);
}

std::int64_t all_states_bytes(const ByteShape& s) { return s.batch * s.dim * s.seqlen * s.dstate * kFloat * parts(s); }

std::int64_t forward_bytes(const ByteShape& s) {
  const std::int64_t sequences_read = s.has_z ? 3 : 2;     // u, delta (, z)
  const std::int64_t sequences_written = s.has_z ? 2 : 1;  // out (, out_z)
  const std::int64_t reads = sequences_read * sequence_bytes(s) + projection_bytes(s, s.variable_B) +
                             projection_bytes(s, s.variable_C) + weight_bytes(s) +
                             (s.has_initial_state ? state_bytes(s) : 0);
  const std::int64_t writes =
      sequences_written * sequence_bytes(s) + chunk_state_bytes(s) + (s.has_last_state ? state_bytes(s) : 0);
  return reads + writes;
}

std::int64_t backward_bytes(const ByteShape& s) {
  const std::int64_t sequences_read = s.has_z ? 5 : 3;     // u, delta, dout (, z, out: for dz)
  const std::int64_t sequences_written = s.has_z ? 3 : 2;  // du, ddelta (, dz)
  const std::int64_t reads = sequences_read * sequence_bytes(s) + projection_bytes(s, s.variable_B) +
                             projection_bytes(s, s.variable_C) + weight_bytes(s) + chunk_state_bytes(s) +
                             (s.has_initial_state ? state_bytes(s) : 0);
  const std::int64_t writes = sequences_written * sequence_bytes(s) + projection_gradient_bytes(s, s.variable_B) +
                              projection_gradient_bytes(s, s.variable_C) + weight_bytes(s) +
                              (s.has_initial_state ? state_bytes(s) : 0);
  return reads + writes;
}

std::int64_t forward_backward_bytes(const ByteShape& s) { return forward_bytes(s) + backward_bytes(s); }

std::int64_t unfused_forward_bytes(const ByteShape& s) {
  // Ā and B̄u: each written once by the discretisation and read once by the scan.
  return forward_bytes(s) + 2 * (2 * all_states_bytes(s));
}

std::int64_t state_steps(const ByteShape& s) { return s.batch * s.dim * std::int64_t(s.dstate) * s.seqlen; }

double exp_floor_seconds(const ByteShape& s, int exps_per_state_step, int multiprocessors, double clock_hz) {
  const int mufu_per_exp = s.complex ? 3 : 1;  // exp2, and for a complex A its sine and cosine
  return double(state_steps(s)) * exps_per_state_step * mufu_per_exp /
         (double(kMufuResultsPerClock) * multiprocessors * clock_hz);
}

}  // namespace ch08
