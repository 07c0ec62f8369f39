// The byte model: exact counts on a tiny shape, and the official kernel's measured figures
// (official_baseline.md in chapters/08_selective_scan, one H200): time / floor must give the
// ratios its table prints.
#include "byte_model.hpp"

#include <catch2/catch.hpp>

#include <cmath>

using ch08::ByteShape;
using ch08::StateAccounting;

namespace {

struct OfficialRun {
  int input_bytes;
  std::int64_t batch, dim, seqlen;
  double forward_ms, forward_backward_ms;        // measured
  double forward_ratio, forward_backward_ratio;  // time / floor, as printed (two digits)
};

// official_baseline.md's table, dstate 16 in every row.
const OfficialRun kOfficialRuns[] = {
    {4, 8, 1536, 2048, 0.884, 2.915, 7.4, 9.4},  {2, 8, 1536, 2048, 0.460, 2.215, 7.7, 14.3},
    {4, 1, 5120, 8192, 1.618, 5.067, 8.2, 9.9},  {2, 1, 5120, 8192, 0.903, 4.060, 9.1, 15.7},
    {4, 16, 1536, 512, 0.470, 1.546, 7.8, 10.0}, {2, 16, 1536, 512, 0.235, 1.049, 7.7, 13.4},
};

ByteShape official_shape(const OfficialRun& run, StateAccounting accounting) {
  ByteShape s;  // the defaults are the benchmark's flags: real A, variable B and C, z, D, delta_bias
  s.batch = run.batch;
  s.dim = run.dim;
  s.seqlen = run.seqlen;
  s.dstate = 16;
  s.input_bytes = run.input_bytes;
  s.accounting = accounting;
  return s;
}

double floor_ms(std::int64_t bytes) { return double(bytes) / ch08::kOfficialCopyBandwidth * 1e3; }

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

TEST_CASE("byte model: the official forward at (8, 1536, 2048, 16) fp32 runs at 7.4 times its floor") {
  const ByteShape s = official_shape(kOfficialRuns[0], StateAccounting::official_kernel);
  // The floor: bytes / 4.26 TB/s = 0.884 ms / 7.4, to within 1% (the ratio has two digits).
  CHECK(floor_ms(ch08::forward_bytes(s)) == Approx(0.884 / 7.4).epsilon(0.01));
}

TEST_CASE("byte model: every row of the official kernel's table, to the precision it prints") {
  for (const OfficialRun& run : kOfficialRuns) {
    INFO((run.input_bytes == 4 ? "fp32" : "bf16")
         << " (" << run.batch << ", " << run.dim << ", " << run.seqlen << ", 16)");
    // The official kernel's own accounting. Its ratios carry two digits: rounding alone explains up to
    // ±0.7% (±0.05 in 7.4). Measured: every forward within 0.4%; forward + backward within 0.5%
    // but for seqlen 512, 0.55% (bf16) and 0.83% (fp32: 9.92 where the table prints 10.0) -- a
    // little past rounding, in the table itself, so the bound is 1%.
    const ByteShape official = official_shape(run, StateAccounting::official_kernel);
    const double forward_ratio = run.forward_ms / floor_ms(ch08::forward_bytes(official));
    const double both_ratio = run.forward_backward_ms / floor_ms(ch08::forward_backward_bytes(official));
    INFO("forward " << forward_ratio << "x floor, forward + backward " << both_ratio << "x floor");
    CHECK(forward_ratio == Approx(run.forward_ratio).epsilon(0.01));
    CHECK(both_ratio == Approx(run.forward_backward_ratio).epsilon(0.01));

    // This library's accounting (one fp32 value per chunk state, dB and dC in fp32) differs
    // from it by chunk states and dB, dC alone: under 2% at these shapes.
    const ByteShape library = official_shape(run, StateAccounting::library);
    CHECK(double(ch08::forward_bytes(library)) == Approx(double(ch08::forward_bytes(official))).epsilon(0.02));
    CHECK(double(ch08::forward_backward_bytes(library)) ==
          Approx(double(ch08::forward_backward_bytes(official))).epsilon(0.02));
  }
}

TEST_CASE("the exp floor: official_baseline.md's MUFU arithmetic for the first configuration") {
  ByteShape s;
  s.batch = 8, s.dim = 1536, s.seqlen = 2048, s.dstate = 16;
  CHECK(ch08::state_steps(s) == 402653184);  // official_baseline.md: 403 M state steps
  // 132 multiprocessors × 16 exp2 a clock × 1.98 GHz: one exp a state step ≈ 0.096 ms.
  const double one = ch08::exp_floor_seconds(s, ch08::kForwardExps, 132, 1.98e9);
  CHECK(one * 1e3 == Approx(0.0963).epsilon(0.002));
  CHECK(ch08::exp_floor_seconds(s, ch08::kForwardBackwardExps, 132, 1.98e9) == Approx(2 * one));
  s.complex = true;  // exp2, sine and cosine
  CHECK(ch08::exp_floor_seconds(s, ch08::kForwardExps, 132, 1.98e9) == Approx(3 * one));
}
