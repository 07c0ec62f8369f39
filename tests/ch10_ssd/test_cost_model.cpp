// The cost model of the chunked SSD (ssd_cost_model.hpp): one shape counted by hand, and the
// trade it exists to show as the chunk grows.
#include "ssd_cost_model.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>

using ch10::CostShape;
using ch10::SsdCost;

TEST_CASE("the cost model counts a small shape as by hand", "[ch10][cost]") {
  CostShape s;
  s.batch = 1;
  s.seqlen = 10;
  s.heads = 2;
  s.head_dim = 3;
  s.groups = 1;
  s.dstate = 4;
  s.input_bytes = 2;
  s.has_final_states = false;
  // Chunks of 4, 4 and 2 positions: Σ q² = 36.
  const SsdCost c = ch10::ssd_cost_model(s, 4);
  CHECK(c.chunk == 4);
  CHECK(c.chunks == 3);
  CHECK(c.intra_chunk_cb_flops == 2 * 36 * 4 * 1);      // one group
  CHECK(c.intra_chunk_output_flops == 2 * 36 * 3 * 2);  // two heads
  CHECK(c.chunk_state_flops == 2 * 10 * 3 * 4 * 2);
  CHECK(c.state_passing_flops == 2 * 3 * 3 * 4 * 2);
  CHECK(c.state_to_output_flops == 2 * 10 * 4 * 3 * 2);
  CHECK(c.total_flops() == 288 + 432 + 480 + 144 + 480);
  // x and y 60 values each, dt 20, B and C 40 each, all of 2 bytes; A, D, dt_bias 2 fp32 each.
  CHECK(c.fused_bytes == (60 + 60 + 20 + 40 + 40) * 2 + 3 * 2 * 4);
  CHECK(c.chunk_state_bytes == 3 * 2 * 3 * 4 * 4);
  CHECK(c.intensity() == Approx(double(c.total_flops()) / double(c.fused_bytes)));

  s.has_z = s.has_seq_idx = s.has_initial_states = s.has_final_states = true;
  s.has_D = s.has_dt_bias = false;
  CHECK(ch10::ssd_cost_model(s, 4).fused_bytes == (60 * 3 + 20 + 80) * 2 + 10 * 4 + 2 * 4 + 2 * (2 * 3 * 4 * 4));
}

TEST_CASE("the chunk trades intra-chunk work against state passing", "[ch10][cost]") {
  CostShape s;  // Mamba-2 2.7B's layer: 80 heads of 64, 128 states, one group
  s.batch = 8;
  s.seqlen = 4096;
  s.heads = 80;
  const SsdCost one = ch10::ssd_cost_model(s, 1);
  std::int64_t previous_intra = 0, previous_passing = one.state_passing_flops + 1;
  for (const std::int64_t chunk : {1, 16, 64, 100, 256, 1024, 4096}) {
    INFO("chunk " << chunk);
    const SsdCost c = ch10::ssd_cost_model(s, chunk);
    CHECK(c.intra_chunk_flops() > previous_intra);
    CHECK(c.state_passing_flops < previous_passing);
    CHECK(c.chunk_state_flops == one.chunk_state_flops);  // 2·L·p·n a head, whatever the chunk
    CHECK(c.state_to_output_flops == one.state_to_output_flops);
    CHECK(c.fused_bytes == one.fused_bytes);  // the floor does not depend on the chunk
    CHECK(c.chunk_state_bytes == c.chunks * 8 * 80 * 64 * 128 * 4);
    previous_intra = c.intra_chunk_flops();
    previous_passing = c.state_passing_flops;
  }
  // A chunk past the sequence is one chunk of the whole sequence.
  CHECK(ch10::ssd_cost_model(s, 5000).chunks == 1);
  CHECK(ch10::ssd_cost_model(s, 5000).total_flops() == ch10::ssd_cost_model(s, 4096).total_flops());
}

TEST_CASE("the cost model refuses a chunk or size below 1 and groups that do not divide heads", "[ch10][cost]") {
  CostShape s;
  CHECK_THROWS_WITH(ch10::ssd_cost_model(s, 0), "ch10 SSD cost model: chunk must be at least 1, got 0");
  s.dstate = 0;
  CHECK_THROWS_WITH(ch10::ssd_cost_model(s, 1), "ch10 SSD cost model: every size must be at least 1");
  s.dstate = 1;
  s.heads = 3;
  s.groups = 2;
  CHECK_THROWS_WITH(ch10::ssd_cost_model(s, 1), "ch10 SSD cost model: heads must be divisible by groups");
}
