// How version 5's kernels deal a call's channels out to blocks (channel_blocks.hpp), checked on
// the CPU: every channel of every batch lands in exactly one block, a block never straddles a
// group (its channels share B and C), and where the width divides a group's channels the
// dealing is the plain cut into runs of `width` that the kernels used before partial blocks.
#include "channel_blocks.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <tuple>
#include <vector>

namespace {

using selective_scan::detail::channel_block;
using selective_scan::detail::channel_blocks;
using selective_scan::detail::ChannelBlock;
using selective_scan::detail::ScanArgs;

ScanArgs call(std::int64_t batch, std::int64_t dim, int groups) {
  ScanArgs a{};
  a.batch = batch, a.dim = dim, a.groups = groups, a.dims_per_group = dim / groups;
  return a;
}

}  // namespace

TEST_CASE("channel blocks: every channel in exactly one block of its own batch and group") {
  struct Case {
    std::int64_t batch, dim;
    int groups, width;
  };
  for (const Case& k : {Case{1, 4, 1, 16}, Case{2, 4, 4, 16}, Case{1, 40, 2, 16}, Case{3, 100, 1, 16},
                        Case{2, 96, 3, 16}, Case{1, 8200, 1, 32}, Case{2, 70, 7, 16}}) {
    const ScanArgs a = call(k.batch, k.dim, k.groups);
    INFO("batch " << k.batch << ", dim " << k.dim << ", groups " << k.groups << ", width " << k.width);
    std::vector<int> seen(std::size_t(k.batch * k.dim), 0);
    const std::int64_t blocks = channel_blocks(a, k.width);
    CHECK(blocks == k.batch * k.groups * ((a.dims_per_group + k.width - 1) / k.width));
    for (std::int64_t i = 0; i < blocks; ++i) {
      const ChannelBlock block = channel_block(a, i, k.width);
      REQUIRE(block.b < k.batch);
      REQUIRE(block.count >= 1);
      REQUIRE(block.count <= k.width);
      CHECK(block.first == block.b * k.dim + block.d0);
      // The block's first and last channels are in its group.
      CHECK(block.d0 / a.dims_per_group == block.group);
      CHECK((block.d0 + block.count - 1) / a.dims_per_group == block.group);
      for (int c = 0; c < block.count; ++c) ++seen[std::size_t(block.first + c)];
    }
    for (std::size_t channel = 0; channel < seen.size(); ++channel) {
      INFO("channel " << channel);
      REQUIRE(seen[channel] == 1);
    }
  }
}

TEST_CASE("channel blocks: where the width divides a group's channels, block i starts at i * width") {
  for (const auto& [batch, dim, groups] : {std::tuple{2, 64, 1}, std::tuple{8, 1536, 4}, std::tuple{1, 5120, 2}}) {
    const ScanArgs a = call(batch, dim, groups);
    for (int width : {16, 32}) {
      REQUIRE(channel_blocks(a, width) == batch * dim / width);
      for (std::int64_t i = 0; i < channel_blocks(a, width); ++i) {
        const ChannelBlock block = channel_block(a, i, width);
        REQUIRE(block.first == i * width);
        REQUIRE(block.count == width);
      }
    }
  }
}

TEST_CASE("channel blocks: a group of 4 channels is one block of 4, in each batch") {
  const ScanArgs a = call(2, 4, 1);
  REQUIRE(channel_blocks(a, 16) == 2);
  const ChannelBlock second = channel_block(a, 1, 16);
  CHECK(second.b == 1);
  CHECK(second.d0 == 0);
  CHECK(second.first == 4);
  CHECK(second.count == 4);
}
