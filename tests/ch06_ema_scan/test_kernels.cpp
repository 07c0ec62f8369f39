// Every GPU version of chapter 06 against the fp64 reference on awkward sizes and batches, with
// h poisoned (NaN) before each run so that an element left unwritten fails.
#include "ch06_test_support.hpp"
#include "gpu_ema.hpp"
#include "gpu_test.hpp"
#include "reference.hpp"

#include <stdexcept>
#include <utility>
#include <vector>

namespace {

// 1 and 2; one off a warp (31, 33); one off the tiles of version 4 (2047, 2049), of versions
// 2 and 3 and of version 5's 128 × 32 (4095, 4097) and of its 512 × 16 and 256 × 32 (8191,
// 8193); a prime; more than 32 tiles of every shape of version 5, so that its look-back can
// need a second window (300007); many tiles with a ragged end (2^20 + 7).
const std::size_t kLengths[] = {1,    2,    3,    31,   33,   1000,  2047,   2048,
                                2049, 4095, 4097, 8191, 8193, 65537, 300007, (1 << 20) + 7};

void check_every_version(const ema::Problem& p) {
  const auto expected = ema::recurrence_reference(p);
  ema::GpuEma gpu(p);
  for (const auto& info : ema::kKernels) {
    // The single thread is slow; under compute-sanitizer it would take minutes.
    if (info.id == ema::Kernel::one_thread && p.length > 70000) continue;
    for (int run = 0; run < 2; ++run) {  // twice: the counters and statuses of versions 4, 5 must reset
      gpu.poison_output();
      gpu.run(info.id);
      CHECK_CLOSE(info.name << ", batch " << p.batch << " × L = " << p.length << ", run " << run,
                  common::compare(gpu.output(), expected, kFp32));
    }
  }
}

}  // namespace

TEST_CASE("every version matches fp64 on awkward lengths", "[gpu]") {
  REQUIRE_GPU();
  for (std::size_t n : kLengths) check_every_version(ema::random_problem(1, n, kDecayLo, kDecayHi, 60 + n));
}

TEST_CASE("every version matches fp64 on batches of sequences", "[gpu]") {
  REQUIRE_GPU();
  // Odd lengths put every sequence after the first at an address that is not 16-byte aligned.
  for (auto [batch, length] : {std::pair<std::size_t, std::size_t>{3, 1}, {2, 33}, {7, 1000}, {5, 4097}, {3, 20001}})
    check_every_version(ema::random_problem(batch, length, kDecayLo, kDecayHi, batch * 1000 + length));
}

TEST_CASE("version 5 matches fp64 with every tile shape of the sweep", "[gpu]") {
  REQUIRE_GPU();
  for (const auto& shape : ema::kWindowTileShapes) {
    const std::size_t tile = shape.size();
    // One off the tile, the tile exactly, 33 and 100 tiles and a bit (a look-back window of 32
    // slides at least once), and a batch of unaligned sequences of a few tiles each.
    std::vector<std::pair<std::size_t, std::size_t>> shapes{{1, tile - 1},      {1, tile},           {1, tile + 1},
                                                            {1, 33 * tile + 5}, {1, 100 * tile + 3}, {5, 3 * tile + 1}};
    for (auto [batch, length] : shapes) {
      const auto p = ema::random_problem(batch, length, kDecayLo, kDecayHi, tile + batch * 1000 + length);
      const auto expected = ema::recurrence_reference(p);
      ema::GpuEma gpu(p);
      for (int run = 0; run < 2; ++run) {
        gpu.poison_output();
        gpu.run_window(shape);
        CHECK_CLOSE("tile " << shape.threads << " × " << shape.items_per_thread << ", batch " << batch
                            << " × L = " << length << ", run " << run,
                    common::compare(gpu.output(), expected, kFp32));
      }
    }
  }
}

TEST_CASE("version 5 refuses a tile shape it was not built for", "[gpu]") {
  REQUIRE_GPU();
  ema::GpuEma gpu(ema::random_problem(1, 100, kDecayLo, kDecayHi, 1));
  CHECK_THROWS_AS(gpu.run_window({64, 8}), std::invalid_argument);
}

TEST_CASE("a = 1 makes the recurrence a cumulative sum: exact on whole numbers", "[gpu]") {
  REQUIRE_GPU();
  // Every partial sum of whole numbers in {-3..3} is exact in fp32, whatever the order, so a
  // misplaced carry cannot hide inside a tolerance here.
  auto p = ema::random_problem(1, (1 << 20) + 7, 1.0, 1.0, 5);
  for (std::size_t k = 0; k < p.size(); ++k) p.b[k] = static_cast<float>(int(k * 2654435761u % 7) - 3);
  const auto expected = ema::recurrence_reference(p);
  ema::GpuEma gpu(p);
  for (const auto& info : ema::kKernels) {
    if (info.id == ema::Kernel::one_thread) continue;
    gpu.poison_output();
    gpu.run(info.id);
    CHECK_CLOSE(info.name, common::compare(gpu.output(), expected, {0, 0}));
  }
}
