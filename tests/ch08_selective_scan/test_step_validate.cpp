// The one-token step refuses what it cannot take, with one line, before launching anything; and
// its plan says how it lays a call out. These run without a GPU: validation and the plan touch no
// device memory.
#include "step.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

using namespace selective_scan;

namespace {

// Addresses that are never dereferenced, each on 256 bytes as cudaMalloc's are.
template <class T>
T* fake_address(int slot) {
  return reinterpret_cast<T*>(std::uintptr_t(0x10000000) + std::uintptr_t(slot) * 0x1000);
}
template <class T>
T* shifted(T* p, std::uintptr_t bytes) {
  return reinterpret_cast<T*>(reinterpret_cast<std::uintptr_t>(p) + bytes);
}

// A valid Mamba-2 call in bf16: batch 4, 8 heads of 64 channels, 16 states, 2 groups, every
// tensor contiguous, the state in bf16, every option given.
StepParams valid_call() {
  StepParams p;
  p.sizes = {4, 8, 64, 16, 2, 0};
  p.input_type = DataType::bfloat16;
  p.dt_softplus = true;
  const DataType t = DataType::bfloat16;
  p.state = {fake_address<void>(1), t, 8 * 64 * 16, 64 * 16, 16};
  p.x = {fake_address<const void>(2), t, 8 * 64, 64, 1};
  p.dt = {fake_address<const void>(3), t, 8 * 64, 64, 1};
  p.z = {fake_address<const void>(4), t, 8 * 64, 64, 1};
  p.out = {fake_address<void>(5), t, 8 * 64, 64, 1};
  p.A = {fake_address<const float>(6), 64 * 16, 16, 1};
  p.B = {fake_address<const void>(7), t, 2 * 16, 16, 1};
  p.C = {fake_address<const void>(8), t, 2 * 16, 16, 1};
  p.D = {fake_address<const float>(9), 64, 1};
  p.dt_bias = {fake_address<const float>(10), 64, 1};
  p.state_batch_indices = fake_address<const std::int32_t>(11);
  p.sizes.slots = 6;
  return p;
}

void require_refused(const StepParams& p, const std::string& line) {
  CHECK(validate(p) == line);
  try {
    step(p);
    FAIL("step() accepted the call");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "selective_scan::step: " + line);  // thrown by validation: nothing launched
  }
  try {
    (void)step_plan_of(p);
    FAIL("step_plan_of() accepted the call");
  } catch (const Error& e) {
    CHECK(std::string(e.what()) == "selective_scan::step_plan_of: " + line);
  }
}

}  // namespace

TEST_CASE("step: valid calls pass validation") {
  SECTION("Mamba-2, every option") { CHECK(validate(valid_call()) == ""); }
  SECTION("no options") {
    StepParams p = valid_call();
    p.z = {}, p.D = {}, p.dt_bias = {}, p.state_batch_indices = nullptr, p.sizes.slots = 0;
    CHECK(validate(p) == "");
  }
  SECTION("Mamba-1: one head of dim channels, one group, an fp32 state") {
    StepParams p = valid_call();
    p.sizes = {2, 1, 5120, 16, 1, 0};
    p.state = {fake_address<void>(1), DataType::float32, 5120 * 16, 0, 16};
    for (StepInput* t : {&p.x, &p.dt, &p.z}) *t = {t->data, DataType::bfloat16, 5120, 0, 1};
    p.out = {p.out.data, DataType::bfloat16, 5120, 0, 1};
    p.A = {p.A.data, 0, 16, 1};
    p.B = {p.B.data, DataType::bfloat16, 16, 0, 1};
    p.C = {p.C.data, DataType::bfloat16, 16, 0, 1};
    p.D = {p.D.data, 0, 1};
    p.dt_bias = {p.dt_bias.data, 0, 1};
    p.state_batch_indices = nullptr;
    CHECK(validate(p) == "");
  }
  SECTION("Mamba-2's module: A (heads), dt (batch, heads), D and dt_bias (heads) with zero strides") {
    StepParams p = valid_call();
    p.A = {p.A.data, 1, 0, 0};
    p.dt = {p.dt.data, DataType::bfloat16, 8, 1, 0};
    p.D = {p.D.data, 1, 0};
    p.dt_bias = {p.dt_bias.data, 1, 0};
    CHECK(validate(p) == "");
  }
  SECTION("a pool smaller than the batch, with indices") {
    StepParams p = valid_call();
    p.sizes.slots = 1;
    CHECK(validate(p) == "");
  }
}

TEST_CASE("step: bad sizes are refused with one line") {
  StepParams p = valid_call();
  SECTION("input type") {
    p.input_type = DataType(7);
    require_refused(p, "input_type is not float32, float16 or bfloat16");
  }
  SECTION("batch 0") {
    p.sizes.batch = 0;
    require_refused(p, "batch, heads and head_dim must be at least 1 (got 0, 8, 64)");
  }
  SECTION("head_dim negative") {
    p.sizes.head_dim = -1;
    require_refused(p, "batch, heads and head_dim must be at least 1 (got 4, 8, -1)");
  }
  SECTION("dstate past 256") {
    p.sizes.dstate = 257;
    require_refused(p, "dstate must be in [1, 256] (got 257)");
  }
  SECTION("dstate 0") {
    p.sizes.dstate = 0;
    require_refused(p, "dstate must be in [1, 256] (got 0)");
  }
  SECTION("groups 0") {
    p.sizes.groups = 0;
    require_refused(p, "groups must be at least 1 (got 0)");
  }
  SECTION("heads not a multiple of groups") {
    p.sizes.groups = 3;
    require_refused(p, "heads (8) must be divisible by groups (3)");
  }
  SECTION("slots negative") {
    p.sizes.slots = -1;
    require_refused(p, "slots must be at least 1, or 0 for batch (got -1)");
  }
  SECTION("a pool smaller than the batch, without indices") {
    p.state_batch_indices = nullptr;
    p.sizes.slots = 2;
    require_refused(p, "slots (2) must be at least batch (4) without state_batch_indices");
  }
  SECTION("states past 2^63 bytes") {
    p.sizes.batch = std::int64_t(1) << 50;
    require_refused(p,
                    "the step's states would take more than 2^63 - 1 bytes: batch * heads * head_dim * dstate = "
                    "1125899906842624 * 8 * 64 * 16 floats");
  }
}

TEST_CASE("step: bad tensors are refused with one line") {
  StepParams p = valid_call();
  SECTION("no state") {
    p.state.data = nullptr;
    require_refused(p, "state is required but its pointer is null");
  }
  SECTION("a state of a third type") {
    p.state.type = DataType::float16;
    require_refused(p, "state is float16 but must be float32 or the input type (bfloat16)");
  }
  SECTION("a state's negative stride") {
    p.state.head_stride = -1;
    require_refused(p, "state has a negative stride");
  }
  SECTION("a misaligned state") {
    p.state.data = shifted(p.state.data, 1);
    require_refused(p, "state is not on a 2-byte boundary");
  }
  SECTION("a state reaching past 2^63 bytes") {
    p.state.slot_stride = std::int64_t(1) << 62;
    require_refused(p,
                    "state reaches more than 2^63 - 1 bytes: (slots - 1) * slot_stride + (heads - 1) * head_stride + "
                    "(head_dim - 1) * dim_stride + dstate elements of 2 bytes, with slots 6, slot_stride "
                    "4611686018427387904, heads 8, head_stride 1024, head_dim 64, dim_stride 16, dstate 16");
  }
  SECTION("no x") {
    p.x.data = nullptr;
    require_refused(p, "x is required but its pointer is null");
  }
  SECTION("dt in another type") {
    p.dt.type = DataType::float16;
    require_refused(p, "dt is float16 but the input type is bfloat16");
  }
  SECTION("x's negative stride") {
    p.x.dim_stride = -1;
    require_refused(p, "x has a negative stride");
  }
  SECTION("x reaching past 2^63 bytes") {
    p.x.batch_stride = std::int64_t(1) << 62;
    require_refused(p,
                    "x reaches more than 2^63 - 1 bytes: (batch - 1) * batch_stride + (heads - 1) * head_stride + "
                    "(head_dim - 1) * dim_stride + 1 elements of 2 bytes, with batch 4, batch_stride "
                    "4611686018427387904, heads 8, head_stride 64, head_dim 64, dim_stride 1");
  }
  SECTION("no A") {
    p.A.data = nullptr;
    require_refused(p, "A is required but its pointer is null");
  }
  SECTION("a misaligned A") {
    p.A.data = shifted(p.A.data, 2);
    require_refused(p, "A is not on a 4-byte boundary");
  }
  SECTION("A's negative stride") {
    p.A.state_stride = -1;
    require_refused(p, "A has a negative stride");
  }
  SECTION("no B") {
    p.B.data = nullptr;
    require_refused(p, "B is required but its pointer is null");
  }
  SECTION("C in another type") {
    p.C.type = DataType::float32;
    require_refused(p, "C is float32 but the input type is bfloat16");
  }
  SECTION("B's negative stride") {
    p.B.group_stride = -1;
    require_refused(p, "B has a negative stride");
  }
  SECTION("a misaligned D") {
    p.D.data = shifted(p.D.data, 2);
    require_refused(p, "D is not on a 4-byte boundary");
  }
  SECTION("dt_bias's negative stride") {
    p.dt_bias.head_stride = -1;
    require_refused(p, "dt_bias has a negative stride");
  }
  SECTION("z in another type") {
    p.z.type = DataType::float32;
    require_refused(p, "z is float32 but the input type is bfloat16");
  }
  SECTION("no out") {
    p.out.data = nullptr;
    require_refused(p, "out is required but its pointer is null");
  }
  SECTION("a misaligned out") {
    p.out.data = shifted(p.out.data, 1);
    require_refused(p, "out is not on a 2-byte boundary");
  }
  SECTION("misaligned indices") {
    p.state_batch_indices = shifted(p.state_batch_indices, 2);
    require_refused(p, "state_batch_indices is not on a 4-byte boundary");
  }
}

namespace {
// The valid call with `dstate` states: its state's, A's, B's and C's rows that long.
void with_states(StepParams& p, int dstate) {
  p.sizes.dstate = dstate;
  p.state = {p.state.data, p.state.type, 8 * 64 * dstate, 64 * dstate, dstate};
  p.A = {p.A.data, 64 * dstate, dstate, 1};
  p.B = {p.B.data, DataType::bfloat16, 2 * dstate, dstate, 1};
  p.C = p.B;
}
}  // namespace

// The valid call has 8 heads of 64 channels at batch 4: a small call, whose blocks shrink (to a
// warp where that gives fewer than 4 x 132 blocks). Its tensors are small: 32-bit offsets.
TEST_CASE("step: the plan loads 32 bytes of states where the rows allow it") {
  StepParams p = valid_call();
  const std::string offsets = ", 32-bit offsets";
  SECTION("bf16 state, 16 states: a vector of 16 (32 bytes), a lane a channel") {
    CHECK(step_plan_of(p).summary() ==
          "16 states a load, 1 lane a channel, 32 channels a block, a decay a state" + offsets);
  }
  SECTION("fp32 state: a vector of 8 (32 bytes)") {
    p.state.type = DataType::float32;
    CHECK(step_plan_of(p).summary() ==
          "8 states a load, 2 lanes a channel, 16 channels a block, a decay a state" + offsets);
  }
  SECTION("fp32 state, 256 states: a warp a channel") {
    p.state.type = DataType::float32;
    with_states(p, 256);
    CHECK(step_plan_of(p).summary() ==
          "8 states a load, 32 lanes a channel, 2 channels a block, a decay a state" + offsets);
  }
  SECTION("252 states, not whole vectors of 8 but of 4: loads of 4, a warp a channel, two a lane on most lanes") {
    with_states(p, 252);
    CHECK(step_plan_of(p).summary() ==
          "4 states a load, 32 lanes a channel, 2 channels a block, a decay a state" + offsets);
  }
  SECTION("a bf16 state off 8 bytes: one state a load") {
    p.state.data = shifted(p.state.data, 2);
    CHECK(step_plan_of(p).summary() ==
          "1 state a load, 16 lanes a channel, 2 channels a block, a decay a state" + offsets);
  }
  SECTION("a state row of 18, not whole vectors: one state a load") {
    with_states(p, 18);
    CHECK(step_plan_of(p).summary() ==
          "1 state a load, 32 lanes a channel, 2 channels a block, a decay a state" + offsets);
  }
  SECTION("A not contiguous along dstate: one state a load") {
    p.A.state_stride = 2;
    p.A.dim_stride = 32, p.A.head_stride = 64 * 32;
    CHECK(step_plan_of(p).vector == 1);
  }
  SECTION("A constant along dstate: one decay a channel, A's alignment no matter") {
    p.A = {shifted(p.A.data, 4), 1, 0, 0};
    CHECK(step_plan_of(p).summary() ==
          "16 states a load, 1 lane a channel, 32 channels a block, a decay a channel" + offsets);
  }
  SECTION("one state: a lane a channel") {
    p.sizes.dstate = 1;
    p.state = {p.state.data, DataType::bfloat16, 8 * 64, 64, 1};
    CHECK(step_plan_of(p).summary() ==
          "1 state a load, 1 lane a channel, 32 channels a block, a decay a state" + offsets);
  }
  SECTION("a head of 4 channels: a warp a block") {
    p.sizes.head_dim = 4;
    CHECK(step_plan_of(p).summary() ==
          "16 states a load, 1 lane a channel, 32 channels a block, a decay a state" + offsets);
  }
  SECTION("x's batch rows 2^31 elements apart: 64-bit offsets") {
    p.x.batch_stride = std::int64_t(1) << 31;
    CHECK(step_plan_of(p).summary() == "16 states a load, 1 lane a channel, 32 channels a block, a decay a state");
    CHECK_FALSE(step_plan_of(p).offsets_32);
  }
  SECTION("a pool of state slots reaching 2^31 elements: 64-bit offsets") {
    p.sizes.slots = (std::int64_t(1) << 31) / (8 * 64 * 16) + 1;
    CHECK_FALSE(step_plan_of(p).offsets_32);
  }
}

TEST_CASE("step: the plan's blocks, at batch 1 and 64 of Mamba-1") {
  StepParams p = valid_call();
  p.sizes = {1, 1, 5120, 16, 1, 0};
  p.state = {p.state.data, DataType::bfloat16, 5120 * 16, 0, 16};
  p.A = {p.A.data, 0, 16, 1};
  p.state_batch_indices = nullptr;
  SECTION("batch 1: 5120 channels in blocks of a warp, 160 blocks") {
    CHECK(step_plan_of(p).summary() ==
          "16 states a load, 1 lane a channel, 32 channels a block, a decay a state, 32-bit offsets");
  }
  SECTION("batch 64: blocks of 128 threads, 2560 blocks") {
    p.sizes.batch = 64;
    CHECK(step_plan_of(p).summary() ==
          "16 states a load, 1 lane a channel, 128 channels a block, a decay a state, 32-bit offsets");
  }
}
