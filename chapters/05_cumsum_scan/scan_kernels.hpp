// Chapter 05's GPU versions of the inclusive scan, and the libraries they are measured
// against (the list is in scan_kernels.cu's header comment, checked against kKernels by a test).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace scan {

enum class Kernel : int {
  one_thread = 1,
  hillis_steele = 2,
  blelloch = 3,
  warp_shuffle = 4,
  cub_block_scan = 5,
  reduce_then_scan = 6,
  decoupled_look_back = 7,
  cub_device_scan = 8,
  thrust_scan = 9,
  thrust_scan_cached = 10,
};

inline constexpr std::size_t kUnlimited = SIZE_MAX;

struct KernelInfo {
  Kernel id;
  const char* name;
  const char* idea;
  // The largest N the program runs it at: one thread, or one block, takes too long beyond.
  std::size_t max_n;
  bool library;
};

inline constexpr KernelInfo kKernels[] = {
    {Kernel::one_thread, "scan_one_thread", "one thread walks the whole array: the sequential loop",
     std::size_t(1) << 17, false},
    {Kernel::hillis_steele, "scan_hillis_steele", "one block; Hillis-Steele in shared memory, double-buffered",
     std::size_t(1) << 24, false},
    {Kernel::blelloch, "scan_blelloch", "one block; Blelloch up-sweep and down-sweep, padded against bank conflicts",
     std::size_t(1) << 24, false},
    {Kernel::warp_shuffle, "scan_warp_shuffle", "one block; 8 items per thread in registers, warp scans by shuffle",
     std::size_t(1) << 24, false},
    {Kernel::cub_block_scan, "scan_cub_block", "one block; cub::BlockScan with a running-prefix callback",
     std::size_t(1) << 24, false},
    {Kernel::reduce_then_scan, "scan_reduce_then_scan",
     "all blocks; 3 passes: reduce tiles, scan tile sums, rescan tiles", kUnlimited, false},
    {Kernel::decoupled_look_back, "scan_decoupled_look_back",
     "all blocks; 1 pass, decoupled look-back over tile status words", kUnlimited, false},
    {Kernel::cub_device_scan, "cub_device_scan", "library: cub::DeviceScan::InclusiveSum, temp storage allocated once",
     kUnlimited, true},
    {Kernel::thrust_scan, "thrust_inclusive_scan", "library: thrust::inclusive_scan, default policy", kUnlimited, true},
    {Kernel::thrust_scan_cached, "thrust_inclusive_scan_cached", "library: thrust::inclusive_scan, caching allocator",
     kUnlimited, true},
};
inline constexpr int kKernelCount = static_cast<int>(sizeof kKernels / sizeof kKernels[0]);
const KernelInfo& info(Kernel kernel);

// Version 2's block: this many threads, one element each.
inline constexpr int kHillisSteeleThreads = 1024;

// The tile of the multi-block versions (6 and 7): 128 threads × 32 items, loaded as 8 float4
// per thread. Chosen by measurement (the chapter's "Tuning version 7" table): on an H200 at
// N = 2^28, 256 × 16 reached 85% of CUB's throughput, 128 × 24 90%, 128 × 32 97%.
inline constexpr int kTileThreads = 128;
inline constexpr int kTileItemsPerThread = 32;
inline constexpr std::size_t kTileSize = std::size_t(kTileThreads) * kTileItemsPerThread;
constexpr std::size_t tile_count(std::size_t n) { return (n + kTileSize - 1) / kTileSize; }

// Device scratch of the multi-block versions, sized for n elements.
struct DeviceScratch {
  float* tile_sums = nullptr;                 // tile_count(n) floats (version 6)
  float* tile_prefix = nullptr;               // tile_count(n) floats (version 6)
  unsigned long long* tile_status = nullptr;  // tile_count(n) + 1 words (version 7; word 0 counts tiles)
};

// Versions 1-7. in and out hold n floats (any alignment; 16-byte aligned pointers take the
// vector path). Enqueued on `stream`; every launch is checked.
void run_hand_written(Kernel kernel, const float* in, float* out, std::size_t n, const DeviceScratch& scratch,
                      cudaStream_t stream = nullptr);

}  // namespace scan
