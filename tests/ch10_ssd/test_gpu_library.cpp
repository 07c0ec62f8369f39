// The SSD library on the GPU against the fp64 recurrence: version 1 (chapter 08's scan with one
// A a head) forward and backward, version 2 (the chunked algorithm, cuBLAS's products) forward,
// on every input type, lengths past chapter 08's chunk of 2048 and chunks that do not divide the
// length, one head and many, groups, 1 and 128 states, D per head and per channel, the gate,
// softplus, dt_bias, an active clamp, initial states; version 2 also on packed sequences; version 3
// (the fused kernel on the tensor cores) forward and backward in fp16, bf16 and fp32 (as bf16
// pairs), where its tiles are cut and on packed sequences. Outputs are poisoned (NaN) before each call.
#include "ch10_test_support.hpp"
#include "device_problem.hpp"
#include "device_ssd.hpp"
#include "gpu_checks.hpp"
#include "gpu_test.hpp"
#include "segment_model.hpp"
#include "sequence_states.hpp"
#include "ssd.hpp"
#include "ssd_backward.hpp"
#include "ssd_reference.hpp"

#include <cuda_runtime.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

using ch10::DForm;
using ch10::Problem;
using ch10::ProblemSpec;
using ch10_test::check_backward;
using ch10_test::check_forward;
using ch10_test::check_tensor;
using ch10_test::name_of;

namespace {

using ch10_test::spec_of;

// The options of case c: each on in half the cases, D alternating between per head and per channel.
ProblemSpec with_options(ProblemSpec spec, int c) {
  spec.D = c % 3 == 0 ? DForm::none : c % 3 == 1 ? DForm::per_head : DForm::per_channel;
  spec.z = c & 1, spec.dt_softplus = c & 2, spec.dt_bias = c & 4, spec.initial_states = c & 8;
  if (c % 5 == 4) spec.dt_limit = {0.004, 0.05};  // holds part of the drawn range [1e-3, 0.1]
  return spec;
}

std::vector<ProblemSpec> shapes() {
  return {spec_of(2, 37, 4, 2, 6, 5),     spec_of(1, 1, 1, 1, 1, 1),     spec_of(3, 300, 6, 3, 8, 16),
          spec_of(1, 2049, 2, 1, 4, 128), spec_of(2, 4100, 3, 3, 2, 64), spec_of(1, 64, 8, 1, 64, 32)};
}

// shapes(), and where version 3's tiles are cut: channels past one block of 64 (80: two blocks a
// head), states rounded up to a tile of 64, 128 or 256 (65, 128, 256), lengths one position past a
// chunk and short of one.
std::vector<ProblemSpec> fused_shapes() {
  std::vector<ProblemSpec> cases = shapes();
  for (const ProblemSpec& spec : {spec_of(1, 130, 2, 1, 80, 256), spec_of(2, 65, 4, 2, 64, 65),
                                  spec_of(1, 200, 3, 1, 64, 128), spec_of(3, 64, 2, 2, 16, 8)})
    cases.push_back(spec);
  return cases;
}

constexpr ssd::DataType kTypes[] = {ssd::DataType::float32, ssd::DataType::float16, ssd::DataType::bfloat16};
// Version 3's types, fp32 (its pairs) last: the 16-bit cases keep the options they had before it.
constexpr ssd::DataType kFusedTypes[] = {ssd::DataType::float16, ssd::DataType::bfloat16, ssd::DataType::float32};

// Why version 3 refuses a call of `dstate` states on this GPU ("" where it takes it).
std::string fused_refusal(int dstate, ssd::DataType type = ssd::DataType::bfloat16) {
  return ch10::gpu_refusal({1, 64, 1, 64, 1, dstate}, type, ssd::Kernel::fused);
}

// A bf16 backward call of `dstate` states whose forward asks for `kernel`, for validate and
// kernel_of: its pointers are never read.
ssd::BackwardParams backward_call(int dstate, ssd::Kernel kernel) {
  return ch10::sizes_only_backward({1, 64, 1, 64, 1, dstate}, ssd::DataType::bfloat16, kernel);
}

// Why version 3's backward refuses a call of `dstate` states and `type` on this GPU ("" where it takes it).
std::string fused_backward_refusal(int dstate, ssd::DataType type = ssd::DataType::bfloat16) {
  return ch10::gpu_backward_refusal({1, 64, 1, 64, 1, dstate}, type, ssd::Kernel::fused);
}

// Why version 4 refuses a call of `dstate` states and `type` here ("" where it takes it).
std::string warpgroup_refusal(int dstate, ssd::DataType type) {
  return ch10::gpu_refusal({1, 64, 1, 64, 1, dstate}, type, ssd::Kernel::warpgroup);
}

// Ends the case as skipped (exit 77, as gpu_test.hpp's do) where version 4 cannot run: not an
// sm_90 GPU, or a build without sm_90a code.
void require_version_4() {
  const std::string why = warpgroup_refusal(64, ssd::DataType::bfloat16);
  if (why.empty()) return;
  std::printf("SKIPPED: %s\n", why.c_str());
  std::fflush(stdout);
  std::_Exit(77);
}

}  // namespace

TEST_CASE("version 1 (chapter 08's scan): the forward matches the fp64 recurrence", "[gpu]") {
  REQUIRE_GPU();
  int c = 0;
  for (const ssd::DataType type : kTypes)
    for (const ProblemSpec& shape : shapes()) {
      check_forward(with_options(shape, c), type, ssd::Kernel::recurrence, 256, unsigned(c));
      ++c;
    }
}

TEST_CASE("version 2 (chunked): the forward matches the fp64 recurrence, chunks that do not divide the length",
          "[gpu]") {
  REQUIRE_GPU();
  int c = 0;
  for (const ssd::DataType type : kTypes)
    for (const ProblemSpec& shape : shapes()) {
      const std::int64_t chunk = std::int64_t(1) << (c % 4 * 2 + 1);  // 2, 8, 32, 128
      check_forward(with_options(shape, c), type, ssd::Kernel::chunked, chunk, unsigned(c));
      ++c;
    }
  // One chunk a position, and one chunk longer than the sequence.
  check_forward(with_options(spec_of(2, 37, 4, 2, 6, 5), 15), ssd::DataType::float32, ssd::Kernel::chunked, 1, 7);
  check_forward(with_options(spec_of(2, 37, 4, 2, 6, 5), 14), ssd::DataType::float32, ssd::Kernel::chunked, 64, 8);
}

TEST_CASE("version 2 (chunked): packed sequences of 1, 7 and 300 positions, and 300 states", "[gpu]") {
  REQUIRE_GPU();
  int c = 0;
  for (const ssd::DataType type : kTypes)
    for (const std::int64_t chunk : {4, 64, 256}) {
      ProblemSpec spec = with_options(spec_of(2, 308, 4, 2, 8, 16), c);
      spec.packing = {{1, 7, 300}, {300, 7, 1}};
      check_forward(spec, type, ssd::Kernel::chunked, chunk, unsigned(c));
      ++c;
    }
  // Past chapter 08's 256 states, which only version 2 takes: automatic chooses it.
  check_forward(with_options(spec_of(1, 70, 2, 1, 3, 300), 9), ssd::DataType::float32, ssd::Kernel::automatic, 32, 9);
}

TEST_CASE("version 3 (fused on the tensor cores): the forward matches the fp64 recurrence", "[gpu]") {
  REQUIRE_GPU();
  // Small batches cut their rows into segments (1 to 65 chunks a row here, up to 65 segments); 320
  // (row, head) units fill an H100 or H200, whose rows are walked whole.
  std::vector<ProblemSpec> cases = fused_shapes();
  cases.push_back(spec_of(8, 300, 40, 4, 64, 16));
  int c = 0;
  for (const ssd::DataType type : kFusedTypes)
    for (const ProblemSpec& shape : cases) {
      // 129 to 256 states need more shared memory than Ada and most Ampere cards give a block;
      // fp32's pairs take at most 128 states, and fit 65 to 128 on Hopper alone.
      if (fused_refusal(shape.shape.dstate, type).empty())
        check_forward(with_options(shape, c), type, ssd::Kernel::fused, 256, unsigned(c));
      ++c;
    }
}

TEST_CASE("version 3 takes 256 states where a block may have their shared memory and refuses them elsewhere", "[gpu]") {
  REQUIRE_GPU();
  int device = 0, shared_per_block = 0;
  REQUIRE(cudaGetDevice(&device) == cudaSuccess);
  REQUIRE(cudaDeviceGetAttribute(&shared_per_block, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) == cudaSuccess);
  INFO("this GPU gives a block " << shared_per_block << " bytes");
  // The tiles of 128 states take 99,584 bytes, which every GPU of compute capability 8.x and 9.0
  // gives; those of 256 states 148,736 (an A100 or a Hopper GPU).
  CHECK(fused_refusal(128).empty());
  if (shared_per_block >= 148736)
    CHECK(fused_refusal(256).empty());
  else
    CHECK_THAT(fused_refusal(256), Catch::Contains("bytes of shared memory a block for 256 states"));
  // fp32 inputs as bf16 pairs: twice the operands' tiles, y's none (fp32 stores it from the
  // registers), z and x as they come: 148,736 bytes at 64 states and 197,888 at 128.
  const ssd::DataType fp32 = ssd::DataType::float32;
  if (shared_per_block >= 148736)
    CHECK(fused_refusal(64, fp32).empty());
  else
    CHECK_THAT(fused_refusal(64, fp32), Catch::Contains("bytes of shared memory a block for 64 states"));
  if (shared_per_block >= 197888)
    CHECK(fused_refusal(128, fp32).empty());
  else
    CHECK_THAT(fused_refusal(128, fp32), Catch::Contains("bytes of shared memory a block for 128 states"));
  CHECK_THAT(fused_refusal(129, fp32), Catch::Contains("fp32 inputs with at most 128 states"));
}

TEST_CASE("version 3 (fused): packed sequences whose boundaries fall inside chunks and between them", "[gpu]") {
  REQUIRE_GPU();
  int c = 0;
  for (const ssd::DataType type : kFusedTypes)
    for (const std::int64_t first : {1, 63, 64, 65}) {
      ProblemSpec spec = with_options(spec_of(2, 308, 4, 2, 8, 16), c);
      spec.packing = {{first, 7, 300 - first + 1}, {300, 7, 1}};
      if (fused_refusal(16, type).empty())  // fp32's pairs need 148,736 bytes a block
        check_forward(spec, type, ssd::Kernel::fused, 256, unsigned(c));
      ++c;
    }
}

TEST_CASE("version 4 (warpgroup products): the forward matches the fp64 recurrence", "[gpu]") {
  REQUIRE_GPU();
  require_version_4();
  std::vector<ProblemSpec> cases = fused_shapes();
  cases.push_back(spec_of(8, 300, 40, 4, 64, 16));
  int c = 0;
  for (const ssd::DataType type : {ssd::DataType::float16, ssd::DataType::bfloat16})
    for (const ProblemSpec& shape : cases) {
      if (warpgroup_refusal(shape.shape.dstate, type).empty())
        check_forward(with_options(shape, c), type, ssd::Kernel::warpgroup, 256, unsigned(c));
      ++c;
    }
}

TEST_CASE("version 4 (warpgroup products): packed sequences whose boundaries fall inside chunks and between them",
          "[gpu]") {
  REQUIRE_GPU();
  require_version_4();
  int c = 0;
  for (const ssd::DataType type : {ssd::DataType::float16, ssd::DataType::bfloat16})
    for (const std::int64_t first : {1, 63, 64, 65}) {
      ProblemSpec spec = with_options(spec_of(2, 308, 4, 2, 8, 16), c);
      spec.packing = {{first, 7, 300 - first + 1}, {300, 7, 1}};
      check_forward(spec, type, ssd::Kernel::warpgroup, 256, unsigned(c));
      ++c;
    }
}

TEST_CASE("version 4 refuses fp32 and more than 256 states, and leaves its backward to version 3", "[gpu]") {
  REQUIRE_GPU();
  require_version_4();
  CHECK_THAT(warpgroup_refusal(64, ssd::DataType::float32), Catch::Contains("fp16 and bf16"));
  CHECK_THAT(warpgroup_refusal(257, ssd::DataType::bfloat16), Catch::Contains("at most 256 states"));
  CHECK(ssd::kernel_of(backward_call(64, ssd::Kernel::warpgroup)) == ssd::Kernel::fused);
}

TEST_CASE("version 1 (chapter 08's scan): every gradient matches the fp64 adjoint", "[gpu]") {
  REQUIRE_GPU();
  int c = 0;
  for (const ssd::DataType type : kTypes)
    for (const ProblemSpec& shape : shapes()) {
      check_backward(with_options(shape, c), type, ssd::Kernel::recurrence, unsigned(c), 1000u + unsigned(c));
      ++c;
    }
}

TEST_CASE("version 3 (fused): every gradient matches the fp64 adjoint", "[gpu]") {
  REQUIRE_GPU();
  // The forward's shapes (two blocks of 80 channels add into dB, dC, dA and ddt), and 132 blocks
  // of 3 chunks: one block on every multiprocessor of an H100 or H200.
  std::vector<ProblemSpec> cases = fused_shapes();
  cases.push_back(spec_of(2, 150, 66, 2, 64, 16));
  int c = 0;
  for (const ssd::DataType type : kFusedTypes)
    for (const ProblemSpec& shape : cases) {
      // The backward's tiles need 103,684, 108,804 or 217,348 bytes of shared memory a block (64,
      // 128, 256 states): more than Ada and most Ampere cards give, and past 128 states more than an A100.
      // fp32's pairs take at most 128 states in 149,764 or 215,300 bytes (up to 64, 128 states).
      if (fused_backward_refusal(shape.shape.dstate, type).empty())
        check_backward(with_options(shape, c), type, ssd::Kernel::fused, unsigned(c), 2000u + unsigned(c));
      ++c;
    }
}

TEST_CASE("version 3 (fused): a forward that keeps its saved matches the fp64 recurrence", "[gpu]") {
  REQUIRE_GPU();
  // Its walk writes y, u (with z) and the entering states: with and without z as with_options
  // varies it.
  int c = 0;
  for (const ssd::DataType type : kFusedTypes)
    for (const ProblemSpec& shape : fused_shapes()) {
      if (fused_refusal(shape.shape.dstate, type).empty()) {
        INFO(name_of(type) << ", " << ch10_test::describe(shape) << ", seed " << c);
        const ch10::Problem p = ch10::as_gpu_sees(ch10::make_problem(with_options(shape, c), unsigned(c)), type);
        const ch10::Forward got = ch10::gpu_forward_saving(p, type), ref = ch10::ssd_recurrence(p);
        check_tensor("y", got.y, ch08::round_to(ref.y, type), type);
        check_tensor("final states", got.final_states, ref.final_states, type);
      }
      ++c;
    }
}

TEST_CASE("version 3 (fused): 16-bit inputs' final states err far below the weighted x's rounding", "[gpu]") {
  REQUIRE_GPU();
  // Asked for the final states, version 3 multiplies the weighted x of the state's update as hi + lo:
  // a term then errs by 2^-18 of itself in bf16 (in fp16 lo is often subnormal, an absolute 3·10^-8).
  // Rounded to 16 bits, as the official kernels round their weighted B, the final states erred by
  // 3·10^-4 (fp16) and 2·10^-3 (bf16) of their largest value on an H200 (appendix A,
  // 2026-12-01); 2^-14 (6·10^-5) lies between. At 64 states, whose tiles and the split's fit the
  // 99 KB a block of Ada and most Ampere cards. A backward after each, whose forward runs without
  // the split, so that each forward follows a call of the same kernels with less shared memory (a
  // launch failed so once, the smaller allowance standing).
  int c = 0;
  for (const ssd::DataType type : {ssd::DataType::float16, ssd::DataType::bfloat16})
    for (const ProblemSpec& shape :
         {spec_of(2, 4100, 3, 3, 2, 64), spec_of(1, 1000, 3, 1, 80, 64), spec_of(2, 300, 4, 2, 64, 64)}) {
      ProblemSpec spec = with_options(shape, c);
      spec.initial_states = c % 2 == 1;
      INFO(name_of(type) << ", " << ch10_test::describe(spec) << ", seed " << c);
      const ch10::Problem p = ch10::as_gpu_sees(ch10::make_problem(spec, unsigned(c)), type);
      const ch10::Forward got = ch10::gpu_forward(p, type, ssd::Kernel::fused), ref = ch10::ssd_recurrence(p);
      double scale = 0;
      for (double v : ref.final_states) scale = std::max(scale, std::abs(v));
      CHECK_CLOSE("final states", common::compare(got.final_states, ref.final_states, {std::ldexp(scale, -14), 0.0}));
      check_backward(spec, type, ssd::Kernel::fused, unsigned(c), 3000u + unsigned(c));
      ++c;
    }
}

TEST_CASE("version 3 (fused): a backward from its forward's saved matches the fp64 adjoint", "[gpu]") {
  REQUIRE_GPU();
  // The saved u and entering states, in place of the backward's own forward: with and without z
  // (u is saved with z alone), D, initial and final states and packed sequences as
  // with_options varies them; its saved poisoned first, so a byte the forward leaves is caught.
  std::vector<ProblemSpec> cases = fused_shapes();
  ProblemSpec packed = spec_of(2, 308, 4, 2, 8, 16);
  packed.packing = {{63, 7, 238}, {300, 7, 1}};
  cases.push_back(packed);
  int c = 0;
  for (const ssd::DataType type : kFusedTypes)
    for (const ProblemSpec& shape : cases) {
      if (fused_backward_refusal(shape.shape.dstate, type).empty())
        check_backward(with_options(shape, c), type, ssd::Kernel::fused, unsigned(c), 4000u + unsigned(c), true);
      ++c;
    }
}

TEST_CASE("version 3 (fused): packed sequences' gradients match the fp64 adjoint", "[gpu]") {
  REQUIRE_GPU();
  // Boundaries inside a chunk and on its edges, a one-position sequence, initial states (which
  // only the sequence numbered 0 sees) in half the cases.
  int c = 0;
  for (const ssd::DataType type : kFusedTypes) {
    if (!fused_backward_refusal(16, type).empty()) continue;  // fp32's pairs: 149,764 bytes a block
    for (const std::int64_t first : {1, 63, 64, 65}) {
      ProblemSpec spec = with_options(spec_of(2, 308, 4, 2, 8, 16), c + 8 * (c % 2));
      spec.packing = {{first, 7, 300 - first + 1}, {300, 7, 1}};
      check_backward(spec, type, ssd::Kernel::fused, unsigned(c), 3000u + unsigned(c));
      ++c;
    }
  }
}

TEST_CASE("the library keeps its scratch memory between calls and gives it back when asked", "[gpu]") {
  REQUIRE_GPU();
  // One head of a batch row of 10 chunks: version 3 cuts it into segments and takes their
  // summaries' states from the pool; the check waits for the call before it compares.
  const ProblemSpec spec = spec_of(1, 640, 1, 1, 16, 16);
  check_forward(spec, ssd::DataType::bfloat16, ssd::Kernel::fused, 256, 3);
  CHECK(ssd::cached_memory_bytes() > 0);
  ssd::release_cached_memory();
  CHECK(ssd::cached_memory_bytes() == 0);
  check_forward(spec, ssd::DataType::bfloat16, ssd::Kernel::fused, 256, 3);  // takes it again
  CHECK(ssd::cached_memory_bytes() > 0);
}

TEST_CASE("the model of a segmented launch adds its blocks' times as the GPU schedules them") {
  using namespace ssd::detail;
  // Rows walked whole, one wave: a chunk's walk (1) a chunk and the block's fixed part.
  CHECK(modelled_time(80, 32, cut_rows(32, 1), 132, 1, kForwardSegments) == Approx(32 + 1.25));
  // 200 units on 132 slots: two waves.
  CHECK(modelled_time(200, 32, cut_rows(32, 1), 132, 1, kForwardSegments) == Approx(2 * (32 + 1.25)));
  // One row of 4 chunks in two segments on 4 slots. Forward: the first segment's summary ends at
  // 2 × 0.35 + 1.25 = 1.95; the first segment walks from 0 to 3.25, the second from 1.95 to 5.2.
  CHECK(modelled_time(1, 4, cut_rows(4, 2), 4, 1, kForwardSegments) == Approx(5.2));
  // Backward: the last segment's summary ends at 2 × 0.1 + 0.5 = 0.7; the last segment walks
  // first, from 0 to 2.5, the first from 0.7 to 3.2.
  CHECK(modelled_time(1, 4, cut_rows(4, 2), 4, 1, kBackwardSegments) == Approx(3.2));
  // A block that waits for the summaries holds its slot: 2 units, 2 chunks, 2 slots, forward. The
  // summaries hold both slots to 1.6, the first segments to 3.85, the second segments to 6.1.
  CHECK(modelled_time(2, 2, cut_rows(2, 2), 2, 1, kForwardSegments) == Approx(6.1));
  // Two blocks a multiprocessor: three blocks of one chunk (2.25 each) on one multiprocessor. Two
  // work at 0.7 each and end at 2.25 / 0.7; the third then works alone, 2.25 more.
  CHECK(modelled_time(3, 1, cut_rows(1, 1), 1, 2, kForwardSegments) == Approx(2.25 / 0.7 + 2.25));
}

TEST_CASE("version 3 cuts its rows into the segments its model finds fastest") {
  using namespace ssd::detail;
  // Sizes: units, chunks, multiprocessors, the walk's blocks a multiprocessor.
  const auto forward = [](std::int64_t units, std::int64_t chunks, std::int64_t multiprocessors, int each) {
    return row_segments(units, chunks, multiprocessors, each, kForwardSegments);
  };
  const auto backward = [](std::int64_t units, std::int64_t chunks, std::int64_t multiprocessors, int each) {
    return row_segments(units, chunks, multiprocessors, each, kBackwardSegments);
  };
  // One block a multiprocessor (fp32): the cuts measured fastest on an H200 (appendix A,
  // 2026-12-01), to which the model was fitted. At 80 units the backward cuts three segments.
  CHECK(backward(80, 32, 132, 1).count == 3);
  // A wave and a fifth (160 units on 132 slots): two segments forward, four backward.
  CHECK(forward(160, 32, 132, 1).count == 2);
  CHECK(backward(160, 32, 132, 1).count == 4);
  // Batch 8 × 24 heads: two segments both ways.
  CHECK(forward(192, 32, 132, 1).count == 2);
  CHECK(backward(192, 32, 132, 1).count == 2);
  // Fewer chunks than the segments wanted: a chunk each. One chunk: one segment.
  CHECK(forward(4, 3, 132, 1).count == 3);
  CHECK(forward(4, 3, 132, 1).chunks_each == 1);
  CHECK(backward(1, 1, 132, 1).count == 1);
  // The same sizes again give the same answer (each is kept), and other sizes theirs.
  CHECK(forward(160, 32, 132, 1).count == 2);
  CHECK(forward(192, 32, 132, 1).chunks_each == 16);
  // Two blocks a multiprocessor (16-bit inputs up to 128 states), the A/B of 2026-12-01: the
  // 2.7B layer in three segments of 11, 11 and 10 chunks both ways; 160 units in two forward and
  // three backward; (4, 8192, 80) backward in four (1.19 times as fast as whole rows); the long
  // shape's backward and (4, 1024, 80)'s forward whole (cut in two they lost 3% and 5%).
  CHECK(forward(80, 32, 132, 2).count == 3);
  CHECK(forward(80, 32, 132, 2).chunks_each == 11);
  CHECK(backward(80, 32, 132, 2).count == 3);
  CHECK(forward(160, 32, 132, 2).count == 2);
  CHECK(backward(160, 32, 132, 2).count == 3);
  CHECK(backward(320, 128, 132, 2).count == 4);
  CHECK(backward(640, 256, 132, 2).count == 1);
  CHECK(forward(320, 16, 132, 2).count == 1);
  // Short rows, the sweep and A/B of 2026-12-01 (stop 87): bf16 (8, 1024, 24)'s backward in four
  // (two took 8% longer), (4, 256, 80)'s in two, fp32 (1, 512, 80)'s in three.
  CHECK(backward(192, 16, 132, 2).count == 4);
  CHECK(backward(320, 4, 132, 2).count == 2);
  CHECK(backward(80, 8, 132, 1).count == 3);
  // Two waves of units or more: the backward's rows whole, where the model alone would cut them.
  CHECK(backward(640, 16, 132, 2).count == 1);
  SegmentCosts model_alone = kBackwardSegments;
  model_alone.whole_from_waves = 0;
  CHECK(row_segments(640, 16, 132, 2, model_alone).count == 2);
}

TEST_CASE("a backward runs version 3 where it takes the call and version 1 where it does not") {
  // Validation reads the sizes and the pointers' values, never their memory; version 3's
  // shared-memory check asks the GPU where there is one.
  ssd::BackwardParams b = backward_call(8, ssd::Kernel::automatic);
  b.forward.sizes = {1, 16, 2, 4, 1, 8};
  CHECK(ssd::kernel_of(b) == ssd::Kernel::fused);
  b.deterministic = true;  // version 3 adds with float atomics
  CHECK(ssd::kernel_of(b) == ssd::Kernel::recurrence);
  b.forward.kernel = ssd::Kernel::fused;
  CHECK_THROWS_WITH(ssd::backward(b), Catch::Contains("not deterministic"));
  b.deterministic = false;
  b.forward.kernel = ssd::Kernel::automatic;
  // fp32 as bf16 pairs, where a block may have their 149,764 bytes (no GPU: it takes the call;
  // no GPU gives a block between the forward's 148,736 and these).
  b.forward.input_type = ssd::DataType::float32;
  const bool fused_takes_fp32 = fused_refusal(8, ssd::DataType::float32).empty();
  CHECK(ssd::kernel_of(b) == (fused_takes_fp32 ? ssd::Kernel::fused : ssd::Kernel::recurrence));
  b.forward.kernel = ssd::Kernel::fused;
  if (fused_takes_fp32)
    CHECK(ssd::validate(b).empty());
  else
    CHECK_THAT(ssd::validate(b), Catch::Contains("shared memory"));
  static std::int32_t seq_idx[16] = {};
  b.forward.input_type = ssd::DataType::bfloat16;
  b.forward.seq_idx = seq_idx;  // packed sequences: version 3 alone takes them backward
  CHECK(ssd::kernel_of(b) == ssd::Kernel::fused);
  b.forward.kernel = ssd::Kernel::automatic;
  b.forward.input_type = ssd::DataType::float32;
  if (fused_takes_fp32)
    CHECK(ssd::kernel_of(b) == ssd::Kernel::fused);
  else
    CHECK_THAT(ssd::validate(b), Catch::Contains("the backward: version 1 (chapter 08's scan) takes no seq_idx"));
}

TEST_CASE("the library refuses what no version takes, in one line, before any work") {
  // Validation reads the sizes and the pointers' values (and asks a GPU, where there is one, what
  // shared memory a block may have): no GPU is needed, and no memory is touched.
  static float never_read[1];
  ssd::ForwardParams f = ch10::sizes_only({1, 16, 2, 4, 1, 8}, ssd::DataType::float32, ssd::Kernel::automatic);
  std::int32_t seq_idx[16] = {};
  f.seq_idx = seq_idx;
  f.kernel = ssd::Kernel::recurrence;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("takes no seq_idx"));
  // Version 3 takes fp32 where a block may have its pairs' 148,736 bytes (no GPU: it takes the call).
  const bool fused_takes_fp32 = fused_refusal(8, ssd::DataType::float32).empty();
  f.kernel = ssd::Kernel::automatic;  // versions 3 and 2 take packed sequences forward, version 3 backward
  CHECK(ssd::validate(f).empty());
  CHECK(ssd::kernel_of(f) == (fused_takes_fp32 ? ssd::Kernel::fused : ssd::Kernel::chunked));
  ssd::BackwardParams packed =
      ch10::sizes_only_backward({1, 16, 2, 4, 1, 8}, ssd::DataType::float32, ssd::Kernel::automatic);
  packed.forward = f;
  if (fused_takes_fp32)
    CHECK(ssd::kernel_of(packed) == ssd::Kernel::fused);
  else
    CHECK_THROWS_WITH(ssd::backward(packed), Catch::Contains("the backward: version 1"));
  // Packed sequences' own final states: cu_seqlens and seq_idx with them, one row.
  static std::int32_t cu_seqlens[3] = {0, 5, 16};
  f.sequence_final_states = never_read, f.sequences = 2;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("needs cu_seqlens and seq_idx"));
  f.cu_seqlens = cu_seqlens;
  CHECK(ssd::kernel_of(f) == ssd::Kernel::chunked);
  f.sizes.batch = 2;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("(batch 1)"));
  f.sizes.batch = 1, f.sequences = 17;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("sequences must be in [1, seqlen]"));
  f.sequence_final_states = nullptr, f.cu_seqlens = nullptr, f.sequences = 0;
  f.seq_idx = nullptr;
  CHECK(ssd::kernel_of(f) == (fused_takes_fp32 ? ssd::Kernel::fused : ssd::Kernel::recurrence));
  f.sizes.groups = 3;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("multiple of groups"));
  f.sizes.groups = 1;
  f.dt_min = 0.1f, f.dt_max = 0.01f;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("dt_min must not exceed dt_max"));
  f.dt_min = 0.f, f.dt_max = 1.f;
  f.sizes.dstate = 257;
  CHECK(ssd::kernel_of(f) == ssd::Kernel::chunked);
  f.kernel = ssd::Kernel::recurrence;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("at most 256 states"));
  f.kernel = ssd::Kernel::fused;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("version 3 takes at most 256 states"));
  f.sizes.dstate = 129;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("fp32 inputs with at most 128 states"));
  f.sizes.dstate = 257;
  f.kernel = ssd::Kernel::chunked;
  f.chunk_size = 0;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("chunk_size must be at least 1"));
  f.kernel = ssd::Kernel::automatic;
  f.chunk_size = 256;
  f.sizes.dstate = 8;
  f.y = nullptr;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("are required"));
  f.y = never_read;
  ssd::BackwardParams b;
  b.forward = f;
  b.forward.z = never_read;
  b.dy = b.dx = b.ddt = never_read;
  b.dA = b.dB = b.dC = never_read;
  CHECK_THROWS_WITH(ssd::backward(b), Catch::Contains("dz is required when z is given"));
  CHECK(ssd::validate(f).empty());
}

// Packed sequences drawn as the official test of chunk_state_varlen draws them: `sequences` of 1 to
// `longest` positions in one row, A = -0.1 U(0, 1) a head, dt' = softplus(N(0, 1) - 4), x from
// N(0, 1), B from N(0, 1) / 5 (C is not read by the final states).
Problem varlen_problem(int sequences, std::int64_t longest, int heads, int head_dim, int groups, int dstate,
                       unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<std::int64_t> length(1, longest);
  std::vector<std::int64_t> lengths(static_cast<std::size_t>(sequences));
  std::int64_t total = 0;
  for (std::int64_t& l : lengths) total += l = length(rng);
  Problem p;
  p.shape = {1, total, heads, head_dim, groups, dstate};
  p.seq_idx = ch10::packed_seq_idx({lengths}, total);
  const ch10::Index at{p.shape};
  std::normal_distribution<double> normal(0.0, 1.0);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  p.x.resize(at.x_size());
  for (double& v : p.x) v = normal(rng);
  p.B.resize(at.bc_size());
  for (double& v : p.B) v = normal(rng) / 5;
  p.C = std::vector<double>(at.bc_size(), 0.0);
  p.A.resize(std::size_t(heads));
  for (double& v : p.A) v = -0.1 * uniform(rng);
  p.dt.resize(at.dt_size());
  for (double& v : p.dt) v = normal(rng) - 4;
  p.dt_softplus = true;
  return p;
}

// The official test of chunk_state_varlen (tests/ops/triton/test_ssd.py, state-spaces/mamba),
// ported: 300 sequences of 1 to 199 positions packed in one row, 64 heads of 64 channels, 32
// states, drawn as above; each sequence's final state against the same sequence run alone (here:
// in fp64, on the inputs as the GPU sees them), to its tolerance, rtol 1e-2 and atol 3e-3. Its
// grid is every type, 1, 2, 8 and as many groups as heads, and chunks of 64 and 128; here the full
// shape for fp32 and bf16 at 8 groups and chunk 64, and a quarter of the heads for the rest of the
// grid, to keep the fp64 side to about a minute.
TEST_CASE("version 2: packed sequences' own final states, the official test_chunk_state_varlen", "[gpu]") {
  REQUIRE_GPU();
  const common::Tolerance official{3e-3, 1e-2};
  int c = 0;
  for (const ssd::DataType type : kTypes)
    for (const int groups_asked : {1, 2, 8, 0})  // 0: a group a head, the official "max"
      for (const std::int64_t chunk : {64, 128}) {
        const bool full = groups_asked == 8 && chunk == 64 && type != ssd::DataType::float16;
        const int heads = full ? 64 : 16, groups = groups_asked == 0 ? heads : groups_asked;
        INFO(name_of(type) << ", " << heads << " heads, " << groups << " groups, chunk " << chunk);
        const Problem p =
            ch10::as_gpu_sees(varlen_problem(300, 199, heads, 64, groups, 32, 2000u + unsigned(c++)), type);
        const std::vector<double> got = ch10::gpu_sequence_final_states(p, type, chunk);
        CHECK_CLOSE("each sequence's final state", common::compare(got, ch10::sequence_final_states(p), official));
      }
}

// The same on a small row, with initial states (sequence 0's) and chunks that sequences cross:
// the case compute-sanitizer runs (scripts/sanitized-tests.txt).
TEST_CASE("version 2: packed sequences' own final states at a small size", "[gpu]") {
  REQUIRE_GPU();
  int c = 0;
  for (const ssd::DataType type : {ssd::DataType::float32, ssd::DataType::bfloat16})
    for (const std::int64_t chunk : {1, 16, 64}) {
      INFO(name_of(type) << ", chunk " << chunk);
      Problem p = varlen_problem(20, 40, 4, 8, 2, 16, 3000u + unsigned(c++));
      p.initial_states = ch10_test::normals(ch10::Index{p.shape}.state_size(), 3100u + unsigned(c));
      p = ch10::as_gpu_sees(p, type);
      const std::vector<double> ref = ch10::sequence_final_states(p);
      check_tensor("each sequence's final state", ch10::gpu_sequence_final_states(p, type, chunk), ref, type);
    }
}
