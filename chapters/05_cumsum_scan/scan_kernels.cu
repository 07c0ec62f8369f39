// Chapter 05: the inclusive scan y_k = x_0 + ... + x_k on the GPU.
//
// Versions (ch05_cumsum_scan --kernel N runs version N alone):
//   1  scan_one_thread               one thread walks the whole array: the sequential loop
//   2  scan_hillis_steele            one block; Hillis-Steele in shared memory, double-buffered
//   3  scan_blelloch                 one block; Blelloch up-sweep and down-sweep, padded against bank conflicts
//   4  scan_warp_shuffle             one block; 8 items per thread in registers, warp scans by shuffle
//   5  scan_cub_block                one block; cub::BlockScan with a running-prefix callback
//   6  scan_reduce_then_scan         all blocks; 3 passes: reduce tiles, scan tile sums, rescan tiles
//   7  scan_decoupled_look_back      all blocks; 1 pass, decoupled look-back over tile status words
//   8  cub_device_scan               library: cub::DeviceScan::InclusiveSum, temp storage allocated once
//   9  thrust_inclusive_scan         library: thrust::inclusive_scan, default policy
//   10 thrust_inclusive_scan_cached  library: thrust::inclusive_scan, caching allocator
//
// Versions 2-5 run in ONE block, which walks the array tile by tile and carries the running
// total from one tile to the next (the way Mamba's kernel walks a sequence chunk by chunk):
// correct for every N, but one multiprocessor does all the work. Versions 6 and 7 spread the
// tiles over every multiprocessor. The libraries live in scan_libraries.cu; the register tile,
// its scans and the look-back that versions 4, 6 and 7 share live in tile_scan.cuh, written for
// any associative operator (chapter 06 reuses them for pairs).
#include "cuda_check.hpp"
#include "hillis_steele_kernel.cuh"
#include "scan_kernels.hpp"
#include "tile_scan.cuh"

#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>

#include <stdexcept>
#include <string>

namespace scan {
namespace {

// ---- Version 1 ---------------------------------------------------------------------------------
// [snippet:one_thread]
__global__ void scan_one_thread(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  float running = 0;
  for (std::size_t k = 0; k < n; ++k) {
    running += in[k];
    out[k] = running;
  }
}
// [/snippet:one_thread]

// ---- Version 2 ---------------------------------------------------------------------------------
// scan_hillis_steele lives in hillis_steele_kernel.cu: it is exercise 4.

// ---- Version 3 ---------------------------------------------------------------------------------
// One spare word after every 32, so that the strided accesses of the tree spread over the
// 32 banks (see the chapter's bank-conflict table).
__host__ __device__ constexpr int padded(int i) { return i + (i >> 5); }

// [snippet:blelloch]
template <int Threads>
__global__ void __launch_bounds__(Threads)
    scan_blelloch(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  constexpr int kSize = 2 * Threads;  // two elements per thread
  __shared__ float tree[padded(kSize)];
  const int t = threadIdx.x;
  float carry = 0;
  for (std::size_t base = 0; base < n; base += kSize) {
    // Thread t owns elements t and t + Threads: neighbouring threads, neighbouring addresses.
    const float xa = base + t < n ? in[base + t] : 0.f;
    const float xb = base + t + Threads < n ? in[base + t + Threads] : 0.f;
    tree[padded(t)] = xa;
    tree[padded(t + Threads)] = xb;
    // Up-sweep: at stride d, pair t joins (d(2t+1) − 1, d(2t+2) − 1); half the threads idle each level.
    for (int stride = 1; stride < kSize; stride *= 2) {
      __syncthreads();
      if (stride * (2 * t + 2) <= kSize)
        tree[padded(stride * (2 * t + 2) - 1)] += tree[padded(stride * (2 * t + 1) - 1)];
    }
    __syncthreads();
    const float tile_total = tree[padded(kSize - 1)];
    __syncthreads();
    if (t == 0) tree[padded(kSize - 1)] = 0.f;  // the root becomes the identity
    // Down-sweep: each left child gets its parent's prefix, each right child that plus the left sum.
    for (int stride = kSize / 2; stride >= 1; stride /= 2) {
      __syncthreads();
      if (stride * (2 * t + 2) <= kSize) {
        const int left = padded(stride * (2 * t + 1) - 1), right = padded(stride * (2 * t + 2) - 1);
        const float left_sum = tree[left];
        tree[left] = tree[right];
        tree[right] += left_sum;
      }
    }
    __syncthreads();
    // The tree now holds the exclusive scan; adding each element's own value makes it inclusive.
    if (base + t < n) out[base + t] = carry + (tree[padded(t)] + xa);
    if (base + t + Threads < n) out[base + t + Threads] = carry + (tree[padded(t + Threads)] + xb);
    carry += tile_total;
    __syncthreads();
  }
}
// [/snippet:blelloch]

// ---- Version 4 ---------------------------------------------------------------------------------
// [snippet:warp_shuffle]
template <int Threads, int Vectors>
__global__ void __launch_bounds__(Threads)
    scan_warp_shuffle(const float* __restrict__ in, float* __restrict__ out, std::size_t n, bool vectorized) {
  using T = Tile<Threads, Vectors>;
  __shared__ float warp_totals[T::kWarps];
  float carry = 0;
  for (std::size_t base = 0; base < n; base += T::kSize) {
    const int valid = static_cast<int>(min(std::size_t(T::kSize), n - base));
    float v[Vectors][4];
    load_tile<Threads, Vectors>(in + base, valid, vectorized, v, Sum::identity());
    const TileScan<float> s = scan_tile<Sum, Threads, Vectors>(v, warp_totals);
    store_tile<Threads, Vectors>(out + base, valid, vectorized, v, AddPrefix{carry + s.warp_prefix});
    carry += s.total;
    __syncthreads();  // warp_totals is read by everyone before the next tile writes it
  }
}
// [/snippet:warp_shuffle]

// ---- Version 5 ---------------------------------------------------------------------------------
// [snippet:cub_block]
// BlockScan calls this (in its first warp) with each tile's total, and adds what it returns
// to the whole tile: a running total carried from tile to tile.
struct RunningTotal {
  float total;
  __device__ float operator()(float tile_total) {
    const float before = total;
    total += tile_total;
    return before;
  }
};

template <int Threads, int Items>
__global__ void __launch_bounds__(Threads)
    scan_cub_block(const float* __restrict__ in, float* __restrict__ out, std::size_t n) {
  // Load and store through shared memory: coalesced in global memory, and each thread ends
  // up with Items consecutive elements ("blocked" arrangement) for the scan.
  using Load = cub::BlockLoad<float, Threads, Items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<float, Threads, Items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<float, Threads, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
  } temp;
  RunningTotal running{0.f};
  for (std::size_t base = 0; base < n; base += Threads * Items) {
    const int valid = static_cast<int>(min(std::size_t(Threads * Items), n - base));
    float items[Items];
    Load(temp.load).Load(in + base, items, valid, 0.f);
    __syncthreads();  // the union's storage changes hands
    Scan(temp.scan).InclusiveSum(items, items, running);
    __syncthreads();
    Store(temp.store).Store(out + base, items, valid);
    __syncthreads();
  }
}
// [/snippet:cub_block]

// ---- Version 6 ---------------------------------------------------------------------------------
// [snippet:reduce_then_scan]
// Pass 1: the sum of each tile.
template <int Threads, int Vectors>
__global__ void __launch_bounds__(Threads)
    reduce_tiles(const float* __restrict__ in, std::size_t n, bool vectorized, float* __restrict__ tile_sums) {
  using T = Tile<Threads, Vectors>;
  __shared__ float warp_totals[T::kWarps];
  const std::size_t base = std::size_t(blockIdx.x) * T::kSize;
  const int valid = static_cast<int>(min(std::size_t(T::kSize), n - base));
  float v[Vectors][4];
  load_tile<Threads, Vectors>(in + base, valid, vectorized, v, Sum::identity());
  float sum = 0;
#pragma unroll
  for (int k = 0; k < Vectors; ++k) sum += (v[k][0] + v[k][1]) + (v[k][2] + v[k][3]);
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(kFullMask, sum, offset);
  if (threadIdx.x % 32 == 0) warp_totals[threadIdx.x / 32] = sum;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0;
    for (int w = 0; w < T::kWarps; ++w) total += warp_totals[w];
    tile_sums[blockIdx.x] = total;
  }
}

// Pass 2: one block turns the tile sums into inclusive prefixes (version 4's loop).
// Pass 3: every tile is read again and scanned, starting from the prefix of the tiles before it.
template <int Threads, int Vectors>
__global__ void __launch_bounds__(Threads)
    scan_tiles_from_prefix(const float* __restrict__ in, float* __restrict__ out, std::size_t n, bool vectorized,
                           const float* __restrict__ tile_prefix) {
  using T = Tile<Threads, Vectors>;
  __shared__ float warp_totals[T::kWarps];
  const std::size_t base = std::size_t(blockIdx.x) * T::kSize;
  const int valid = static_cast<int>(min(std::size_t(T::kSize), n - base));
  float v[Vectors][4];
  load_tile<Threads, Vectors>(in + base, valid, vectorized, v, Sum::identity());
  const TileScan<float> s = scan_tile<Sum, Threads, Vectors>(v, warp_totals);
  const float before = blockIdx.x == 0 ? 0.f : tile_prefix[blockIdx.x - 1];
  store_tile<Threads, Vectors>(out + base, valid, vectorized, v, AddPrefix{before + s.warp_prefix});
}
// [/snippet:reduce_then_scan]

// ---- Version 7 ---------------------------------------------------------------------------------
// [snippet:decoupled_look_back]
template <int Threads, int Vectors>
__global__ void __launch_bounds__(Threads)
    scan_decoupled_look_back(const float* __restrict__ in, float* __restrict__ out, std::size_t n, bool vectorized,
                             unsigned long long* tile_counter, unsigned long long* tile_status) {
  using T = Tile<Threads, Vectors>;
  __shared__ float warp_totals[T::kWarps];
  __shared__ float prefix_shared;
  const unsigned long long tile = claim_tile(tile_counter);  // in the order blocks start
  const std::size_t base = std::size_t(tile) * T::kSize;
  const int valid = static_cast<int>(min(std::size_t(T::kSize), n - base));

  float v[Vectors][4];
  load_tile<Threads, Vectors>(in + base, valid, vectorized, v, Sum::identity());
  const TileScan<float> s = scan_tile<Sum, Threads, Vectors>(v, warp_totals);
  if (threadIdx.x < 32) {
    const float before = look_back<Sum>(FloatStatus{tile_status}, tile, 0, s.total, threadIdx.x);
    if (threadIdx.x == 0) prefix_shared = before;
  }
  __syncthreads();
  store_tile<Threads, Vectors>(out + base, valid, vectorized, v, AddPrefix{prefix_shared + s.warp_prefix});
}
// [/snippet:decoupled_look_back]

// ---- Launching --------------------------------------------------------------------------------
unsigned grid_size(std::size_t blocks) {
  if (blocks > 0x7fffffffu) throw std::invalid_argument("scan: too many tiles for one grid");
  return static_cast<unsigned>(blocks);
}

}  // namespace

const KernelInfo& info(Kernel kernel) {
  for (const auto& k : kKernels)
    if (k.id == kernel) return k;
  throw std::invalid_argument("scan: no kernel version " + std::to_string(static_cast<int>(kernel)));
}

void run_hand_written(Kernel kernel, const float* in, float* out, std::size_t n, const DeviceScratch& scratch,
                      cudaStream_t stream) {
  if (n == 0) return;
  const bool vectorized = aligned16(in) && aligned16(out);
  constexpr int kVectors = kTileItemsPerThread / 4;
  static_assert(kTileItemsPerThread % 4 == 0, "the tile is loaded in float4");
  switch (kernel) {
    case Kernel::one_thread: scan_one_thread<<<1, 1, 0, stream>>>(in, out, n); break;
    case Kernel::hillis_steele: scan_hillis_steele<<<1, kHillisSteeleThreads, 0, stream>>>(in, out, n); break;
    case Kernel::blelloch: scan_blelloch<512><<<1, 512, 0, stream>>>(in, out, n); break;
    case Kernel::warp_shuffle: scan_warp_shuffle<1024, 2><<<1, 1024, 0, stream>>>(in, out, n, vectorized); break;
    case Kernel::cub_block_scan: scan_cub_block<1024, 8><<<1, 1024, 0, stream>>>(in, out, n); break;
    case Kernel::reduce_then_scan: {
      // [snippet:reduce_then_scan_launch]
      const unsigned tiles = grid_size(tile_count(n));
      reduce_tiles<kTileThreads, kVectors><<<tiles, kTileThreads, 0, stream>>>(in, n, vectorized, scratch.tile_sums);
      CUDA_CHECK_LAUNCH();
      scan_warp_shuffle<1024, 1>
          <<<1, 1024, 0, stream>>>(scratch.tile_sums, scratch.tile_prefix, tiles,
                                   aligned16(scratch.tile_sums) && aligned16(scratch.tile_prefix));
      CUDA_CHECK_LAUNCH();
      scan_tiles_from_prefix<kTileThreads, kVectors>
          <<<tiles, kTileThreads, 0, stream>>>(in, out, n, vectorized, scratch.tile_prefix);
      // [/snippet:reduce_then_scan_launch]
      break;
    }
    case Kernel::decoupled_look_back: {
      const std::size_t tiles = tile_count(n);
      // Word 0 is the tile counter, words 1.. the statuses: one memset clears both.
      CUDA_CHECK(cudaMemsetAsync(scratch.tile_status, 0, (tiles + 1) * sizeof(unsigned long long), stream));
      scan_decoupled_look_back<kTileThreads, kVectors><<<grid_size(tiles), kTileThreads, 0, stream>>>(
          in, out, n, vectorized, scratch.tile_status, scratch.tile_status + 1);
      break;
    }
    default: throw std::invalid_argument(std::string("run_hand_written: ") + info(kernel).name + " is a library");
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace scan
