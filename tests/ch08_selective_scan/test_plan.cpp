// Which version runs each direction of a call: plan_of() on the GPU at hand (the rule asks the
// device for its multiprocessors and for the sm_90 code). The pointers are never dereferenced.
#include "gpu_test.hpp"
#include "selective_scan.hpp"
#include "version5_test.hpp"

#include <catch2/catch.hpp>

#include <string>
#include <tuple>

using namespace selective_scan;

namespace {

alignas(256) float fake[64];

// A valid real-A call, every flag on, B and C variable, rows on 16 bytes.
BackwardParams call(std::int64_t batch, std::int64_t dim, std::int64_t seqlen, int dstate, Kernel kernel,
                    DataType type = DataType::float32) {
  void* p = fake;
  BackwardParams b;
  ForwardParams& f = b.forward;
  f.sizes = {batch, dim, seqlen, dstate, 1};
  f.input_type = type;
  f.kernel = kernel;
  f.flags.delta_softplus = true;
  const std::int64_t pitch = (seqlen + 7) / 8 * 8;  // rows on 16 bytes in every type
  f.u = {p, type, dim * pitch, pitch};
  f.delta = f.z = f.u;
  f.A = fake, f.A_dim_stride = dstate;
  f.B = {true, p, type, dstate * pitch, dstate * pitch, pitch, 0};
  f.C = f.B;
  f.D = f.delta_bias = fake;
  f.out = f.out_z = {p, type, dim * pitch, pitch};
  f.chunk_states = fake;
  b.dout = f.u;
  b.du = b.ddelta = b.dz = f.out;
  b.dA = b.dB = b.dC = b.dD = b.ddelta_bias = fake;
  b.workspace = p;
  return b;
}

}  // namespace

TEST_CASE("an explicit version runs where it can and hands on the rest", "[gpu]") {
  REQUIRE_VERSION_5();
  const Plan v5 = plan_of(call(8, 1536, 512, 16, Kernel::ring));
  CHECK(v5.summary() == "v5");
  CHECK(v5.why == "version 5 takes both directions");

  // Past 16 states version 5 takes B and C both variable, both ways.
  for (int dstate : {17, 64, 256}) {
    const Plan wide = plan_of(call(8, 1536, 2048, dstate, Kernel::ring));
    CHECK(wide.summary() == "v5");
    CHECK(wide.why == "version 5 takes both directions");
  }
  BackwardParams constant_B = call(2, 64, 512, 64, Kernel::ring);
  constant_B.forward.B = {false, fake, DataType::float32, 0, 0, 0, 64};
  const Plan v5_constant = plan_of(constant_B);
  CHECK(v5_constant.forward == Kernel::registers);
  CHECK(v5_constant.backward == Kernel::blocked);
  INFO(v5_constant.why);
  CHECK(v5_constant.why.find("dstate > 16 with a constant B or C") != std::string::npos);
}

TEST_CASE("versions 3 and 4 hand on what they cannot take", "[gpu]") {
  REQUIRE_GPU();
  BackwardParams deterministic = call(2, 64, 512, 16, Kernel::registers);
  deterministic.deterministic = true;
  const Plan v4 = plan_of(deterministic);
  CHECK(v4.summary() == "v4 fwd, v2 bwd");
  CHECK(v4.why.find("deterministic") != std::string::npos);

  CHECK(plan_of(call(2, 64, 512, 64, Kernel::lanes)).forward == Kernel::blocked);  // version 3 takes dstate <= 32
  CHECK(plan_of(call(2, 64, 512, 16, Kernel::lanes)).summary() == "v3 fwd, v2 bwd");
}

TEST_CASE("automatic follows its measured rule", "[gpu]") {
  REQUIRE_VERSION_5();
  // Short sequences: version 4.
  CHECK(plan_of(call(8, 1536, 33, 16, Kernel::automatic)).forward == Kernel::registers);
  // Mamba's shapes: version 5 both ways.
  CHECK(plan_of(call(8, 1536, 2048, 16, Kernel::automatic)).summary() == "auto: v5");
  CHECK(plan_of(call(1, 5120, 8192, 16, Kernel::automatic, DataType::bfloat16)).summary() == "auto: v5");
  // Few channels, long sequences: version 5 cut into time segments (past 16 states, its slices of
  // 16 states cut so). Its forward cuts where it has its workspace (else version 2's forward,
  // time in parallel inside a channel); its backward cuts within its own.
  for (int dstate : {16, 64}) {
    INFO("dstate " << dstate);
    BackwardParams cut = call(1, 256, 4096, dstate, Kernel::automatic);
    cut.forward.workspace = fake;
    const Plan cut_plan = plan_of(cut);
    CHECK(cut_plan.forward == Kernel::ring);
    CHECK(cut_plan.forward_segments > 1);
    CHECK(cut_plan.backward == Kernel::ring);
    CHECK(cut_plan.backward_segments > 1);
    const Plan no_workspace = plan_of(call(1, 256, 4096, dstate, Kernel::automatic));
    CHECK(no_workspace.forward == Kernel::blocked);
    CHECK(no_workspace.backward == Kernel::ring);
  }
  // A group of 4 channels: one block of version 5, 12 of its 16 channel places idle, cut into 64
  // segments each way.
  BackwardParams four = call(1, 4, 4096, 16, Kernel::automatic);
  four.forward.workspace = fake;
  CHECK(plan_of(four).summary() == "auto: v5, segments 64 fwd 64 bwd");
  // Few states: version 2's backward at one, version 5's from two; where version 5 would cut,
  // version 2 both ways up to 4 states.
  CHECK(plan_of(call(8, 1536, 2048, 1, Kernel::automatic)).summary() == "auto: v5 fwd, v2 bwd");
  CHECK(plan_of(call(8, 1536, 2048, 2, Kernel::automatic)).summary() == "auto: v5");
  BackwardParams few_states = call(1, 256, 4096, 4, Kernel::automatic);
  few_states.forward.workspace = fake;
  CHECK(plan_of(few_states).summary() == "auto: v2");
  few_states = call(1, 256, 4096, 8, Kernel::automatic);
  few_states.forward.workspace = fake;
  CHECK(plan_of(few_states).forward == Kernel::ring);
  CHECK(plan_of(few_states).backward == Kernel::ring);
  // More than 16 states over many channels: version 5 (with few, above).
  CHECK(plan_of(call(8, 1536, 2048, 64, Kernel::automatic)).summary() == "auto: v5");
}

TEST_CASE("the sizes a caller allocates are the plan's", "[gpu]") {
  REQUIRE_GPU();
  for (Kernel k : ch08_test::built({Kernel::automatic, Kernel::blocked, Kernel::registers, Kernel::ring}))
    for (std::int64_t seqlen : {100, 4096, 32768})
      for (int dstate : {16, 64}) {
        BackwardParams b = call(2, 64, seqlen, dstate, k);
        INFO("kernel " << int(k) << " seqlen " << seqlen << " dstate " << dstate);
        b.forward.workspace = fake;  // as the caller will give it
        const Plan plan = plan_of(b);
        CHECK(backward_workspace_bytes(b) == plan.backward_workspace_bytes);
        CHECK(forward_workspace_bytes(b.forward) == plan.forward_workspace_bytes);
        CHECK(state_checkpoints_floats(b.forward) == plan.state_checkpoints_floats);
        CHECK((plan.forward_segments > 1) == (plan.forward_workspace_bytes > 0));
      }
}

TEST_CASE("automatic takes kept states as an offer", "[gpu]") {
  REQUIRE_VERSION_5();
  BackwardParams used = call(8, 1536, 2048, 16, Kernel::automatic);
  REQUIRE(state_checkpoints_floats(used.forward) > 0);
  used.forward.state_checkpoints = fake;
  CHECK(validate(used).empty());
  CHECK(plan_of(used).backward_reads_kept_states);
  // Few channels and no forward workspace: the rule runs version 2's forward, which keeps nothing;
  // the offer is declined, not refused.
  BackwardParams declined = call(1, 4, 4096, 16, Kernel::automatic);
  declined.forward.state_checkpoints = fake;
  CHECK(validate(declined).empty());
  CHECK_FALSE(plan_of(declined).backward_reads_kept_states);
  // One state: version 5's forward, version 2's backward, which would not read them: automatic
  // asks for none, and memory given anyway is left alone.
  BackwardParams one_state = call(8, 1536, 2048, 1, Kernel::automatic);
  CHECK(state_checkpoints_floats(one_state.forward) == 0);
  one_state.forward.state_checkpoints = fake;
  CHECK(validate(one_state).empty());
  CHECK(plan_of(one_state).forward == Kernel::ring);
  CHECK_FALSE(plan_of(one_state).backward_reads_kept_states);
  // An explicit version that keeps none still refuses them.
  BackwardParams refused = call(1, 4, 4096, 16, Kernel::registers);
  refused.forward.state_checkpoints = fake;
  CHECK(validate(refused).find("keeps none") != std::string::npos);
}

// Where version 5 cannot run -- a build for older GPUs alone, or an older GPU -- automatic plans
// versions 1 to 4 for every shape, the regimes of its rule included; asking for version 5 throws
// Error naming the build's architectures where the build lacks it, and hands the call on where
// only the GPU does. Where it runs, it takes the call.
TEST_CASE("a version the build or the GPU lacks is never planned", "[gpu]") {
  REQUIRE_GPU();
  const std::string why_not = ch08_test::why_no_version_5();
  INFO("version 5 here: " << (why_not.empty() ? "runs" : why_not));
  for (const auto& [batch, dim, seqlen, dstate] :
       {std::tuple<std::int64_t, std::int64_t, std::int64_t, int>{8, 1536, 2048, 16},
        {1, 5120, 8192, 16},
        {1, 256, 4096, 64},
        {1, 4, 4096, 16},
        {8, 1536, 2048, 2},
        {8, 1536, 33, 16}}) {
    BackwardParams automatic = call(batch, dim, seqlen, dstate, Kernel::automatic);
    automatic.forward.workspace = fake;
    const Plan plan = plan_of(automatic);
    INFO("(" << batch << ", " << dim << ", " << seqlen << ", " << dstate << "): " << plan.summary() << ": "
             << plan.why);
    if (!why_not.empty()) {
      CHECK(plan.forward != Kernel::ring);
      CHECK(plan.backward != Kernel::ring);
      CHECK(state_checkpoints_floats(automatic.forward) == 0);
    }
  }
  const BackwardParams asked = call(8, 1536, 2048, 16, Kernel::ring);
  if (!version_built(Kernel::ring)) {
    const std::string line = validate(asked);
    CHECK(line.find("version 5 needs code for sm_90") != std::string::npos);
    CHECK(line.find(built_architectures()) != std::string::npos);
    CHECK_THROWS_AS(plan_of(asked), Error);
    CHECK_THROWS_WITH(plan_of(asked), Catch::Contains(line));
  } else if (!why_not.empty()) {
    CHECK(validate(asked).empty());
    const Plan handed_on = plan_of(asked);
    CHECK(handed_on.forward == Kernel::registers);
    CHECK(handed_on.why.find("no sm_90 code for this GPU") != std::string::npos);
  } else {
    CHECK(validate(asked).empty());
    CHECK(plan_of(asked).summary() == "v5");
  }
}

// Packed sequences: version 5 takes them both ways (B and C both variable, up to 16 states) where
// it would take the call unpacked; it keeps no states (its backward recomputes them).
TEST_CASE("packed sequences: version 5 both ways", "[gpu]") {
  REQUIRE_VERSION_5();
  // workspace: the forward's, without which version 5 does not cut a sequence into segments.
  const auto packed = [](BackwardParams b, bool workspace = false) {
    b.forward.cu_seqlens = reinterpret_cast<const std::int32_t*>(fake);
    b.forward.sequences = 5;
    if (workspace) b.forward.workspace = fake;
    return b;
  };
  const Plan many = plan_of(packed(call(1, 8192, 2048, 16, Kernel::automatic)));  // channels fill the GPU
  INFO(many.summary());
  CHECK(many.forward == Kernel::ring);
  CHECK(many.backward == Kernel::ring);
  CHECK(many.why == "forward: version 5: packed sequences; backward: version 5: packed sequences");
  CHECK(many.state_checkpoints_floats == 0);
  const Plan cut = plan_of(packed(call(1, 64, 8192, 16, Kernel::automatic), true));  // few channels: cut
  INFO(cut.why);
  CHECK(cut.forward == Kernel::ring);
  CHECK(cut.forward_segments > 1);
  CHECK(cut.backward == Kernel::ring);
  CHECK(cut.backward_segments > 1);
  const Plan explicit_v5 = plan_of(packed(call(1, 64, 512, 16, Kernel::ring)));
  CHECK(explicit_v5.forward == Kernel::ring);
  CHECK(explicit_v5.backward == Kernel::ring);
  CHECK(explicit_v5.why == "version 5 takes both directions");
  const Plan wide = plan_of(packed(call(1, 64, 512, 32, Kernel::ring)));
  CHECK(wide.summary() == "v2");
  CHECK(wide.why ==
        "version 5's forward refuses packed sequences past 16 states or with a constant B or C; version 2 "
        "takes packed sequences; version 5's backward refuses packed sequences past 16 states or with a "
        "constant B or C; version 2 takes packed sequences");
}
