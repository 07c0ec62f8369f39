// Every GPU version of chapter 05 (and the libraries) against the fp64 reference, exactly, on
// awkward sizes, with the output poisoned (NaN) before each run so that an element left
// unwritten fails.
#include "ch05_test_support.hpp"
#include "device_buffer.hpp"
#include "gpu_scan.hpp"
#include "gpu_test.hpp"
#include "reference.hpp"

#include <algorithm>

namespace {

// 1 and 2; one off a warp (31, 33); one off the one-block tiles (1023, 1025, 2047, 2049) and the
// multi-block tile (4095, 4097, 8193); primes; many tiles with a ragged end (2^20 + 7).
const std::size_t kSizes[] = {1,    2,    3,    31,   32,   33,   127,  1000,  1023,         1024,
                              1025, 2047, 2049, 4095, 4096, 4097, 8193, 65537, (1 << 20) + 7};

}  // namespace

TEST_CASE("every version is exact on awkward sizes", "[gpu]") {
  REQUIRE_GPU();
  for (std::size_t n : kSizes) {
    const auto x = scan::integer_input(n, 31 + n);
    const auto expected = scan::inclusive_scan_reference(x);
    scan::GpuScan gpu(x);
    for (const auto& info : scan::kKernels) {
      // The single thread is slow; under compute-sanitizer it would take minutes.
      if (info.id == scan::Kernel::one_thread && n > 70000) continue;
      gpu.poison_output();
      gpu.run(info.id);
      CHECK_CLOSE(info.name << ", N = " << n, common::compare(gpu.output(), expected, kExact));
    }
  }
}

TEST_CASE("versions run twice in a row on the same buffers give the same exact result", "[gpu]") {
  REQUIRE_GPU();
  // Version 7's tile counter and statuses must be reset by every run, version 10's cached
  // scratch reused.
  const auto x = scan::integer_input(3 * 4096 * 37 + 5, 41);
  const auto expected = scan::inclusive_scan_reference(x);
  scan::GpuScan gpu(x);
  for (scan::Kernel k : {scan::Kernel::reduce_then_scan, scan::Kernel::decoupled_look_back,
                         scan::Kernel::cub_device_scan, scan::Kernel::thrust_scan_cached}) {
    for (int run = 0; run < 3; ++run) {
      gpu.poison_output();
      gpu.run(k);
      CHECK_CLOSE(scan::info(k).name << ", run " << run, common::compare(gpu.output(), expected, kExact));
    }
  }
}

TEST_CASE("the vectorized versions are exact at addresses that are not 16-byte aligned", "[gpu]") {
  REQUIRE_GPU();
  const std::size_t n = 3 * 4096 + 17;
  const auto x = scan::integer_input(n, 43);
  const auto expected = scan::inclusive_scan_reference(x);
  // One float past an aligned start: the vector loads must not be taken.
  std::vector<float> shifted(n + 1, 0.f);
  std::copy(x.begin(), x.end(), shifted.begin() + 1);
  common::DeviceBuffer<float> in{std::span<const float>(shifted)}, out(n + 1);
  scan::ScanWorkspace workspace(n);
  for (const auto& info : scan::kKernels) {
    if (info.id == scan::Kernel::one_thread) continue;
    out.poison();
    workspace.run(info.id, in.data() + 1, out.data() + 1, n);
    const auto all = out.download();
    const std::vector<float> got(all.begin() + 1, all.end());
    CHECK_CLOSE(info.name << ", N = " << n << " at an offset of 4 bytes", common::compare(got, expected, kExact));
  }
}

TEST_CASE("version 7 is exact over many tiles with real inputs, within the rounding of its order", "[gpu]") {
  REQUIRE_GPU();
  // Uniform inputs in [0, 1): every partial sum is positive, so a result formed through a
  // tree of additions of depth d is within (1 + u)^d − 1 ≈ d·u of exact, relatively, with
  // u = 2^-24. Inside a tile an element passes through fewer than 64 additions (3 in its
  // run, 5 + 1 warp levels, 3 rows, 7 warps, 2 when stored); each tile on the look-back
  // chain adds at most 8 (a 5-level warp sum, the window carry, the publish).
  const std::size_t n = (1 << 22) + 3;
  const auto x = scan::uniform_input(n, 47);
  const auto expected = scan::inclusive_scan_reference(x);
  scan::GpuScan gpu(x);
  gpu.poison_output();
  gpu.run(scan::Kernel::decoupled_look_back);
  const double depth = 64 + 8 * double(scan::tile_count(n));
  CHECK_CLOSE("version 7 on uniform inputs, N = " << n,
              common::compare(gpu.output(), expected, {0.0, depth * 0x1p-24}));
}

TEST_CASE("a problem too large for the GPU is refused with a clear message", "[gpu]") {
  REQUIRE_GPU();
  std::vector<float> tiny(1);
  const std::span<const float> huge(tiny.data(), std::size_t(1) << 40);  // never read: refused first
  CHECK_THROWS_WITH(scan::GpuScan(huge), Catch::Contains("the scan's N needs"));
}
