// The byte model: exact counts on a tiny shape, the two accountings (this library's and the
// official kernel's) side by side, and the exp floor's arithmetic.
#include "byte_model.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using ch08::ByteShape;
using ch08::StateAccounting;

namespace {

// The six configurations of the official kernel's benchmarks (chapter 08's --bench), dstate 16.
struct BenchShape {
  int input_bytes;
  std::int64_t batch, dim, seqlen;
};
const BenchShape kBenchShapes[] = {
    {4, 8, 1536, 2048}, {2, 8, 1536, 2048}, {4, 1, 5120, 8192},
    {2, 1, 5120, 8192}, {4, 16, 1536, 512}, {2, 16, 1536, 512},
};

ByteShape bench_shape(const BenchShape& b, StateAccounting accounting) {
  ByteShape s;  // the defaults are the benchmark's flags: real A, variable B and C, z, D, delta_bias
  s.batch = b.batch;
  s.dim = b.dim;
  s.seqlen = b.seqlen;
  s.dstate = 16;
  s.input_bytes = b.input_bytes;
  s.accounting = accounting;
  return s;
}

}  // namespace

TEST_CASE("byte model: every byte of a one-element problem, counted by hand") {
  ByteShape s;  // batch = dim = seqlen = 1
  s.dstate = 1;
  // Forward reads u, delta, z (3·4), B, C (2·4), A, D, delta_bias (3·4);
  // writes out, out_z (2·4) and one chunk state (4).
  CHECK(ch08::forward_bytes(s) == 12 + 8 + 12 + 8 + 4);
  // Backward reads u, delta, dout, z, out (5·4), B, C (8), A, D, delta_bias (12), the chunk state (4);
  // writes du, ddelta, dz (3·4), dB, dC (8), dA, dD, ddelta_bias (12).
  CHECK(ch08::backward_bytes(s) == 20 + 8 + 12 + 4 + 12 + 8 + 12);
  CHECK(ch08::forward_backward_bytes(s) == ch08::forward_bytes(s) + ch08::backward_bytes(s));
  // The unfused forward writes Ā and B̄u and reads them back: 4 more fp32 values.
  CHECK(ch08::unfused_forward_bytes(s) - ch08::forward_bytes(s) == 4 * 4);

  s.has_initial_state = s.has_last_state = true;  // read h0, write h_L; the backward reads h0, writes dh0
  CHECK(ch08::forward_bytes(s) == 44 + 8);
  CHECK(ch08::backward_bytes(s) == 76 + 8);
}

TEST_CASE("byte model: each flag adds what it reads and writes") {
  ByteShape s;
  s.batch = 3;
  s.dim = 8;
  s.seqlen = 4097;  // three chunks
  s.dstate = 16;
  s.input_bytes = 2;
  const std::int64_t sequence = 3 * 8 * 4097 * 2;
  const std::int64_t projection = 3 * 1 * 16 * 4097 * 2;

  ByteShape no_gate = s;
  no_gate.has_z = false;
  CHECK(ch08::forward_bytes(s) - ch08::forward_bytes(no_gate) == 2 * sequence);    // z, out_z
  CHECK(ch08::backward_bytes(s) - ch08::backward_bytes(no_gate) == 3 * sequence);  // z, out, dz

  ByteShape two_groups = s;
  two_groups.groups = 2;
  CHECK(ch08::forward_bytes(two_groups) - ch08::forward_bytes(s) == 2 * projection);

  ByteShape constant_B = s;
  constant_B.variable_B = false;  // (dim, dstate) fp32 instead of (batch, 1, dstate, seqlen)
  CHECK(ch08::forward_bytes(s) - ch08::forward_bytes(constant_B) == projection - 8 * 16 * 4);

  CHECK(ch08::chunk_state_bytes(s) == 3 * 8 * 3 * 16 * 4);
  ByteShape complex = s;
  complex.complex = true;
  CHECK(ch08::chunk_state_bytes(complex) == 2 * ch08::chunk_state_bytes(s));
  CHECK(ch08::all_states_bytes(complex) == 2 * ch08::all_states_bytes(s));
  ByteShape official = s;
  official.accounting = StateAccounting::official_kernel;
  CHECK(ch08::chunk_state_bytes(official) == 2 * ch08::chunk_state_bytes(s));
}

TEST_CASE("byte model: recomputation keeps one state per chunk instead of one per step") {
  ByteShape s;
  s.batch = 8;
  s.dim = 1536;
  s.seqlen = 2048;
  CHECK(ch08::all_states_bytes(s) == 8LL * 1536 * 2048 * 16 * 4);  // 1.6 GB
  CHECK(ch08::all_states_bytes(s) == 2048 * ch08::chunk_state_bytes(s));
  // Ā and B̄u are dstate fp32 values per (b, d, t) each, written and read back, where the fused
  // forward moves 5 input values per (b, d, t): the unfused forward moves over 13 times as much.
  CHECK(ch08::unfused_forward_bytes(s) - ch08::forward_bytes(s) == 4 * ch08::all_states_bytes(s));
  CHECK(double(ch08::unfused_forward_bytes(s)) / double(ch08::forward_bytes(s)) > 13.0);
}

TEST_CASE("byte model: the official kernel's accounting against the library's on the benchmark's shapes") {
  for (const BenchShape& b : kBenchShapes) {
    INFO((b.input_bytes == 4 ? "fp32" : "bf16") << " (" << b.batch << ", " << b.dim << ", " << b.seqlen << ", 16)");
    const ByteShape official = bench_shape(b, StateAccounting::official_kernel);
    const ByteShape library = bench_shape(b, StateAccounting::library);
    // The official kernel keeps (decay, state) pairs: twice the chunk-state bytes.
    CHECK(ch08::chunk_state_bytes(official) == 2 * ch08::chunk_state_bytes(library));
    // The two differ by chunk states and dB, dC alone: under 2% at these shapes, so the floors
    // the benchmark divides both kernels' times by are close.
    CHECK(double(ch08::forward_bytes(library)) == Approx(double(ch08::forward_bytes(official))).epsilon(0.02));
    CHECK(double(ch08::forward_backward_bytes(library)) ==
          Approx(double(ch08::forward_backward_bytes(official))).epsilon(0.02));
  }
}

TEST_CASE("the exp floor: MUFU arithmetic for (8, 1536, 2048, 16) on 132 multiprocessors at 1.98 GHz") {
  ByteShape s;
  s.batch = 8, s.dim = 1536, s.seqlen = 2048, s.dstate = 16;
  CHECK(ch08::state_steps(s) == 402653184);  // 403 M state steps
  // 132 multiprocessors × 16 exp2 a clock × 1.98 GHz: one exp a state step ≈ 0.096 ms.
  const double one = ch08::exp_floor_seconds(s, ch08::kForwardExps, 132, 1.98e9);
  CHECK(one * 1e3 == Approx(0.0963).epsilon(0.002));
  CHECK(ch08::exp_floor_seconds(s, ch08::kForwardBackwardExps, 132, 1.98e9) == Approx(2 * one));
  s.complex = true;  // exp2, sine and cosine
  CHECK(ch08::exp_floor_seconds(s, ch08::kForwardExps, 132, 1.98e9) == Approx(3 * one));
}
