// Chapter 06's GPU versions of h_k = a_k h_{k-1} + b_k over (batch, L), and the library
// baseline (the list is in ema_kernels.cu's header comment, checked against kKernels by a test).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace ema {

enum class Kernel : int {
  one_thread = 1,
  warp_pairs = 2,
  cub_block = 3,
  look_back = 4,
  cub_device_scan = 5,
};

inline constexpr std::size_t kUnlimited = SIZE_MAX;

struct KernelInfo {
  Kernel id;
  const char* name;
  const char* idea;
  // The longest sequence the program times it on: one thread, or one block, only takes time beyond.
  std::size_t max_length;
  bool library;
};

inline constexpr KernelInfo kKernels[] = {
    {Kernel::one_thread, "ema_one_thread", "one thread per sequence: the sequential loop", std::size_t(1) << 17, false},
    {Kernel::warp_pairs, "ema_warp_pairs", "one block per sequence; own warp scan of pairs, carry from chunk to chunk",
     std::size_t(1) << 24, false},
    {Kernel::cub_block, "ema_cub_block", "one block per sequence; cub::BlockScan with a pair functor and a running prefix",
     std::size_t(1) << 24, false},
    {Kernel::look_back, "ema_look_back", "all blocks; decoupled look-back over pairs, one pass", kUnlimited, false},
    {Kernel::cub_device_scan, "cub_device_scan", "library: cub::DeviceScan::InclusiveScan with the pair operator",
     kUnlimited, true},
};
inline constexpr int kKernelCount = static_cast<int>(sizeof kKernels / sizeof kKernels[0]);
const KernelInfo& info(Kernel kernel);

// The tile of version 4: 128 threads × 16 pairs (chapter 05's shape, half the items: every
// item is two floats here).
inline constexpr int kTileThreads = 128;
inline constexpr int kTileItemsPerThread = 16;
inline constexpr std::size_t kTileSize = std::size_t(kTileThreads) * kTileItemsPerThread;
constexpr std::size_t tiles_per_sequence(std::size_t length) { return (length + kTileSize - 1) / kTileSize; }

// Version 4's scratch for `tiles` tiles: a status word per tile plus the tile counter, and
// each tile's own pair (its aggregate).
struct DeviceScratch {
  unsigned long long* tile_status = nullptr;  // tiles + 1 words (word 0 counts tiles)
  float2* tile_aggregate = nullptr;           // tiles pairs
};

// Versions 1-4 on `batch` sequences of `length`; a, b, h hold batch·length floats.
void run_hand_written(Kernel kernel, const float* a, const float* b, float* h, std::size_t batch, std::size_t length,
                      const DeviceScratch& scratch, cudaStream_t stream = nullptr);

// Version 5: CUB's temp storage for one sequence of `length`, and the call (one per sequence).
std::size_t cub_scan_temp_bytes(std::size_t length);
void cub_pair_scan(const float* a, const float* b, float* h, std::size_t batch, std::size_t length, void* temp,
                   std::size_t temp_bytes, cudaStream_t stream = nullptr);

}  // namespace ema
