// The library refuses what it cannot take, with one clear line, before launching anything.
// These run without a GPU: validation touches no device memory.
#include "selective_scan.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>

using namespace selective_scan;

namespace {

// A call that validate() accepts. The pointers are never dereferenced: the tests below only
// break one thing at a time and expect an error before any launch.
struct ValidCall {
  alignas(16) int fake[1] = {};  // the workspace starts on 16 bytes
  ForwardParams f;
  BackwardParams b;
  ValidCall() {
    void* p = fake;
    f.sizes = {2, 4, 100, 8, 2};
    f.u = {p, DataType::float32, 400, 100};
    f.delta = f.u;
    f.A = reinterpret_cast<float*>(p);
    f.A_dim_stride = 8;
    f.B = {true, p, DataType::float32, 1600, 800, 100, 0};
    f.C = f.B;
    f.out = {p, DataType::float32, 400, 100};
    f.chunk_states = reinterpret_cast<float*>(p);
    b.forward = f;
    b.dout = f.u;
    b.du = b.ddelta = f.out;
    b.dA = reinterpret_cast<float*>(p);
    b.dB = b.dC = reinterpret_cast<float*>(p);
    b.workspace = p;
  }
};

void require_rejected(const ForwardParams& f, const std::string& words) {
  const std::string problem = validate(f);
  INFO("validate() said: " << problem);
  REQUIRE(problem.find(words) != std::string::npos);
  REQUIRE(problem.find('\n') == std::string::npos);
  REQUIRE_THROWS_AS(forward(f), Error);  // thrown by validation: nothing is launched
}
void require_rejected(const BackwardParams& b, const std::string& words) {
  const std::string problem = validate(b);
  INFO("validate() said: " << problem);
  REQUIRE(problem.find(words) != std::string::npos);
  REQUIRE_THROWS_AS(backward(b), Error);
}

}  // namespace

TEST_CASE("a valid call passes validation") {
  ValidCall call;
  CHECK(validate(call.f).empty());
  CHECK(validate(call.b).empty());
}

TEST_CASE("bad shapes are rejected with one line") {
  ValidCall call;
  SECTION("dim not divisible by groups") {
    call.f.sizes.groups = 3;
    require_rejected(call.f, "divisible by groups");
  }
  SECTION("dstate past 256") {
    call.f.sizes.dstate = 257;
    require_rejected(call.f, "dstate must be in [1, 256]");
  }
  SECTION("dstate 0") {
    call.f.sizes.dstate = 0;
    require_rejected(call.f, "dstate");
  }
  SECTION("empty sequence") {
    call.f.sizes.seqlen = 0;
    require_rejected(call.f, "at least 1");
  }
  SECTION("negative stride") {
    call.f.u.dim_stride = -1;
    require_rejected(call.f, "negative stride");
  }
}

TEST_CASE("missing required pointers are rejected") {
  ValidCall call;
  SECTION("u") {
    call.f.u.data = nullptr;
    require_rejected(call.f, "u is required");
  }
  SECTION("A") {
    call.f.A = nullptr;
    require_rejected(call.f, "A is required");
  }
  SECTION("chunk states") {
    call.f.chunk_states = nullptr;
    require_rejected(call.f, "chunk_states is required");
  }
  SECTION("out_z when z is given") {
    call.f.z = call.f.u;
    require_rejected(call.f, "out_z is required");
  }
  SECTION("dD when D is given") {
    call.b.forward.D = reinterpret_cast<const float*>(call.fake);
    require_rejected(call.b, "dD is required");
  }
  SECTION("the workspace") {
    call.b.workspace = nullptr;
    require_rejected(call.b, "workspace is required");
  }
  SECTION("dinitial_state without initial_state") {
    call.b.dinitial_state = reinterpret_cast<float*>(call.fake);
    require_rejected(call.b, "initial_state is not");
  }
}

TEST_CASE("mismatched dtypes are rejected") {
  ValidCall call;
  SECTION("delta in another type than u") {
    call.f.delta.type = DataType::bfloat16;
    require_rejected(call.f, "delta is bfloat16 but the input type is float32");
  }
  SECTION("a constant B that is not fp32") {
    call.f.B.variable = false;
    call.f.B.type = DataType::float16;
    require_rejected(call.f, "constant B must be float32");
  }
  SECTION("dout in another type") {
    call.b.dout.type = DataType::float16;
    require_rejected(call.b, "dout is float16");
  }
}

TEST_CASE("chunk states: one per state per 2048 steps") {
  CHECK(chunk_states_floats({2, 3, 1, 4, 1}, false) == 2 * 3 * 1 * 4);
  CHECK(chunk_states_floats({2, 3, 2048, 4, 1}, false) == 2 * 3 * 1 * 4);
  CHECK(chunk_states_floats({2, 3, 2049, 4, 1}, true) == 2 * 3 * 2 * 4 * 2);
}

TEST_CASE("a plan's summary names the versions that run") {
  Plan plan;
  plan.asked = Kernel::ring, plan.forward = Kernel::ring, plan.backward = Kernel::ring;
  CHECK(plan.summary() == "v5");
  plan.backward = Kernel::registers;
  CHECK(plan.summary() == "v5 fwd, v4 bwd");
  plan.asked = Kernel::automatic, plan.forward_segments = 4;
  CHECK(plan.summary() == "auto: v5 fwd, v4 bwd, segments 4 fwd");
  plan.backward = Kernel::ring, plan.backward_reads_kept_states = true;
  CHECK(plan.summary() == "auto: v5, segments 4 fwd, kept h");
  plan.backward_segments = 6;
  CHECK(plan.summary() == "auto: v5, segments 4 fwd 6 bwd, kept h");
  plan.forward_segments = 1;
  CHECK(plan.summary() == "auto: v5, segments 6 bwd, kept h");
}

TEST_CASE("the registry lists versions 1 to 5 in order; automatic is none of them") {
  REQUIRE(kVersionCount == 5);
  for (int i = 0; i < kVersionCount; ++i) CHECK(int(kVersions[i].id) == i + 1);
  CHECK(version_of(Kernel::automatic) == nullptr);
  CHECK(version_of(Kernel::registers)->name == std::string("registers"));
  CHECK(ForwardParams{}.kernel == Kernel::automatic);
}

TEST_CASE("packed sequences: batch 1, a count in [1, seqlen], offsets on the host checked in one line") {
  ValidCall call;
  call.f.sizes.batch = 1;
  call.f.cu_seqlens = reinterpret_cast<const std::int32_t*>(call.fake);
  call.f.sequences = 3;
  call.b.forward = call.f;
  SECTION("a packed call is valid") {
    CHECK(validate(call.f).empty());
    CHECK(validate(call.b).empty());
  }
  SECTION("batch 2") {
    call.f.sizes.batch = 2;
    require_rejected(call.f, "packed sequences (cu_seqlens) need batch 1 (got 2)");
  }
  SECTION("no sequences, or more than steps") {
    call.f.sequences = 0;
    require_rejected(call.f, "sequences must be in [1, seqlen] = [1, 100] with cu_seqlens (got 0)");
    call.f.sequences = 101;
    require_rejected(call.f, "(got 101)");
  }
  SECTION("a count without offsets") {
    call.f.cu_seqlens = nullptr;
    require_rejected(call.f, "sequences is given (3) but cu_seqlens is not");
  }
  SECTION("the backward checks them too") {
    call.b.forward.sequences = 0;
    require_rejected(call.b, "sequences must be in [1, seqlen]");
  }
  SECTION("the offsets themselves") {
    const std::int32_t good[] = {0, 1, 8, 100}, zero_first[] = {1, 8, 50, 100}, flat[] = {0, 8, 8, 100},
                       short_end[] = {0, 1, 8, 99};
    CHECK(check_cu_seqlens(good, 3, 100).empty());
    CHECK(check_cu_seqlens(zero_first, 3, 100) == "cu_seqlens[0] must be 0 (got 1)");
    CHECK(check_cu_seqlens(flat, 3, 100) ==
          "cu_seqlens must increase, every sequence a step: cu_seqlens[2] = 8 after 8");
    CHECK(check_cu_seqlens(short_end, 3, 100) == "cu_seqlens[3] must be seqlen = 100 (got 99)");
    CHECK(check_cu_seqlens(good, 0, 100) == "sequences must be at least 1 (got 0)");
    CHECK(check_cu_seqlens(nullptr, 3, 100) == "cu_seqlens is null");
  }
}

// Versions 1, 3 and 4 hand a packed call to version 2, and the plan says so. (Their plans ask no
// device; version 5's forward, which takes packed sequences too, and automatic are test_plan.cpp's.)
TEST_CASE("packed sequences: versions 1 to 4 hand them to version 2") {
  ValidCall call;
  call.f.sizes.batch = 1;
  call.f.cu_seqlens = reinterpret_cast<const std::int32_t*>(call.fake);
  call.f.sequences = 3;
  for (Kernel k : {Kernel::naive, Kernel::blocked, Kernel::lanes, Kernel::registers}) {
    call.f.kernel = k;
    call.b.forward = call.f;
    const Plan plan = plan_of(call.b);
    INFO(int(k) << ": " << plan.why);
    CHECK(plan.summary() == "v2");
    CHECK(plan.why == (k == Kernel::blocked
                           ? "version 2 takes both directions"
                           : "version " + std::to_string(int(k)) + " hands packed sequences to version 2"));
    CHECK(plan.state_checkpoints_floats == 0);
  }
}
