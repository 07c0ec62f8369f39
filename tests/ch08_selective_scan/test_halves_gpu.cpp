// A sequence in two calls on the GPU: the first call's last state goes into the second as its
// initial state, and the second's gradient of that state goes back into the first call's backward
// as its dlast_state. Joined (outputs and per-step gradients) and summed (weights' gradients), the
// two calls must give what one call over the whole sequence gives: judged against the fp64
// reference of that one call by the rule every single call meets (verdict.hpp). The fp64
// reference itself is checked to be cut this way exactly (test_reference.cpp); this is the
// library's side of it, every version and type, also with packed sequences.
#include "ch08_test_support.hpp"
#include "cuda_check.hpp"
#include "gpu_test.hpp"
#include "scan_check.hpp"
#include "version5_test.hpp"

#include <catch2/catch.hpp>

using ch08::Complex;
using ch08::DeviceProblem;
using ch08::Problem;
using ch08_test::joined_rows;
using ch08_test::steps_of_rows;
using ch08_test::summed;
using selective_scan::DataType;
using selective_scan::Kernel;

namespace {

// The sequences of p that have steps in [begin, end): [first, last] by index.
struct SequenceRange {
  std::int64_t first = 0, last = 0;
};
SequenceRange sequences_in(const Problem& p, std::int64_t begin, std::int64_t end) {
  if (p.cu_seqlens.empty()) return {0, p.batch - 1};
  SequenceRange r{-1, -1};
  for (std::int64_t q = 0; q + 1 < std::int64_t(p.cu_seqlens.size()); ++q)
    if (p.cu_seqlens[std::size_t(q)] < end && p.cu_seqlens[std::size_t(q) + 1] > begin) {
      if (r.first < 0) r.first = q;
      r.last = q;
    }
  return r;
}

// Steps [begin, begin + length) of p as a call of their own: a packed sequence cut by either end
// keeps the part inside. Its initial states are left for the caller to fill.
Problem piece(const Problem& p, std::int64_t begin, std::int64_t length) {
  Problem q = ch08_test::time_slice(p, begin, length);
  if (!p.cu_seqlens.empty()) {
    q.cu_seqlens = {0};
    for (std::int64_t offset : p.cu_seqlens)
      if (offset > begin && offset < begin + length) q.cu_seqlens.push_back(offset - begin);
    q.cu_seqlens.push_back(length);
  }
  q.initial_state.clear();
  return q;
}

// The (dim, dstate) block of states of sequence q.
std::vector<Complex> states_of(const std::vector<Complex>& states, std::int64_t q, const Problem& p) {
  const std::size_t size = std::size_t(p.dim * p.dstate);
  if (states.empty()) return std::vector<Complex>(size);
  return {states.begin() + std::ptrdiff_t(std::size_t(q) * size),
          states.begin() + std::ptrdiff_t(std::size_t(q + 1) * size)};
}
void append(std::vector<Complex>& to, const std::vector<Complex>& block) {
  to.insert(to.end(), block.begin(), block.end());
}

// `kernel` over `drawn` in two calls cut at step `cut`, against the fp64 reference of one call.
ch08::testing::Outcome run_in_halves(const Problem& drawn, DataType type, Kernel kernel, std::int64_t cut) {
  const Problem whole = ch08::as_gpu_sees(drawn, type);
  const std::int64_t rest = whole.seqlen - cut, rows = whole.batch * whole.dim;
  const ch08::testing::OutputGradients given = ch08::testing::draw_output_gradients(whole, type, 7, true);
  const std::vector<double>& dout = given.dout;
  const std::vector<Complex>& dlast = given.dlast_state;
  const ch08::ForwardResult expected = ch08::reference_forward(whole);
  const ch08::Gradients expected_grad = ch08::reference_backward(whole, dout, dlast);

  // Sequences [0, in_first] have steps in the first call, [from_second, last] in the second; a
  // sequence in both is cut, and its state and gradient cross between the calls.
  const std::int64_t in_first = sequences_in(whole, 0, cut).last;
  const std::int64_t from_second = sequences_in(whole, cut, whole.seqlen).first;
  const std::int64_t sequences = whole.sequences();
  Problem first = piece(whole, 0, cut), second = piece(whole, cut, rest);
  if (whole.has_initial_state)
    for (std::int64_t q = 0; q <= in_first; ++q) append(first.initial_state, states_of(whole.initial_state, q, whole));

  DeviceProblem first_call(first, type, kernel);
  first_call.forward();
  CUDA_CHECK(cudaDeviceSynchronize());
  const ch08::ForwardResult first_out = first_call.forward_result();
  second.has_initial_state = true;
  for (std::int64_t q = from_second; q < sequences; ++q)
    append(second.initial_state,
           q <= in_first ? states_of(first_out.last_state, q, whole) : states_of(whole.initial_state, q, whole));

  DeviceProblem second_call(second, type, kernel);
  second_call.forward();
  second_call.set_dout(steps_of_rows(dout, rows, whole.seqlen, cut, whole.seqlen));
  std::vector<Complex> second_dlast;
  for (std::int64_t q = from_second; q < sequences; ++q) append(second_dlast, states_of(dlast, q, whole));
  second_call.set_dlast_state(second_dlast);
  second_call.backward();
  CUDA_CHECK(cudaDeviceSynchronize());
  const ch08::ForwardResult second_out = second_call.forward_result();
  const ch08::Gradients second_grad = second_call.gradients();

  first_call.set_dout(steps_of_rows(dout, rows, whole.seqlen, 0, cut));
  std::vector<Complex> first_dlast;
  for (std::int64_t q = 0; q <= in_first; ++q)
    append(first_dlast, q >= from_second ? states_of(second_grad.dinitial_state, q - from_second, whole)
                                         : states_of(dlast, q, whole));
  first_call.set_dlast_state(first_dlast);
  first_call.backward();
  CUDA_CHECK(cudaDeviceSynchronize());
  const ch08::Gradients first_grad = first_call.gradients();

  ch08::ForwardResult got;
  got.out = joined_rows(first_out.out, second_out.out, rows, cut, rest);
  if (whole.has_z) got.out_z = joined_rows(first_out.out_z, second_out.out_z, rows, cut, rest);
  for (std::int64_t q = 0; q < sequences; ++q)
    append(got.last_state, q >= from_second ? states_of(second_out.last_state, q - from_second, whole)
                                            : states_of(first_out.last_state, q, whole));
  ch08::Gradients got_grad;
  got_grad.du = joined_rows(first_grad.du, second_grad.du, rows, cut, rest);
  got_grad.ddelta = joined_rows(first_grad.ddelta, second_grad.ddelta, rows, cut, rest);
  if (whole.has_z) got_grad.dz = joined_rows(first_grad.dz, second_grad.dz, rows, cut, rest);
  got_grad.dA = summed(first_grad.dA, second_grad.dA);
  const std::int64_t projections = whole.batch * whole.groups * whole.dstate;
  got_grad.dB = whole.variable_B ? joined_rows(first_grad.dB, second_grad.dB, projections, cut, rest)
                                 : summed(first_grad.dB, second_grad.dB);
  got_grad.dC = whole.variable_C ? joined_rows(first_grad.dC, second_grad.dC, projections, cut, rest)
                                 : summed(first_grad.dC, second_grad.dC);
  if (whole.has_D) got_grad.dD = summed(first_grad.dD, second_grad.dD);
  if (whole.has_delta_bias) got_grad.ddelta_bias = summed(first_grad.ddelta_bias, second_grad.ddelta_bias);
  if (whole.has_initial_state)
    for (std::int64_t q = 0; q < sequences; ++q)
      append(got_grad.dinitial_state, q <= in_first ? states_of(first_grad.dinitial_state, q, whole)
                                                    : states_of(second_grad.dinitial_state, q - from_second, whole));

  return ch08::testing::judge(whole, type, got, expected, got_grad, expected_grad);
}

void require_halves_match(const Problem& drawn, DataType type, Kernel kernel, std::int64_t cut) {
  const auto outcome = run_in_halves(drawn, type, kernel, cut);
  INFO(ch08::testing::describe(drawn, type, kernel) << ", cut at step " << cut << "\n" << outcome.report);
  CHECK(outcome.ok);
}

Problem every_flag(std::int64_t batch, std::int64_t dim, std::int64_t seqlen, int dstate, bool initial) {
  Problem p;
  p.batch = batch, p.dim = dim, p.seqlen = seqlen, p.dstate = dstate, p.groups = 2;
  p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = true;
  p.has_initial_state = initial;
  return p;
}

}  // namespace

TEST_CASE("two calls over the halves on the GPU give one call's outputs and gradients", "[gpu]") {
  REQUIRE_GPU();
  const std::vector<Kernel> versions = ch08_test::every_version();
  unsigned seed = 301;
  // Cuts inside a thread's steps and past a chunk of 2048; real and complex A, with and without
  // an initial state of the whole sequence.
  for (bool complex : {false, true})
    for (bool initial : {false, true}) {
      Problem p = every_flag(2, 4, 300, 8, initial);
      p.complex = complex;
      const Problem drawn = ch08::make_official_test_problem(p, seed++);
      for (Kernel kernel : versions) require_halves_match(drawn, DataType::float32, kernel, 37);
    }
  for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16}) {
    const Problem drawn = ch08::make_official_test_problem(every_flag(2, 8, 2600, 16, true), seed++);
    for (Kernel kernel : versions) require_halves_match(drawn, type, kernel, 2085);
  }
  // Version 5's own paths: a block of channels per group, and few channels with the sequence cut
  // into segments.
  if (ch08_test::why_no_version_5().empty())
    for (DataType type : {DataType::float32, DataType::bfloat16}) {
      require_halves_match(ch08::make_official_test_problem(every_flag(2, 64, 1000, 16, true), seed++), type,
                           Kernel::ring, 512);
      require_halves_match(ch08::make_official_test_problem(every_flag(1, 32, 8200, 16, false), seed++), type,
                           Kernel::ring, 4100);
    }
}

TEST_CASE("two calls over the halves on the GPU with packed sequences", "[gpu]") {
  REQUIRE_GPU();
  const auto packed = [](const std::vector<std::int64_t>& lengths, bool initial) {
    Problem p = every_flag(1, 4, 0, 8, initial);
    p.cu_seqlens = {0};
    for (std::int64_t length : lengths) p.cu_seqlens.push_back(p.cu_seqlens.back() + length);
    p.seqlen = p.cu_seqlens.back();
    return p;
  };
  unsigned seed = 331;
  // Cut inside the long sequence, and on a boundary between sequences.
  for (bool initial : {false, true})
    for (std::int64_t cut : {150, 8}) {
      const Problem drawn = ch08::make_official_test_problem(packed({1, 7, 300}, initial), seed++);
      for (DataType type : {DataType::float32, DataType::bfloat16})
        for (Kernel kernel : {Kernel::blocked, Kernel::automatic}) require_halves_match(drawn, type, kernel, cut);
    }
  if (ch08_test::why_no_version_5().empty()) {
    const Problem drawn = ch08::make_official_test_problem(packed({2000, 100, 3000}, true), seed++);
    for (DataType type : {DataType::float32, DataType::bfloat16}) require_halves_match(drawn, type, Kernel::ring, 2050);
  }
}
