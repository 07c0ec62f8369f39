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
  look_back_window = 5,
  cub_device_scan = 6,
  cub_device_scan_float2 = 7,
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
    {Kernel::cub_block, "ema_cub_block",
     "one block per sequence; cub::BlockScan with a pair functor and a running prefix", std::size_t(1) << 24, false},
    {Kernel::look_back, "ema_look_back", "all blocks; decoupled look-back over pairs, one pass", kUnlimited, false},
    {Kernel::look_back_window, "ema_look_back_window",
     "all blocks; a warp looks back over 32 tiles at once; (flag, a) and (flag, b) status words", kUnlimited, false},
    {Kernel::cub_device_scan, "cub_device_scan", "library: cub::DeviceScan::InclusiveScan with the pair operator",
     kUnlimited, true},
    {Kernel::cub_device_scan_float2, "cub_device_scan_float2",
     "library: cub::DeviceScan::InclusiveScan over a float2 array of (a, b) pairs", kUnlimited, true},
};
inline constexpr int kKernelCount = static_cast<int>(sizeof kKernels / sizeof kKernels[0]);
const KernelInfo& info(Kernel kernel);

// Version 2's block: this many threads, each with 4·kWarpPairsVectors pairs of a chunk.
inline constexpr int kWarpPairsThreads = 512;
inline constexpr int kWarpPairsVectors = 2;

// The tile of version 4: 128 threads × 16 pairs (chapter 05's first shape, half the items:
// every item is two floats here).
inline constexpr int kTileThreads = 128;
inline constexpr int kTileItemsPerThread = 16;
inline constexpr std::size_t kTileSize = std::size_t(kTileThreads) * kTileItemsPerThread;
constexpr std::size_t tiles_per_sequence(std::size_t length) { return (length + kTileSize - 1) / kTileSize; }

// The tile shapes version 5 is built for (`ch06_ema_scan --tile-sweep` times each one). Items
// per thread are a multiple of 4 (float4 loads); no shape is smaller than version 4's tile, so
// scratch sized for version 4's tile count serves every shape.
struct TileShape {
  int threads;
  int items_per_thread;
  constexpr std::size_t size() const { return std::size_t(threads) * items_per_thread; }
};
inline constexpr TileShape kWindowTileShapes[] = {{128, 16}, {128, 32}, {128, 48}, {128, 64},
                                                  {64, 64},  {256, 16}, {256, 32}, {512, 16}};
// Version 5's tile in the chapter's runs: the winner of the sweep on the GPU.
inline constexpr TileShape kWindowTile{128, 64};

constexpr bool is_window_shape(TileShape shape) {
  for (const auto& s : kWindowTileShapes)
    if (s.threads == shape.threads && s.items_per_thread == shape.items_per_thread) return true;
  return false;
}
static_assert(is_window_shape(kWindowTile), "kWindowTile must be one of kWindowTileShapes (those are compiled)");
constexpr std::size_t window_tiles_per_sequence(std::size_t length, TileShape shape) {
  return (length + shape.size() - 1) / shape.size();
}

// The multi-block versions' scratch for `tiles` tiles of version 4 (the smallest tile).
struct DeviceScratch {
  unsigned long long* tile_status = nullptr;    // version 4: tiles + 1 words (word 0 counts tiles)
  float2* tile_aggregate = nullptr;             // version 4: tiles pairs
  unsigned long long* window_status = nullptr;  // version 5: 2·tiles + 1 words (word 0 counts tiles)
};

// Versions 1-5 on `batch` sequences of `length`; a, b, h hold batch·length floats.
void run_hand_written(Kernel kernel, const float* a, const float* b, float* h, std::size_t batch, std::size_t length,
                      const DeviceScratch& scratch, cudaStream_t stream = nullptr);
// Version 5 with any tile shape of kWindowTileShapes (run_hand_written uses kWindowTile).
void run_look_back_window(TileShape shape, const float* a, const float* b, float* h, std::size_t batch,
                          std::size_t length, const DeviceScratch& scratch, cudaStream_t stream = nullptr);

// Versions 6 and 7: CUB's temp storage for one sequence of `length` (enough for either), and
// the calls (one per sequence). Version 7 reads ab[i] = (a[i], b[i]), zipped beforehand.
std::size_t cub_scan_temp_bytes(std::size_t length);
void cub_pair_scan(const float* a, const float* b, float* h, std::size_t batch, std::size_t length, void* temp,
                   std::size_t temp_bytes, cudaStream_t stream = nullptr);
void cub_float2_scan(const float2* ab, float* h, std::size_t batch, std::size_t length, void* temp,
                     std::size_t temp_bytes, cudaStream_t stream = nullptr);

}  // namespace ema
