// Every kernel version of chapter 08 against the fp64 reference: the official test suite's whole
// grid, then the cases the official kernel does not take or gets wrong.
#include "gpu_test.hpp"
#include "scan_check.hpp"
#include "version5_test.hpp"

#include <catch2/catch.hpp>

#include <cstring>

using ch08::Problem;
using ch08::testing::describe;
using ch08::testing::run_and_compare;
using selective_scan::DataType;
using selective_scan::Kernel;

namespace {

Problem shape(std::int64_t batch, std::int64_t dim, std::int64_t seqlen, int dstate) {
  Problem p;
  p.batch = batch, p.dim = dim, p.seqlen = seqlen, p.dstate = dstate;
  return p;
}

// Channels in groups of dim / groups that read their own B and C rows: bit 0 of `variable`
// makes B variable, bit 1 C (two groups when both vary); every flag on, and an initial state
// once the sequence passes a chunk.
Problem in_groups(std::int64_t dim, std::int64_t seqlen, int dstate, int variable) {
  Problem p = shape(2, dim, seqlen, dstate);
  p.variable_B = variable & 1;
  p.variable_C = variable & 2;
  p.groups = variable == 3 ? 2 : 1;
  p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = true;
  p.has_initial_state = seqlen > 2048;
  return p;
}

void require_all_versions_match(const Problem& drawn, DataType type, bool deterministic = false) {
  for (Kernel kernel : ch08_test::every_version()) {
    const auto outcome = run_and_compare(drawn, type, kernel, deterministic);
    INFO(describe(drawn, type, kernel) << "\n" << outcome.report);
    CHECK(outcome.ok);  // not REQUIRE: a failing grid shows every case that fails
  }
}

// One run with a gradient of the last states into the backward (BackwardParams::dlast_state),
// drawn like dout, against the fp64 reference.
void require_match_with_dlast_state(const Problem& drawn, DataType type, Kernel kernel) {
  const auto outcome = run_and_compare(drawn, type, kernel, false, 7, 0, false, /*dlast_state=*/true);
  INFO(describe(drawn, type, kernel) << ", with dlast_state\n" << outcome.report);
  CHECK(outcome.ok);
}

// [snippet:official_grid]
// The official test suite's whole grid (tests/ops/test_selective_scan.py; official_baseline.md):
// every seqlen, every flag on and off, groups 1 and 2 (2 only with both B and C variable), for
// one input type.
void run_official_grid(DataType type) {
  const std::int64_t seqlens[] = {8, 16, 32, 64, 128, 256, 372, 512, 784, 1024, 1134, 2048, 4096};
  int cases = 0;
  for (std::int64_t seqlen : seqlens)
    for (int flags = 0; flags < 128; ++flags)
      for (int groups : {1, 2}) {
        Problem p = shape(2, 4, seqlen, 8);
        p.has_initial_state = false;
        const bool return_last_state = flags & 1;  // the library always can; kept for the count
        p.has_delta_bias = flags & 2;
        p.delta_softplus = flags & 4;
        p.has_z = flags & 8;
        p.has_D = flags & 16;
        p.variable_B = flags & 32;
        p.variable_C = flags & 64;
        if (groups == 2 && !(p.variable_B && p.variable_C)) continue;
        p.groups = groups;
        (void)return_last_state;
        require_all_versions_match(ch08::make_official_test_problem(p, unsigned(1000 + cases)), type);
        ++cases;
      }
  CHECK(cases == 13 * (128 + 32));
}
// [/snippet:official_grid]

}  // namespace

TEST_CASE("official grid fp32", "[gpu]") {
  REQUIRE_GPU();
  run_official_grid(DataType::float32);
}
TEST_CASE("official grid fp16", "[gpu]") {
  REQUIRE_GPU();
  run_official_grid(DataType::float16);
}
TEST_CASE("official grid bf16", "[gpu]") {
  REQUIRE_GPU();
  run_official_grid(DataType::bfloat16);
}

// Short runs of every compiled configuration -- block shape (by seqlen), input type, real and
// complex A -- in every version, every flag on, the deterministic sums with complex A and the
// atomics with real A: the set compute-sanitizer checks. Two groups of 16 channels are whole
// warps of version 4 and whole blocks of version 5, so that with real A both take their own
// paths (staged rows, the ring of tiles, their backwards), and version 5 runs once more with
// the forward's kept states.
TEST_CASE("every kernel configuration at small sizes", "[gpu]") {
  REQUIRE_GPU();
  for (std::int64_t seqlen : {100, 200, 400, 1000, 2100})
    for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16})
      for (bool complex : {false, true}) {
        Problem p = shape(1, 32, seqlen, 4);
        p.complex = complex;
        p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = p.has_initial_state = true;
        p.groups = 2;
        const Problem drawn = ch08::make_official_test_problem(p, 11);
        require_all_versions_match(drawn, type, /*deterministic=*/complex);
        // Version 5's forward keeps no states for complex A, and none where version 5 cannot run.
        if (complex || !ch08_test::why_no_version_5().empty()) continue;
        ch08::DeviceProblem probe(ch08::as_gpu_sees(drawn, type), type, Kernel::ring, false, 0, true);
        CHECK(probe.forward_params().state_checkpoints != nullptr);
        const auto outcome = run_and_compare(drawn, type, Kernel::ring, false, 7, 0, /*keep_checkpoints=*/true);
        INFO(describe(p, type, Kernel::ring) << " with the forward's checkpoints\n" << outcome.report);
        CHECK(outcome.ok);
      }
}

TEST_CASE("awkward sequence lengths", "[gpu]") {
  REQUIRE_GPU();
  for (std::int64_t seqlen : {1, 2, 3, 31, 33, 127, 129, 1023, 1025, 2047, 2049, 4095, 4097, 6007}) {
    Problem p = shape(2, 3, seqlen, 5);
    p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = true;
    require_all_versions_match(ch08::make_official_test_problem(p, 21), DataType::float32);
  }
}

// Version 4 stages a warp's B and C rows once, and runs its own backward, only when a group's
// channels come in whole warps (4 or 8 of them) and, backwards, for real A with up to 16
// states; the shapes above mostly send it elsewhere. These take those paths, and version 5's
// (its backward where the rows start on 16 bytes, version 4's otherwise; with two groups of 8
// channels, each one block of version 5 with 8 idle lanes): every input type, awkward lengths,
// each of B and C constant or variable, two groups, an initial state.
TEST_CASE("version 4's own paths: channels in whole warps", "[gpu]") {
  REQUIRE_GPU();
  int seed = 61;
  for (std::int64_t seqlen : {1, 31, 33, 2047, 2049, 4100})
    for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16})
      for (int variable = 0; variable < 4; ++variable)
        for (int dstate : {16, 5}) {
          const Problem p = in_groups(16, seqlen, dstate, variable);
          const Problem drawn = ch08::make_official_test_problem(p, unsigned(seed++));
          for (Kernel kernel : ch08_test::built({Kernel::registers, Kernel::ring})) {
            const auto outcome = run_and_compare(drawn, type, kernel);
            INFO(describe(p, type, kernel) << "\n" << outcome.report);
            CHECK(outcome.ok);
          }
        }
}

// Version 5's forward fills a ring of tiles for a block of channels that read the same B and C
// rows: 16 channels of one group below 8192 channels, 32 from there up. These take it: every
// input type, each of B and C variable, 16 and 5 states, lengths that end inside a tile, rows
// that are not 16-byte aligned (fp32 at odd lengths, fp16 and bf16 at lengths that are not a
// multiple of 8: the producer loads those value by value), an initial state.
TEST_CASE("version 5's forward: channels in whole blocks", "[gpu]") {
  REQUIRE_VERSION_5();
  int seed = 91;
  for (std::int64_t seqlen : {1, 33, 64, 2049, 4100})
    for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16})
      for (int variable = 1; variable < 4; ++variable)
        for (int dstate : {16, 5}) {
          const Problem p = in_groups(32, seqlen, dstate, variable);
          const auto outcome =
              run_and_compare(ch08::make_official_test_problem(p, unsigned(seed++)), type, Kernel::ring);
          INFO(describe(p, type, Kernel::ring) << "\n" << outcome.report);
          CHECK(outcome.ok);
        }
}

// From 8192 channels version 5's forward gives a channel four lanes and a block 32 channels; the
// test above stays below that. Short, so that compute-sanitizer can take it too.
TEST_CASE("version 5's forward from 8192 channels: four lanes a channel", "[gpu]") {
  REQUIRE_VERSION_5();
  int seed = 131;
  for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16}) {
    Problem p = shape(2, 4096, 40, 16);
    p.groups = 2;
    p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = true;
    const auto outcome = run_and_compare(ch08::make_official_test_problem(p, unsigned(seed++)), type, Kernel::ring);
    INFO(describe(p, type, Kernel::ring) << "\n" << outcome.report);
    CHECK(outcome.ok);
  }
}

// Where version 5's blocks of 16 channels, eight lanes a channel, would be one to one and a half
// a multiprocessor, its forward gives a channel sixteen lanes, one state each, and a block eight
// channels (sixteen_lanes in v5_ring_forward.cu). About 1.25 such blocks a multiprocessor: in one
// group, and in two groups whose channels end on half a block of eight; 16 and 9 states. Short,
// so that compute-sanitizer can take it too.
TEST_CASE("version 5's forward at 1 to 1.5 blocks a multiprocessor: sixteen lanes a channel", "[gpu]") {
  REQUIRE_VERSION_5();
  const std::int64_t blocks = common::gpu_status().device.multiprocessors * 5 / 4;
  int seed = 151;
  for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16})
    for (int groups : {1, 2})
      for (int dstate : {16, 9}) {
        Problem p = shape(1, groups == 1 ? 16 * blocks : 2 * (8 * blocks + 4), dstate == 16 ? 40 : 100, dstate);
        p.groups = groups;
        p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = true;
        const auto outcome = run_and_compare(ch08::make_official_test_problem(p, unsigned(seed++)), type, Kernel::ring);
        INFO(describe(p, type, Kernel::ring) << "\n" << outcome.report);
        CHECK(outcome.ok);
      }
}

// With B and C both variable, a lane of version 5 walks only the states the call has, rounded
// up to a power of two (v5_ring_forward.cu, few_states): in the forward, one or two of four
// lanes' states from 8192 channels up, one of eight lanes' below, and in a cut sequence; in the
// backward, one of eight lanes' up to 8 states, uncut, cut, and in a group's partial block.
// 1, 3, 4, 5 and 8 states take each of these layouts at an edge or inside it; a constant C keeps
// the 16-state walks with 3 states. Every input type.
TEST_CASE("version 5: a lane walks only the states a call has", "[gpu]") {
  REQUIRE_VERSION_5();
  struct Case {
    std::int64_t batch, dim, seqlen;
    int dstate, variable;
  };
  int seed = 151;
  for (const Case& k : {Case{2, 4096, 40, 1, 3}, Case{2, 4096, 40, 4, 3}, Case{2, 4096, 40, 5, 3},
                        Case{2, 4096, 40, 8, 3}, Case{2, 4096, 40, 3, 1}, Case{2, 32, 200, 3, 3},
                        Case{2, 32, 200, 8, 3}, Case{2, 40, 200, 4, 3}, Case{1, 32, 4104, 5, 3}})
    for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16}) {
      Problem p = in_groups(k.dim, k.seqlen, k.dstate, k.variable);
      p.batch = k.batch;
      const Problem drawn = ch08::make_official_test_problem(p, unsigned(seed++));
      if (k.seqlen > 2048) {
        ch08::DeviceProblem probe(ch08::as_gpu_sees(drawn, type), type, Kernel::ring);
        REQUIRE(selective_scan::forward_workspace_bytes(probe.forward_params()) > 0);
      }
      const auto outcome = run_and_compare(drawn, type, Kernel::ring);
      INFO(describe(p, type, Kernel::ring) << "\n" << outcome.report);
      CHECK(outcome.ok);
    }
}

// Past 16 states, with B and C both variable, version 5's forward takes wider layouts
// (v5_ring_forward.cu, many_states): K = 8 states a lane of 4 or 8 lanes up to 64 states, K = 16
// of 8 or 16 lanes beyond, blocks of 32, 16 or 8 channels, and tiles of up to 256 rows of B and
// C. Groups of a whole block and part of another (40, 20 and 11 channels a group) or of part of
// one (20, 11, 7), a length that ends inside a tile, rows that are not on 16 bytes (fp16 and
// bf16 at 300 steps: the producer loads them value by value), an initial state past one chunk,
// the kept states of an explicit call; every input type.
TEST_CASE("version 5: more than 16 states", "[gpu]") {
  REQUIRE_VERSION_5();
  struct Case {
    std::int64_t dim, seqlen;
    int dstate;
  };
  int seed = 161;
  for (const Case& k : {Case{80, 300, 17}, Case{40, 301, 32}, Case{22, 300, 33}, Case{40, 296, 64}, Case{14, 2100, 100},
                        Case{22, 296, 128}, Case{14, 300, 129}, Case{22, 2056, 256}})
    for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16}) {
      const Problem p = in_groups(k.dim, k.seqlen, k.dstate, 3);
      const Problem drawn = ch08::make_official_test_problem(p, unsigned(seed++));
      ch08::DeviceProblem probe(ch08::as_gpu_sees(drawn, type), type, Kernel::ring);
      REQUIRE(selective_scan::plan_of(probe.forward_params()).forward == Kernel::ring);
      const bool keep = k.dstate == 64;
      const auto outcome = run_and_compare(drawn, type, Kernel::ring, false, 7, 0, keep);
      INFO(describe(p, type, Kernel::ring) << (keep ? ", kept states" : "") << "\n" << outcome.report);
      CHECK(outcome.ok);
    }
}

// Past 16 states version 5's backward walks each slice of 16 states in a block of its own and
// finishes the steps in a last pass from the slices' sums (v5_sliced_steps.cuh), with B and C
// both variable. Slices that end on part of their 16 states (17, 33, 40, 100, 129), groups of
// whole blocks in sequences too short to cut (32 and 64 channels, 200 and 248 steps), groups of a
// whole block and part of another (40 and 20 channels) or of part of one (11 and 12), the
// forward's kept states, and sequences that the backward cuts into segments as well as slices
// (few channels: 4104 steps, which the test makes sure of, with and without the kept states; the
// rule cuts some of the others too); every input type.
TEST_CASE("version 5's backward: more than 16 states", "[gpu]") {
  REQUIRE_VERSION_5();
  struct Case {
    std::int64_t batch, dim, seqlen;
    int dstate, variable;
    bool keep, cut;
  };
  int seed = 191;
  for (const Case& k : {Case{2, 40, 296, 17, 3, false, false}, Case{2, 32, 200, 64, 3, true, false},
                        Case{2, 64, 248, 40, 3, false, false}, Case{2, 20, 2056, 100, 3, false, false},
                        Case{2, 22, 296, 129, 3, false, false}, Case{2, 24, 296, 33, 3, false, false},
                        Case{1, 32, 4104, 33, 3, false, true}, Case{1, 32, 4104, 48, 3, true, true},
                        Case{2, 22, 296, 256, 3, false, false}})
    for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16}) {
      Problem p = in_groups(k.dim, k.seqlen, k.dstate, k.variable);
      p.batch = k.batch;
      const Problem drawn = ch08::make_official_test_problem(p, unsigned(seed++));
      ch08::DeviceProblem probe(ch08::as_gpu_sees(drawn, type), type, Kernel::ring, false, 0, k.keep);
      const selective_scan::Plan plan = selective_scan::plan_of(probe.backward_params());
      INFO(plan.why);
      REQUIRE(plan.backward == Kernel::ring);
      if (k.cut) REQUIRE(plan.backward_segments > 1);
      const auto outcome = run_and_compare(drawn, type, Kernel::ring, false, 7, 0, k.keep);
      INFO(describe(p, type, Kernel::ring) << (k.keep ? ", kept states" : "") << "\n" << outcome.report);
      CHECK(outcome.ok);
    }
}

// Past 16 states with few channels version 5's forward walks slices of 16 states in the 16-state
// layout, cut into segments, and finishes the outputs from the slices' sums
// (v5_sliced_steps.cuh). Slices that end on part of their states (33, 100), groups of whole
// blocks (16 channels) and of part of one (10), 2 to 64 segments, rows not on 16 bytes in fp16
// and bf16 (4102 steps: the producer loads them value by value), the kept states, an initial
// state; every input type. The backward of these calls is sliced too.
TEST_CASE("version 5's forward: more than 16 states with few channels", "[gpu]") {
  REQUIRE_VERSION_5();
  struct Case {
    std::int64_t dim, seqlen;
    int dstate;
    bool keep;
  };
  int seed = 221;
  for (const Case& k : {Case{32, 4104, 33, false}, Case{20, 2056, 100, true}, Case{32, 600, 64, false},
                        Case{32, 4102, 17, false}, Case{4, 300, 256, true}})
    for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16}) {
      Problem p = in_groups(k.dim, k.seqlen, k.dstate, 3);
      p.batch = 1;
      const Problem drawn = ch08::make_official_test_problem(p, unsigned(seed++));
      ch08::DeviceProblem probe(ch08::as_gpu_sees(drawn, type), type, Kernel::ring, false, 0, k.keep);
      const selective_scan::Plan plan = selective_scan::plan_of(probe.backward_params());
      INFO(plan.why);
      REQUIRE(plan.forward == Kernel::ring);
      REQUIRE(plan.forward_segments > 1);
      const auto outcome = run_and_compare(drawn, type, Kernel::ring, false, 7, 0, k.keep);
      INFO(describe(p, type, Kernel::ring) << (k.keep ? ", kept states" : "") << "\n" << outcome.report);
      CHECK(outcome.ok);
    }
}

// Few channels and a long sequence: version 5 cuts each group's sequence into time segments, one
// block each (segment_carry.cuh). The forward folds the summaries of the segments before each
// one; the backward's first launch writes each segment's summaries, forwards and backwards, and
// its second folds them into h at the segment's start and q at its end. 64 segments each way,
// the most a cut makes, of about 128 steps: a first one from the initial state, middle ones that
// start within a chunk of 2048 steps and fold more than one window of summaries, and a last one
// that ends in a partial tile. Rows of 8200 steps start on 16 bytes, so the forward's producer
// copies them in bulk and the backward's tiles come by tensor copies; rows of 8269 do not: the
// producer loads them value by value, and version 4's backward takes the call. And 296 steps:
// segments of the fewest steps a cut makes, ending in a partial tile, each way; 1112 steps:
// the forward's segments of 64 steps, the backward's of one tile (34, the last partial).
TEST_CASE("version 5: a long sequence cut into segments", "[gpu]") {
  REQUIRE_VERSION_5();
  int seed = 171;
  for (std::int64_t seqlen : {8200, 8269, 296, 1112})
    for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16})
      for (int variable = 1; variable < 4; ++variable) {
        Problem p = in_groups(32, seqlen, 16, variable);
        p.batch = 1;
        const Problem drawn = ch08::make_official_test_problem(p, unsigned(seed++));
        // The cut happens only where the groups alone leave the device idle: make sure it does.
        ch08::DeviceProblem probe(ch08::as_gpu_sees(drawn, type), type, Kernel::ring);
        REQUIRE(selective_scan::forward_workspace_bytes(probe.forward_params()) > 0);
        if (seqlen % 4 == 0) REQUIRE(selective_scan::plan_of(probe.backward_params()).backward_segments > 1);
        if (seqlen == 1112) REQUIRE(selective_scan::plan_of(probe.backward_params()).backward_segments == 34);
        const auto outcome = run_and_compare(drawn, type, Kernel::ring);
        INFO(describe(p, type, Kernel::ring) << "\n" << outcome.report);
        CHECK(outcome.ok);
      }
}

// Where segments of whole chunks already give blocks to half the device's places, the backward
// starts its segments on chunks (the forward's chunk states give h there, and the first launch
// walks backwards only): 96 channel groups in three chunks, with and without the kept states.
TEST_CASE("version 5's backward cut on whole chunks", "[gpu]") {
  REQUIRE_VERSION_5();
  for (bool keep_states : {false, true}) {
    Problem p = in_groups(1536, 3 * 2048, 16, 3);
    p.batch = 1;
    const Problem drawn = ch08::make_official_test_problem(p, 233);
    ch08::DeviceProblem probe(ch08::as_gpu_sees(drawn, DataType::float32), DataType::float32, Kernel::ring, false, 0,
                              keep_states);
    REQUIRE(selective_scan::plan_of(probe.backward_params()).backward_segments > 1);
    const auto outcome = run_and_compare(drawn, DataType::float32, Kernel::ring, false, 7, 0, keep_states);
    INFO(describe(p, DataType::float32, Kernel::ring) << (keep_states ? " with the kept states" : "") << "\n"
                                                      << outcome.report);
    CHECK(outcome.ok);
  }
}

// A group whose channels are not a whole number of version 5's blocks ends on a block with fewer
// (channel_blocks.hpp), whose idle lanes must write nothing and add nothing to the block's dB
// and dC. Groups of 4 channels (one block of 4) and of 20 (16 + 4), cut into segments at 4104
// steps (a last tile of 8 steps) and uncut at 200; 8200 channels in one group at 40 steps, where
// the forward's blocks hold 32 channels (256 of them and one of 8). Every input type, each of B
// and C variable, with and without the forward's kept states.
TEST_CASE("version 5: a group's channels in part of a block", "[gpu]") {
  REQUIRE_VERSION_5();
  struct Case {
    std::int64_t batch, dim, seqlen;
    int groups;
  };
  int seed = 251;
  for (const Case& k : {Case{2, 4, 4104, 1}, Case{1, 40, 4104, 2}, Case{2, 40, 200, 2}, Case{1, 8200, 40, 1}})
    for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16})
      for (int variable = 1; variable < 4; ++variable) {
        Problem p = in_groups(k.dim, k.seqlen, 16, variable);
        p.batch = k.batch, p.groups = k.groups;
        const Problem drawn = ch08::make_official_test_problem(p, unsigned(seed++));
        ch08::DeviceProblem probe(ch08::as_gpu_sees(drawn, type), type, Kernel::ring);
        const selective_scan::Plan plan = selective_scan::plan_of(probe.backward_params());
        REQUIRE(plan.forward == Kernel::ring);
        REQUIRE(plan.backward == Kernel::ring);
        if (k.seqlen > 2048) REQUIRE(selective_scan::forward_workspace_bytes(probe.forward_params()) > 0);
        for (bool keep_states : {false, true}) {
          const auto outcome = run_and_compare(drawn, type, Kernel::ring, false, 7, 0, keep_states);
          INFO(describe(p, type, Kernel::ring)
               << (keep_states ? " with the kept states" : "") << ", " << plan.summary() << "\n"
               << outcome.report);
          CHECK(outcome.ok);
        }
      }
}

// Slices of longer tensors: every row along time padded in memory, the padding of the inputs NaN
// and that of the outputs poisoned (DeviceProblem checks it is left alone). With rows of a
// multiple of 8 numbers, version 5 copies them in bulk and takes its own backward where seqlen
// is a multiple of 4 (its dB and dC adds take 4 steps at a time; version 4's backward otherwise);
// with 3 numbers more, nothing starts on 16 bytes. Every version, every input type.
TEST_CASE("padded rows: slices of longer tensors", "[gpu]") {
  REQUIRE_GPU();
  int seed = 211;
  for (std::int64_t seqlen : {37, 64, 2049, 4100})
    for (bool aligned : {true, false})
      for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16}) {
        const std::int64_t row_padding = aligned ? (seqlen + 7) / 8 * 8 + 8 - seqlen : 3;
        const Problem drawn = ch08::make_official_test_problem(in_groups(32, seqlen, 16, 3), unsigned(seed++));
        for (Kernel kernel : ch08_test::every_version()) {
          const auto outcome = run_and_compare(drawn, type, kernel, false, 7, row_padding);
          INFO(describe(drawn, type, kernel) << ", rows padded by " << row_padding << "\n" << outcome.report);
          CHECK(outcome.ok);
        }
      }
}

// Version 5's forward keeps h every 8 steps when asked (state_checkpoints) and its backward then
// skips the sweep that recomputes them. Lengths not on whole tiles, not on 8 steps (rows not on
// 16 bytes: version 4's backward, which ignores them), one chunk + 1, and a cut sequence.
TEST_CASE("version 5's backward from the forward's checkpoints", "[gpu]") {
  REQUIRE_VERSION_5();
  int seed = 191;
  for (std::int64_t seqlen : {1, 37, 64, 2049 + 7, 4100, 8200})
    for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16})
      for (int variable = 1; variable < 4; ++variable)
        for (int dstate : {16, 5}) {
          Problem p = in_groups(32, seqlen, dstate, variable);
          if (seqlen == 8200) p.batch = 1;  // few groups: the sequences are cut
          const Problem drawn = ch08::make_official_test_problem(p, unsigned(seed++));
          ch08::DeviceProblem probe(ch08::as_gpu_sees(drawn, type), type, Kernel::ring, false, 0, true);
          REQUIRE(probe.forward_params().state_checkpoints != nullptr);
          const auto outcome = run_and_compare(drawn, type, Kernel::ring, false, 7, 0, true);
          INFO(describe(p, type, Kernel::ring) << " with the forward's checkpoints\n" << outcome.report);
          CHECK(outcome.ok);
        }
}

TEST_CASE("complex A with constant and variable B and C", "[gpu]") {
  REQUIRE_GPU();
  for (bool variable : {false, true})
    for (std::int64_t seqlen : {7, 300, 2500}) {
      Problem p = shape(2, 4, seqlen, 6);
      p.complex = true;
      p.variable_B = p.variable_C = variable;
      p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = true;
      require_all_versions_match(ch08::make_official_test_problem(p, 31), DataType::float32);
    }
}

TEST_CASE("initial state and its gradient", "[gpu]") {
  REQUIRE_GPU();
  for (bool complex : {false, true})
    for (std::int64_t seqlen : {1, 50, 3000}) {
      Problem p = shape(2, 3, seqlen, 4);
      p.complex = complex;
      p.has_initial_state = true;
      p.has_D = true;
      require_all_versions_match(ch08::make_official_test_problem(p, 41), DataType::float32);
    }
}

// The gradient of the last state into the backward (BackwardParams::dlast_state): what a call
// over the sequence's next piece hands back, so that a sequence can be run in pieces. Every
// version, real and complex, every type; version 5 also cut into segments (the last one walks
// from it, and its summary carries it to the others) and past 16 states, in slices.
TEST_CASE("the last state's gradient into the backward", "[gpu]") {
  REQUIRE_GPU();
  int seed = 61;
  for (bool complex : {false, true})
    for (std::int64_t seqlen : {1, 50, 3000})
      for (bool initial : {false, true}) {
        Problem p = shape(2, 3, seqlen, 4);
        p.complex = complex;
        p.has_initial_state = initial;
        p.has_D = p.has_z = true;
        const Problem drawn = ch08::make_official_test_problem(p, unsigned(seed++));
        for (Kernel kernel : ch08_test::every_version())
          require_match_with_dlast_state(drawn, DataType::float32, kernel);
      }
  for (DataType type : {DataType::float16, DataType::bfloat16}) {
    const Problem drawn = ch08::make_official_test_problem(in_groups(8, 600, 16, 3), unsigned(seed++));
    for (Kernel kernel : ch08_test::every_version()) require_match_with_dlast_state(drawn, type, kernel);
  }
  if (ch08_test::why_no_version_5().empty()) {  // version 5 built and able to run here
    for (std::int64_t seqlen : {8200, 296, 1112})
      for (DataType type : {DataType::float32, DataType::bfloat16}) {
        Problem p = in_groups(32, seqlen, 16, 3);
        p.batch = 1;
        require_match_with_dlast_state(ch08::make_official_test_problem(p, unsigned(seed++)), type, Kernel::ring);
      }
    for (int dstate : {17, 33}) {
      Problem p = in_groups(32, 4104, dstate, 3);
      p.batch = 1;
      require_match_with_dlast_state(ch08::make_official_test_problem(p, unsigned(seed++)), DataType::float32,
                                     Kernel::ring);
    }
  }
}

// Packed sequences (ForwardParams::cu_seqlens) against the fp64 reference, which runs each
// sequence from its own initial state to its own last state (test_reference.cpp checks that this
// equals a call for each sequence): lengths 1, 7 and 300; a boundary on a chunk's end (2048) and
// others between and inside a thread's steps; three chunks; 40 sequences of one step. Every
// version (versions 2 and 5 take both directions, version 5 cut into segments of tiles with few
// channels, of chunks at 2304 channels; the others hand the call on), every type, real and
// complex A, every flag, with and without initial states, the last states' gradients into the
// backward.
TEST_CASE("packed sequences: one call with each sequence from its own state", "[gpu]") {
  REQUIRE_GPU();
  const auto packed = [](const std::vector<std::int64_t>& lengths, bool complex, bool every_flag,
                         std::int64_t dim = 4) {
    Problem p = shape(1, dim, 0, 8);
    p.cu_seqlens = {0};
    for (std::int64_t length : lengths) p.cu_seqlens.push_back(p.cu_seqlens.back() + length);
    p.seqlen = p.cu_seqlens.back();
    p.complex = complex;
    p.groups = 2;
    p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = p.has_initial_state = every_flag;
    return p;
  };
  unsigned seed = 81;
  for (bool complex : {false, true})
    for (bool every_flag : {false, true}) {
      const Problem drawn = ch08::make_official_test_problem(packed({1, 7, 300}, complex, every_flag), seed++);
      for (Kernel kernel : ch08_test::every_version()) require_match_with_dlast_state(drawn, DataType::float32, kernel);
    }
  const std::vector<std::vector<std::int64_t>> lengths = {
      {2048, 16, 17, 1}, {2000, 100, 3000}, std::vector<std::int64_t>(40, 1)};
  for (const auto& each : lengths)
    for (DataType type : {DataType::float32, DataType::float16, DataType::bfloat16}) {
      const Problem drawn = ch08::make_official_test_problem(packed(each, false, true), seed++);
      require_match_with_dlast_state(drawn, type, Kernel::automatic);
    }
  // Version 5, its forward not cut: channels enough to give every multiprocessor a block (2304 in
  // groups of 16 are 144 blocks; the backward cuts on chunks); the boundaries inside a tile, on a
  // tile's first step, and a sequence of one step between them.
  for (DataType type : {DataType::float32, DataType::bfloat16}) {
    const Problem drawn = ch08::make_official_test_problem(packed({500, 1, 11, 512}, false, true, 2304), seed++);
    require_match_with_dlast_state(drawn, type, Kernel::ring);
  }
}

TEST_CASE("dstate from 1 to 256", "[gpu]") {
  REQUIRE_GPU();
  for (int dstate : {1, 2, 17, 64, 255, 256}) {
    Problem p = shape(1, 2, 600, dstate);
    p.has_D = p.has_z = true;
    require_all_versions_match(ch08::make_official_test_problem(p, 51), DataType::float32);
  }
}

TEST_CASE("more channels than a grid dimension of 65535", "[gpu]") {
  REQUIRE_GPU();
  Problem p = shape(1, 70007, 5, 2);  // 70007 = 7 * 10001
  p.has_D = p.has_z = true;
  p.groups = 7;
  require_all_versions_match(ch08::make_official_test_problem(p, 61), DataType::float32);
}

// The backward with the deterministic flag uses no float atomics: two runs must agree bit for
// bit, in every output.
TEST_CASE("deterministic backward is bit-identical run to run", "[gpu]") {
  REQUIRE_GPU();
  for (Kernel kernel : ch08_test::every_version()) {
    Problem p = shape(2, 16, 3000, 8);
    p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = true;
    p.groups = 2;
    const Problem drawn = ch08::as_gpu_sees(ch08::make_official_test_problem(p, 71), DataType::float32);
    std::vector<double> dout(std::size_t(drawn.sequence_elements()), 0.5);
    ch08::Gradients first, second;
    for (ch08::Gradients* out : {&first, &second}) {
      ch08::DeviceProblem device(drawn, DataType::float32, kernel, true);
      device.forward();
      device.set_dout(dout);
      device.backward();
      *out = device.gradients();
    }
    const auto same = [](const auto& x, const auto& y) {
      return x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size() * sizeof(x[0])) == 0;
    };
    INFO("kernel " << int(kernel));
    CHECK(same(first.du, second.du));
    CHECK(same(first.ddelta, second.ddelta));
    CHECK(same(first.dz, second.dz));
    CHECK(same(first.dA, second.dA));
    CHECK(same(first.dB, second.dB));
    CHECK(same(first.dC, second.dC));
    CHECK(same(first.dD, second.dD));
    CHECK(same(first.ddelta_bias, second.ddelta_bias));
    const auto outcome = run_and_compare(drawn, DataType::float32, kernel, true);
    INFO(outcome.report);
    CHECK(outcome.ok);
  }
}

namespace {

// Channel d of every batch as a problem of its own (dim 1): the reference of one channel.
Problem channel_slice(const Problem& p, std::int64_t d) {
  Problem s = p;
  s.dim = 1;
  s.groups = 1;
  const std::int64_t L = p.seqlen, N = p.dstate, group = d / (p.dim / p.groups);
  const auto rows = [&](const std::vector<double>& x) {
    std::vector<double> out;
    for (std::int64_t b = 0; b < p.batch; ++b)
      out.insert(out.end(), x.begin() + (b * p.dim + d) * L, x.begin() + (b * p.dim + d + 1) * L);
    return out;
  };
  s.u = rows(p.u), s.delta = rows(p.delta);
  if (p.has_z) s.z = rows(p.z);
  s.A.assign(p.A.begin() + d * N, p.A.begin() + (d + 1) * N);
  const auto projection = [&](const std::vector<ch08::Complex>& x, bool variable) {
    if (!variable) return std::vector<ch08::Complex>(x.begin() + d * N, x.begin() + (d + 1) * N);
    std::vector<ch08::Complex> out;
    for (std::int64_t b = 0; b < p.batch; ++b) {
      const auto first = x.begin() + (b * p.groups + group) * N * L;
      out.insert(out.end(), first, first + N * L);
    }
    return out;
  };
  s.B = projection(p.B, p.variable_B), s.C = projection(p.C, p.variable_C);
  if (p.has_D) s.D = {p.D[d]};
  if (p.has_delta_bias) s.delta_bias = {p.delta_bias[d]};
  return s;
}

std::vector<float> download_floats(const float* device, std::int64_t first, std::int64_t count) {
  std::vector<float> host(static_cast<std::size_t>(count));
  CUDA_CHECK(cudaMemcpy(host.data(), device + first, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
  return host;
}

}  // namespace

// batch * dim * dstate = 8192 * 1025 * 256 > 2^31: the chunk states, the last state and the
// per-channel partial sums of dA are indexed past 2^31. The channels at the end are checked
// against the reference of their own slice.
TEST_CASE("offsets past 2^31", "[gpu]") {
  REQUIRE_GPU();
  Problem shape_only = shape(8192, 1025, 2, 256);
  shape_only.variable_B = shape_only.variable_C = false;
  shape_only.has_D = true;
  REQUIRE(shape_only.batch * shape_only.dim * shape_only.dstate > (std::int64_t(1) << 31));
  const Problem p = ch08::as_gpu_sees(ch08::make_official_test_problem(shape_only, 81), DataType::bfloat16);
  common::require_device_memory(std::size_t(3) * 4 * p.batch * p.dim * p.dstate + (std::size_t(1) << 30),
                                "the 2^31 test");
  for (Kernel kernel : ch08_test::every_version()) {
    INFO("kernel " << int(kernel));
    ch08::DeviceProblem device(p, DataType::bfloat16, kernel);
    device.forward();
    const std::vector<double> dout =
        ch08::round_to(std::vector<double>(std::size_t(p.sequence_elements()), 1.0), DataType::bfloat16);
    device.set_dout(dout);
    device.backward();
    CUDA_CHECK(cudaDeviceSynchronize());
    const std::int64_t N = p.dstate;
    for (std::int64_t d : {std::int64_t(0), p.dim - 1}) {
      const Problem slice = channel_slice(p, d);
      const ch08::ForwardResult expected = ch08::reference_forward(slice);
      const std::vector<double> slice_dout(std::size_t(slice.sequence_elements()), 1.0);
      const ch08::Gradients expected_grad = ch08::reference_backward(slice, slice_dout);
      const std::int64_t b = p.batch - 1;  // the last batch: the largest offsets
      const std::vector<float> last_state = download_floats(device.forward_params().last_state, (b * p.dim + d) * N, N);
      const std::vector<float> dA = download_floats(device.backward_params().dA, d * N, N);
      std::vector<double> expected_last(static_cast<std::size_t>(N)), expected_dA(static_cast<std::size_t>(N));
      for (std::int64_t n = 0; n < N; ++n) {
        expected_last[n] = expected.last_state[b * N + n].real();
        expected_dA[n] = expected_grad.dA[n].real();
      }
      const auto tol = ch08::testing::official_tolerances(DataType::bfloat16, p);
      const auto c1 =
          common::compare(std::span<const float>(last_state), std::span<const double>(expected_last), tol.last_state);
      const auto c2 = common::compare(std::span<const float>(dA), std::span<const double>(expected_dA), tol.dA);
      INFO("channel " << d << " last_state: " << c1.summary() << "\ndA: " << c2.summary());
      CHECK(c1.ok);
      CHECK(c2.ok);
    }
  }
}
