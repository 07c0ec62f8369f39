// Chapter 08's GPU exercise (exercise 4: version 1's forward kernel,
// selective_scan/v1_naive_forward.cu). In the `exercises` preset the stub runs here, and every case
// must fail until the reader writes the kernel. Each case runs the library's forward with version 1
// on problems drawn as the official test suite draws them, and compares out, out_z, the last state
// and every chunk state with the fp64 reference under the official tolerances. Every output is NaN
// before the run (DeviceProblem poisons them), so one left unwritten fails; with real A every row
// along time is padded with NaN in memory, so reading past a row's end shows in the outputs, and
// writing past it is caught when the rows come back.
#include "ch08_test_support.hpp"
#include "cuda_check.hpp"
#include "device_problem.hpp"
#include "gpu_test.hpp"
#include "selective_scan.hpp"
#include "tolerances.hpp"
#include "verdict.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

using ch08::Complex;
using ch08::Problem;
using selective_scan::DataType;
using selective_scan::kChunkLength;

namespace {

constexpr std::int64_t kRowPadding = 3;  // NaN after every row along time (real A only)

// batch 2, dim 3, B and C variable, D, the gate z, Δ's bias and softplus: the cases below change
// what they test.
Problem shape(std::int64_t seqlen, int dstate) {
  Problem p;
  p.batch = 2, p.dim = 3, p.seqlen = seqlen, p.dstate = dstate;
  p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = true;
  return p;
}

// Rows of `length` numbers cut to their first `steps`.
template <class T>
std::vector<T> first_of_rows(const std::vector<T>& rows, std::int64_t length, std::int64_t steps) {
  std::vector<T> cut;
  for (std::size_t row = 0; row < rows.size(); row += std::size_t(length))
    cut.insert(cut.end(), rows.begin() + std::ptrdiff_t(row), rows.begin() + std::ptrdiff_t(row + steps));
  return cut;
}

// The reference's chunk states, (batch, dim, chunks, dstate): chunk c's is the last state of the
// problem cut to its first min((c + 1)·kChunkLength, seqlen) steps.
std::vector<Complex> reference_chunk_states(const Problem& p) {
  const std::int64_t chunks = (p.seqlen + kChunkLength - 1) / kChunkLength;
  std::vector<Complex> states(std::size_t(p.batch * p.dim * chunks * p.dstate));
  for (std::int64_t c = 0; c < chunks; ++c) {
    Problem cut = p;
    cut.seqlen = std::min((c + 1) * kChunkLength, p.seqlen);
    cut.u = first_of_rows(p.u, p.seqlen, cut.seqlen);
    cut.delta = first_of_rows(p.delta, p.seqlen, cut.seqlen);
    cut.z = first_of_rows(p.z, p.seqlen, cut.seqlen);
    if (p.variable_B) cut.B = first_of_rows(p.B, p.seqlen, cut.seqlen);
    if (p.variable_C) cut.C = first_of_rows(p.C, p.seqlen, cut.seqlen);
    const std::vector<Complex> last = ch08::reference_forward(cut).last_state;
    for (std::int64_t bd = 0; bd < p.batch * p.dim; ++bd)
      std::copy_n(last.begin() + bd * p.dstate, p.dstate, states.begin() + (bd * chunks + c) * p.dstate);
  }
  return states;
}

// Runs version 1's forward on `drawn` (rounded first to what the GPU sees in `type`) and compares
// every output with the reference; a failure names the problem, the tensor and the element.
void compare_version_1(const Problem& drawn, DataType type) {
  const Problem p = ch08::as_gpu_sees(drawn, type);
  const std::int64_t padding = p.complex ? 0 : kRowPadding;
  INFO("version 1's forward, " << ch08_test::type_name(type) << ", " << ch08_test::describe(p)
                               << (padding ? ", rows padded with NaN" : ""));
  const ch08::ForwardResult expected = ch08::reference_forward(p);
  const std::vector<Complex> expected_chunks = reference_chunk_states(p);

  ch08::DeviceProblem device(p, type, selective_scan::Kernel::naive, false, padding);
  device.forward();
  CUDA_CHECK(cudaDeviceSynchronize());
  const ch08::ForwardResult got = device.forward_result();  // throws if a row's padding was written
  const std::vector<Complex> got_chunks = device.chunk_states();

  const ch08::OfficialTolerances tol = ch08::official_tolerances(type, p);
  const std::int64_t parts = p.complex ? 2 : 1, chunks = (p.seqlen + kChunkLength - 1) / kChunkLength;
  const auto step = [&](std::size_t i) {
    const std::int64_t t = std::int64_t(i) % p.seqlen, bd = std::int64_t(i) / p.seqlen;
    return "b " + std::to_string(bd / p.dim) + ", d " + std::to_string(bd % p.dim) + ", t " + std::to_string(t) +
           " (step " + std::to_string(t % 32) + " of its tile of 32)";
  };
  const auto state = [&](std::int64_t element, std::int64_t part) {
    return "state " + std::to_string(element % p.dstate) + (p.complex ? (part ? " (im)" : " (re)") : "");
  };
  const auto last_state = [&](std::size_t i) {
    const std::int64_t element = std::int64_t(i) / parts, bd = element / p.dstate;
    return "b " + std::to_string(bd / p.dim) + ", d " + std::to_string(bd % p.dim) + ", " +
           state(element, std::int64_t(i) % parts);
  };
  const auto chunk_state = [&](std::size_t i) {
    const std::int64_t element = std::int64_t(i) / parts, c = element / p.dstate % chunks;
    const std::int64_t bd = element / p.dstate / chunks, end = std::min((c + 1) * kChunkLength, p.seqlen);
    return "b " + std::to_string(bd / p.dim) + ", d " + std::to_string(bd % p.dim) + ", chunk " + std::to_string(c) +
           " (h after step " + std::to_string(end - 1) + "), " + state(element, std::int64_t(i) % parts);
  };

  const auto check = [](const char* tensor, const common::Comparison& c, const auto& where) {
    INFO(tensor << ": " << c.summary(where));
    CHECK(c.ok);
  };
  check("out", common::compare(got.out, expected.out, tol.out), step);
  if (p.has_z) check("out_z", common::compare(got.out_z, expected.out_z, tol.out), step);
  check("last_state",
        common::compare(ch08::flatten(got.last_state, p.complex), ch08::flatten(expected.last_state, p.complex),
                        tol.last_state),
        last_state);
  check(
      "chunk_states",
      common::compare(ch08::flatten(got_chunks, p.complex), ch08::flatten(expected_chunks, p.complex), tol.last_state),
      chunk_state);
}

// The same on the official suite's data of that shape, drawn from `seed`.
void check_version_1(const Problem& shape, unsigned seed, DataType type = DataType::float32) {
  compare_version_1(ch08::make_official_test_problem(shape, seed), type);
}

}  // namespace

TEST_CASE("exercise 4: version 1's forward on 1 to 300 steps, tiles of 32 full and not", "[exercise][gpu]") {
  REQUIRE_GPU();
  // A last tile walked as if it had 32 steps reads the NaN past the row's end and writes past it;
  // one that is dropped leaves steps NaN.
  for (std::int64_t seqlen : {1, 31, 32, 33, 300}) check_version_1(shape(seqlen, 16), unsigned(400 + seqlen));
}

TEST_CASE("exercise 4: version 1's forward with 1, 16 and 40 states", "[exercise][gpu]") {
  REQUIRE_GPU();
  // 1 and 16 states leave threads of the warp without a state: steps finished only by threads
  // that have one stay NaN. 40 states take two warps: a sum over the first warp's states alone
  // misses 8 terms, and a missing barrier lets one warp read terms the other has not written.
  for (int dstate : {1, 16, 40}) check_version_1(shape(100, dstate), unsigned(410 + dstate));
}

TEST_CASE("exercise 4: version 1's forward with B and C variable, constant, and one of each", "[exercise][gpu]") {
  REQUIRE_GPU();
  // B_at and C_at read either; reading ch.B_var or ch.B_const directly fails one of these. Both
  // variable: two groups of channels, each with its own rows.
  for (int variable = 0; variable < 4; ++variable) {
    Problem p = shape(100, 16);
    p.dim = 4;
    p.variable_B = variable & 1;
    p.variable_C = variable & 2;
    p.groups = variable == 3 ? 2 : 1;
    check_version_1(p, unsigned(420 + variable));
  }
}

TEST_CASE("exercise 4: version 1's forward with and without D, the gate z, and delta's bias and softplus",
          "[exercise][gpu]") {
  REQUIRE_GPU();
  // out is y before the gate, out_z after it; D u is added once per step, not once per state;
  // delta_at(t) applies the bias and softplus, the raw delta does not.
  for (int flags = 0; flags < 8; ++flags) {
    Problem p = shape(70, 16);
    p.has_D = flags & 1;
    p.has_z = flags & 2;
    p.has_delta_bias = p.delta_softplus = flags & 4;
    check_version_1(p, unsigned(430 + flags));
  }
}

TEST_CASE("exercise 4: version 1's forward from an initial state to the last state", "[exercise][gpu]") {
  REQUIRE_GPU();
  // h starts from initial_state where one is given (not from 0), and its final value goes to
  // last_state, for one step and for many.
  for (std::int64_t seqlen : {1, 100}) {
    Problem p = shape(seqlen, 16);
    p.has_initial_state = true;
    check_version_1(p, unsigned(440 + seqlen));
  }
}

TEST_CASE("exercise 4: version 1's forward keeps h at the end of every chunk of 2048 steps", "[exercise][gpu]") {
  REQUIRE_GPU();
  // chunk_states holds h after steps 2047, 4095, ... and after the last step: 2048 steps are one
  // chunk, 2049 two (the second of one step), 4100 three. Storing at the sequence's end alone,
  // before the step's update, or at the wrong chunk's index fails these.
  for (std::int64_t seqlen : {kChunkLength, kChunkLength + 1, 2 * kChunkLength + 4}) {
    Problem p = shape(seqlen, 16);
    p.has_initial_state = seqlen > kChunkLength;
    check_version_1(p, unsigned(450 + seqlen - kChunkLength));
  }
}

TEST_CASE("exercise 4: version 1's forward with complex A", "[exercise][gpu]") {
  REQUIRE_GPU();
  // h, A, B and C are (re, im) pairs, and a state's part of out is 2 Re(C h) (output_part): the
  // conjugate state is implied. Constant and variable B and C, an initial state, two chunks.
  unsigned seed = 460;
  for (bool variable : {false, true})
    for (std::int64_t seqlen : {std::int64_t(33), kChunkLength + 1}) {
      Problem p = shape(seqlen, 16);
      p.complex = p.has_initial_state = true;
      p.variable_B = p.variable_C = variable;
      check_version_1(p, seed++);
    }
}

TEST_CASE("exercise 4: version 1's forward with fp16 and bf16 inputs", "[exercise][gpu]") {
  REQUIRE_GPU();
  // u, delta, z, a variable B and C and the outputs are of the input type: read them with
  // to_float, write them with from_float<Input>; h and the sums stay fp32.
  for (DataType type : {DataType::float16, DataType::bfloat16})
    for (bool complex : {false, true}) {
      Problem p = shape(300, 40);
      p.complex = p.has_initial_state = complex;
      check_version_1(p, unsigned(470 + complex), type);
    }
}
