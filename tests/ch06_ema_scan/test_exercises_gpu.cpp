// Chapter 06's GPU exercise (exercise 3: version 2's kernel, warp_pairs_kernel.cu). In the
// `exercises` preset the stub runs here, and every case must fail until the reader writes the
// kernel. Two kinds of input, because each hides what the other shows:
//   - the chapter's decays in [0.95, 1): the pair operator is far from commutative there, so a
//     map composed on the wrong side is off by O(1); but a chunk's whole decay (thousands of
//     factors below 1) is about 0, so the carry's own decay is invisible;
//   - every a = 1 and whole-number b: h is a cumulative sum, exact in fp32 (chapter 05), and the
//     carry passes undecayed from chunk to chunk, so a carry that is dropped shows.
#include "ch06_test_support.hpp"
#include "device_buffer.hpp"
#include "ema_kernels.hpp"
#include "gpu_test.hpp"
#include "reference.hpp"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace {

// Pairs per chunk of version 2 (512 threads × 8) and per warp's stretch (32 lanes × 8).
constexpr std::size_t kChunk = std::size_t(ema::kWarpPairsThreads) * 4 * ema::kWarpPairsVectors;
constexpr std::size_t kStretch = 32 * 4 * ema::kWarpPairsVectors;
// Spare elements of h after the last sequence, NaN, that the kernel must leave alone.
constexpr std::size_t kGuard = 1024;

// a = 1 and b in {−3, ..., 3}: |h| ≤ 3·length < 2^24 for the lengths used, so exact.
ema::Problem cumulative_sum_problem(std::size_t batch, std::size_t length, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> step(-3, 3);
  ema::Problem p{batch, length, std::vector<float>(batch * length, 1.f), std::vector<float>(batch * length)};
  for (float& b : p.b) b = static_cast<float>(step(rng));
  return p;
}

void check_version_2(const ema::Problem& p, const std::string& input, common::Tolerance tol) {
  const auto expected = ema::recurrence_reference(p);
  const std::size_t n = p.size();
  common::DeviceBuffer<float> a{std::span<const float>(p.a)}, b{std::span<const float>(p.b)}, h(n + kGuard);
  h.poison();
  ema::run_hand_written(ema::Kernel::warp_pairs, a.data(), b.data(), h.data(), p.batch, p.length, {});
  const auto all = h.download();
  const std::vector<float> got(all.begin(), all.begin() + n);
  const auto at = [&](std::size_t i) {
    const std::size_t k = i % p.length;
    return "sequence " + std::to_string(i / p.length) + ", k = " + std::to_string(k) + " (chunk " +
           std::to_string(k / kChunk) + ", warp " + std::to_string(k % kChunk / kStretch) + ")";
  };
  const auto compared = common::compare(got, expected, tol);
  INFO("ema_warp_pairs, batch " << p.batch << " x L = " << p.length << ", " << input << ": h " << compared.summary(at));
  CHECK(compared.ok);
  std::size_t written_past_end = 0;
  for (std::size_t i = n; i < all.size(); ++i) written_past_end += !std::isnan(all[i]);
  INFO("ema_warp_pairs, batch " << p.batch << " x L = " << p.length
                                << ": elements of h written past the last sequence (they must stay NaN)");
  CHECK(written_past_end == 0);
}

void check_random(std::size_t batch, std::size_t length, std::uint64_t seed) {
  check_version_2(ema::random_problem(batch, length, kDecayLo, kDecayHi, seed),
                  "random_problem(a in [0.95, 1), b in [-1, 1), seed " + std::to_string(seed) + ")", kFp32);
}

void check_cumulative_sum(std::size_t batch, std::size_t length, std::uint64_t seed) {
  check_version_2(cumulative_sum_problem(batch, length, seed),
                  "a = 1, b whole numbers in [-3, 3] (exact), seed " + std::to_string(seed), {0.0, 0.0});
}

}  // namespace

TEST_CASE("exercise 3: version 2 within one chunk (1 pair, around a warp's stretch, a full chunk)", "[exercise][gpu]") {
  REQUIRE_GPU();
  // The state before each warp's stretch is warp_prefix applied to the carry: leaving it out, or
  // composing on the wrong side, fails from element 256 on.
  for (std::size_t length : {std::size_t(1), std::size_t(2), std::size_t(33), kStretch - 1, kStretch, kStretch + 1,
                             std::size_t(1000), kChunk - 1, kChunk})
    check_random(1, length, 300 + length);
}

TEST_CASE("exercise 3: version 2 carries h from each chunk to the next", "[exercise][gpu]") {
  REQUIRE_GPU();
  // A carry dropped or not decayed by the chunk's map (a = 1 shows it), or applied on the wrong
  // side (random decays show it), fails from the second chunk on.
  for (std::size_t length : {kChunk + 1, 2 * kChunk, 3 * kChunk + 5}) {
    check_random(1, length, 400 + length);
    check_cumulative_sum(1, length, 500 + length);
  }
}

TEST_CASE("exercise 3: version 2 gives every sequence its own block and state", "[exercise][gpu]") {
  REQUIRE_GPU();
  // Each sequence starts from h = 0 and writes only its own elements; odd lengths put every
  // sequence after the first at an address that is not 16-byte aligned (the scalar loads).
  check_random(3, 1, 601);
  check_random(7, 1000, 602);
  check_random(5, kChunk + 1, 603);
  check_cumulative_sum(4, 2 * kChunk + 3, 604);
}
