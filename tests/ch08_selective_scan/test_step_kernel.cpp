// The one-token step on the GPU against its fp64 reference (step_check.hpp): every input type and
// state type, Mamba-1's form and the head form, 1 to 256 states, channel counts that no tile
// divides, groups, continuous batching with a pool and pads, every option on and off, the 16-byte
// and the one-state loads; then T steps against the library's own forward scan of T tokens.
#include "ch08_test_support.hpp"
#include "compare.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_problem.hpp"
#include "gpu_test.hpp"
#include "step_check.hpp"

#include <catch2/catch.hpp>

#include <vector>

using ch08_step::Layout;
using ch08_step::Slots;
using ch08_step::StepShape;
using selective_scan::DataType;

namespace {

constexpr DataType kTypes[] = {DataType::float32, DataType::float16, DataType::bfloat16};

// The state types a call of `type` may have: fp32, and the input type when that is another.
std::vector<bool> state_fp32_choices(DataType type) {
  return type == DataType::float32 ? std::vector<bool>{true} : std::vector<bool>{true, false};
}

// The options of case `c`: D, z, dt_bias and softplus each on in half the cases.
StepShape with_options(StepShape s, int c) {
  s.has_D = c & 1, s.has_z = c & 2, s.has_dt_bias = c & 4, s.softplus = c & 8;
  return s;
}

ch08_step::StepOutcome run(const StepShape& shape, DataType type, const Layout& layout, unsigned seed) {
  const ch08_step::StepProblem p = ch08_step::make_step_problem(shape, seed);
  ch08_step::StepOutcome outcome = ch08_step::run_and_compare(p, type, layout);
  INFO(ch08_step::describe(p, type, layout) << ", plan: " << outcome.plan.summary() << "\n" << outcome.report);
  CHECK(outcome.ok);  // not REQUIRE: a failing loop shows every case that fails
  return outcome;
}

}  // namespace

TEST_CASE("step: every type, both forms, 1 to 256 states", "[gpu]") {
  REQUIRE_GPU();
  int c = 0;
  for (DataType type : kTypes)
    for (bool state_fp32 : state_fp32_choices(type))
      for (int dstate : {1, 16, 64, 128, 256}) {
        Layout layout;
        layout.state_fp32 = state_fp32;
        // Mamba-1: one head of 70 channels, one group.
        StepShape mamba1;
        mamba1.batch = 3, mamba1.head_dim = 70, mamba1.dstate = dstate;
        const auto one = run(with_options(mamba1, c), type, layout, unsigned(c));
        ++c;
        // 32 bytes of state a load: 8 fp32 states, 16 fp16 or bf16 (one state: one).
        const int wide = state_fp32 || type == DataType::float32 ? 8 : 16;
        CHECK(one.plan.vector == (dstate == 1 ? 1 : wide));
        // Heads of 129 channels in 2 groups, per head (Mamba-2's module, zero strides) every other time.
        StepShape heads;
        heads.batch = 2, heads.heads = 4, heads.head_dim = 129, heads.dstate = dstate, heads.groups = 2;
        heads.per_head = c % 4 == 1;
        layout.compact_per_head = heads.per_head;
        const auto two = run(with_options(heads, c), type, layout, unsigned(c));
        ++c;
        CHECK(two.plan.decay_per_channel == heads.per_head);
      }
}

TEST_CASE("step: every option on and off", "[gpu]") {
  REQUIRE_GPU();
  for (DataType type : kTypes)
    for (int options = 0; options < 16; ++options) {
      StepShape s;
      s.batch = 2, s.heads = 2, s.head_dim = 33, s.dstate = 16, s.groups = 1;
      Layout layout;
      layout.state_fp32 = options % 2 == 0;
      run(with_options(s, options), type, layout, unsigned(100 + options));
    }
}

TEST_CASE("step: heads share their group's B and C", "[gpu]") {
  REQUIRE_GPU();
  for (DataType type : kTypes)
    for (int groups : {1, 2, 3, 6}) {
      StepShape s;
      s.batch = 2, s.heads = 6, s.head_dim = 40, s.dstate = 32, s.groups = groups;
      s.has_D = s.has_z = s.has_dt_bias = s.softplus = true;
      run(s, type, Layout{}, unsigned(200 + groups));
    }
}

TEST_CASE("step: continuous batching, a pool of states with pads", "[gpu]") {
  REQUIRE_GPU();
  for (DataType type : kTypes)
    for (bool state_fp32 : state_fp32_choices(type)) {
      Layout layout;
      layout.state_fp32 = state_fp32;
      StepShape s;
      s.batch = 5, s.heads = 2, s.head_dim = 70, s.dstate = 16, s.groups = 1;
      s.has_D = s.has_z = true;
      for (Slots slots : {Slots::permutation, Slots::pool}) {
        s.slots = slots;
        run(s, type, layout, 300);
      }
      // A pad value that is also a slot number: the sequence that names it is skipped; and indices
      // outside [0, slots) are skipped too (-1 is no longer the pad), nothing read or written
      // outside the pool. Sequences 4, 5 and 6 run.
      s.batch = 8, s.slots = Slots::pool;
      ch08_step::StepProblem p = ch08_step::make_step_problem(s, 301);
      p.pad_slot = p.indices[0];
      p.indices[2] = -7;
      p.indices[3] = std::int32_t(p.slots);
      const ch08_step::StepOutcome outcome = ch08_step::run_and_compare(p, type, layout);
      INFO(ch08_step::describe(p, type, layout) << " pad slot " << p.pad_slot << "\n" << outcome.report);
      CHECK(outcome.ok);
    }
}

TEST_CASE("step: loads of 4 or of one state, where the rows are off 16 bytes, not whole vectors or strided", "[gpu]") {
  REQUIRE_GPU();
  for (DataType type : kTypes)
    for (bool state_fp32 : state_fp32_choices(type)) {
      StepShape s;
      s.batch = 3, s.heads = 2, s.head_dim = 129, s.dstate = 16, s.groups = 2;
      s.has_D = s.has_z = s.has_dt_bias = s.softplus = true;
      Layout layout;
      layout.state_fp32 = state_fp32;
      layout.state_offset = 1;  // every row off a vector's bytes
      CHECK(run(s, type, layout, 400).plan.vector == 1);
      layout.state_offset = 0;
      s.dstate = 20;  // rows of whole vectors of 4
      CHECK(run(s, type, layout, 401).plan.vector == 4);
      s.dstate = 18;  // rows of 4 and a half vectors
      CHECK(run(s, type, layout, 402).plan.vector == 1);
      s.dstate = 252;  // loads of 4, two a lane on most of a warp's lanes
      CHECK(run(s, type, layout, 403).plan.vector == 4);
      s.dstate = 16;
      layout.B_C_strided = true;  // B and C not contiguous along dstate
      CHECK(run(s, type, layout, 404).plan.vector == 1);
    }
}

TEST_CASE("step: strided tensors, their gaps left alone", "[gpu]") {
  REQUIRE_GPU();
  for (DataType type : kTypes)
    for (bool state_fp32 : state_fp32_choices(type))
      for (int dstate : {16, 64}) {
        StepShape s;
        s.batch = 3, s.heads = 4, s.head_dim = 70, s.dstate = dstate, s.groups = 2;
        s.has_D = s.has_z = s.has_dt_bias = s.softplus = true;
        s.slots = Slots::pool;
        Layout layout;
        layout.state_fp32 = state_fp32;
        layout.gaps = true;  // rows 8 elements further apart (A's 4) keep loads of 4, not of 32 bytes
        CHECK(run(s, type, layout, unsigned(500 + dstate)).plan.vector == 4);
      }
}

TEST_CASE("step: batch 1 to 64 at the sizes of Mamba models", "[gpu]") {
  REQUIRE_GPU();
  for (std::int64_t batch : {1, 64}) {
    // Mamba-1 2.8B: 5120 channels, 16 states; the official benchmark's bf16 state.
    StepShape mamba1;
    mamba1.batch = batch, mamba1.head_dim = 5120, mamba1.dstate = 16;
    mamba1.has_D = mamba1.has_z = mamba1.has_dt_bias = mamba1.softplus = true;
    Layout layout;
    layout.state_fp32 = false;
    run(mamba1, DataType::bfloat16, layout, 600);
    // Mamba-2 2.7B: 80 heads of 64 channels, 128 states, one group, as its module passes them.
    StepShape mamba2;
    mamba2.batch = batch / 8 + 1, mamba2.heads = 80, mamba2.head_dim = 64, mamba2.dstate = 128;
    mamba2.has_D = mamba2.has_z = mamba2.has_dt_bias = mamba2.softplus = mamba2.per_head = true;
    layout.compact_per_head = true;
    run(mamba2, DataType::bfloat16, layout, 601);
  }
}

TEST_CASE("step: more sequences or heads than the grid holds, and heads of one channel", "[gpu]") {
  REQUIRE_GPU();
  // The grid's y (heads) and z (sequences) take at most 65535 blocks: past them, blocks take a
  // second head or sequence. Heads of one channel and one state, a block each.
  StepShape s;
  s.head_dim = 1, s.dstate = 1, s.groups = 4;
  s.has_D = s.has_z = s.softplus = true;
  SECTION("65537 sequences") {
    s.batch = 65537, s.heads = 4;
    run(s, DataType::bfloat16, Layout{}, 700);
  }
  SECTION("65540 heads") {
    s.batch = 3, s.heads = 65540;
    run(s, DataType::float32, Layout{}, 701);
  }
}

// [snippet:step_is_the_recurrence]
// T steps from an initial state, each reading token t of the scan's own tensors through strides,
// give the scan's outputs and its last state: the library's forward scan of T tokens (Mamba-1's
// form, fp32, every option on), and the fp64 reference of both.
TEST_CASE("step: 37 steps are the forward scan of 37 tokens", "[gpu]") {
  REQUIRE_GPU();
  ch08::Problem shape;
  shape.batch = 3, shape.dim = 70, shape.seqlen = 37, shape.dstate = 16;
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = shape.has_initial_state = true;
  const ch08::Problem p = ch08::as_gpu_sees(ch08::make_official_test_problem(shape, 7), DataType::float32);
  const std::int64_t L = p.seqlen, N = p.dstate;
  ch08::DeviceProblem scan(p, DataType::float32, selective_scan::Kernel::automatic);
  scan.forward();
  CUDA_CHECK(cudaDeviceSynchronize());
  const ch08::ForwardResult forward = scan.forward_result();
  const ch08::ForwardResult reference = ch08::reference_forward(p);

  std::vector<float> initial;
  for (const ch08::Complex& h : p.initial_state) initial.push_back(float(h.real()));
  common::DeviceBuffer<float> state{std::span<const float>(initial)};
  common::DeviceBuffer<float> out(std::size_t(p.batch * p.dim * L));  // (batch, dim, seqlen), as the scan's
  out.poison();
  const selective_scan::ForwardParams& f = scan.forward_params();
  const auto at = [](const void* data, std::int64_t t) { return static_cast<const float*>(data) + t; };
  selective_scan::StepParams s;
  s.sizes = {p.batch, 1, p.dim, p.dstate, 1, 0};
  s.dt_softplus = true;
  s.state = {state.data(), DataType::float32, p.dim * N, 0, N};
  s.A = {f.A, 0, f.A_dim_stride, 1};
  s.D = {f.D, 0, 1};
  s.dt_bias = {f.delta_bias, 0, 1};
  for (std::int64_t t = 0; t < L; ++t) {
    const auto token = [&](const selective_scan::Input& in) {
      return selective_scan::StepInput{at(in.data, t), DataType::float32, in.batch_stride, 0, in.dim_stride};
    };
    const auto token_of = [&](const selective_scan::StateProjection<const void*>& in) {
      return selective_scan::GroupInput{at(in.data, t), DataType::float32, in.batch_stride, in.group_stride,
                                        in.state_stride};
    };
    s.x = token(f.u), s.dt = token(f.delta), s.z = token(f.z);
    s.B = token_of(f.B), s.C = token_of(f.C);
    s.out = {out.data() + t, DataType::float32, p.dim * L, 0, L};
    selective_scan::step(s);
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<float> got_out = out.download(), got_state = state.download();

  const auto real_parts = [](const std::vector<ch08::Complex>& v) {
    std::vector<double> re;
    for (const ch08::Complex& x : v) re.push_back(x.real());
    return re;
  };
  const common::Tolerance tol{1e-4, 1e-4};  // 37 steps of fp32 rounding, in two orders
  CHECK_CLOSE("out, against the forward scan", common::compare(got_out, forward.out_z, tol));
  CHECK_CLOSE("last state, against the forward scan", common::compare(got_state, real_parts(forward.last_state), tol));
  CHECK_CLOSE("out, against fp64", common::compare(got_out, reference.out_z, tol));
  CHECK_CLOSE("last state, against fp64", common::compare(got_state, real_parts(reference.last_state), tol));
}
// [/snippet:step_is_the_recurrence]
