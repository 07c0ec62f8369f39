// Chapter 06: the first-order recurrence h_k = a_k h_{k-1} + b_k (the EMA and Mamba's scan) on
// the GPU, over a batch of independent sequences.
//
// Versions (ch06_ema_scan --kernel N runs version N alone):
//   1  ema_one_thread    one thread per sequence: the sequential loop
//   2  ema_warp_pairs    one block per sequence; own warp scan of pairs, carry from chunk to chunk
//   3  ema_cub_block     one block per sequence; cub::BlockScan with a pair functor and a running prefix
//   4  ema_look_back     all blocks; decoupled look-back over pairs, one pass
//   5  ema_look_back_window  all blocks; a warp looks back over 32 tiles at once; (flag, a) and (flag, b) status words
//   6  cub_device_scan   library: cub::DeviceScan::InclusiveScan with the pair operator
//   7  cub_device_scan_float2  library: cub::DeviceScan::InclusiveScan over a float2 array of (a, b) pairs
//
// Versions 2 and 3 are Mamba's layout: a block owns a sequence and walks it chunk by chunk,
// carrying the state h from one chunk to the next; many sequences fill the GPU. One long
// sequence needs versions 4 and 5, which spread its tiles over every multiprocessor.
//
// This chapter builds on chapter 05's library: its register tile, tile scan, status words and
// look-back (tile_scan.cuh) are written for any associative operator, and run here with the
// pair operator. What is new is what a pair changes: the operator, the loads of two arrays,
// the output h = A·h_before + B, and a status that has to hold two floats.
#include "cuda_check.hpp"
#include "ema_kernels.hpp"
#include "pair.hpp"
#include "pair_tile.cuh"
#include "tile_scan.cuh"
#include "warp_pairs_kernel.cuh"

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/iterator/transform_output_iterator.h>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <stdexcept>
#include <string>

namespace ema {
namespace {

using scan::kAggregate;
using scan::kFullMask;
using scan::kNotReady;
using scan::kPrefix;
using scan::pack_status;
using scan::StatusRef;
using scan::Tile;
using scan::TileScan;

// ---- Version 1 ---------------------------------------------------------------------------------
// [snippet:one_thread]
__global__ void ema_one_thread(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ h,
                               std::size_t length) {
  const std::size_t start = std::size_t(blockIdx.x) * length;
  float state = 0;
  for (std::size_t k = start; k < start + length; ++k) h[k] = state = a[k] * state + b[k];
}
// [/snippet:one_thread]

// ---- Version 2 ---------------------------------------------------------------------------------
// ema_warp_pairs lives in warp_pairs_kernel.cu: it is exercise 3. The pair operator and the
// pair tile's loads and stores that it shares with versions 4 and 5 are in pair_tile.cuh.

// ---- Version 3 ---------------------------------------------------------------------------------
// [snippet:cub_block]
struct PairOp {
  __device__ PairF operator()(const PairF& first, const PairF& second) const { return combine(first, second); }
};

// BlockScan calls this (in its first warp) with each chunk's composition and composes what
// it returns in front of every element of the chunk.
struct RunningPrefix {
  PairF total;
  __device__ PairF operator()(PairF chunk_total) {
    const PairF before = total;
    total = combine(total, chunk_total);
    return before;
  }
};

template <int Threads, int Items>
__global__ void __launch_bounds__(Threads)
    ema_cub_block(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ h, std::size_t length) {
  using Load = cub::BlockLoad<float, Threads, Items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using Store = cub::BlockStore<float, Threads, Items, cub::BLOCK_STORE_WARP_TRANSPOSE>;
  using Scan = cub::BlockScan<PairF, Threads, cub::BLOCK_SCAN_WARP_SCANS>;
  __shared__ union {
    typename Load::TempStorage load;
    typename Scan::TempStorage scan;
    typename Store::TempStorage store;
  } temp;
  const std::size_t start = std::size_t(blockIdx.x) * length;
  RunningPrefix running{identity<float>()};
  for (std::size_t base = 0; base < length; base += Threads * Items) {
    const int valid = static_cast<int>(min(std::size_t(Threads * Items), length - base));
    float ai[Items], bi[Items];
    Load(temp.load).Load(a + start + base, ai, valid, 1.f);  // past the end: the identity (1, 0)
    __syncthreads();
    Load(temp.load).Load(b + start + base, bi, valid, 0.f);
    __syncthreads();
    PairF items[Items];
#pragma unroll
    for (int i = 0; i < Items; ++i) items[i] = {ai[i], bi[i]};
    Scan(temp.scan).InclusiveScan(items, items, PairOp{}, running);
    __syncthreads();
#pragma unroll
    for (int i = 0; i < Items; ++i) bi[i] = items[i].b;  // h_k = A_k·0 + B_k
    Store(temp.store).Store(h + start + base, bi, valid);
    __syncthreads();
  }
}
// [/snippet:cub_block]

// ---- Version 4 ---------------------------------------------------------------------------------
// A tile's status word (chapter 05's): the flag in the high half; for a prefix, the state h at
// the tile's end in the low half (one float, so flag and value travel in one 64-bit word). An
// aggregate is a pair, two floats: it goes into tile_aggregate first, and the flag is stored
// with release order after it; a reader that sees the flag with an acquire load then sees the
// pair.

// [snippet:look_back]
// Run by one thread of the tile after the tile's composition is known; returns the state h
// before the tile and publishes the state at its end. `first_tile` is the first tile of this
// tile's sequence: it starts from h = 0 and publishes its prefix at once.
__device__ float look_back(unsigned long long* status, float2* aggregate, std::size_t tile, std::size_t first_tile,
                           PairF total) {
  if (tile == first_tile) {
    StatusRef(status[tile]).store(pack_status(kPrefix, total.b), cuda::std::memory_order_release);
    return 0.f;
  }
  aggregate[tile] = make_float2(total.a, total.b);
  StatusRef(status[tile]).store(pack_status(kAggregate, 0.f), cuda::std::memory_order_release);
  // later: the composition of the tiles between p and this one, built right to left.
  PairF later = identity<float>();
  float h_before = 0.f;
  for (std::size_t p = tile - 1;; --p) {
    unsigned long long word;
    do {
      word = StatusRef(status[p]).load(cuda::std::memory_order_acquire);
    } while ((word >> 32) == kNotReady);
    if ((word >> 32) == kPrefix) {
      h_before = apply(later, __uint_as_float(static_cast<unsigned>(word)));
      break;
    }
    // An aggregate: compose it in front and look one tile further back. The sequence's
    // first tile always publishes a prefix at once, so the walk never leaves the sequence.
    const float2 q = aggregate[p];
    later = combine(PairF{q.x, q.y}, later);
  }
  StatusRef(status[tile]).store(pack_status(kPrefix, apply(total, h_before)), cuda::std::memory_order_release);
  return h_before;
}
// [/snippet:look_back]

// The tile a block works on, claimed in the order blocks start (chapter 05 says why: no
// deadlock), and where it lies: tiles are numbered sequence by sequence.
struct ClaimedTile {
  std::size_t tile, first_of_sequence;  // this tile and its sequence's first tile
  std::size_t offset;                   // its first element
  int valid;                            // its elements inside the sequence
};
template <int kTileSize>
__device__ ClaimedTile claim_tile(unsigned long long* tile_counter, std::size_t length, std::size_t tiles_per_seq) {
  const std::size_t tile = scan::claim_tile(tile_counter);
  const std::size_t sequence = tile / tiles_per_seq;
  const std::size_t base = (tile % tiles_per_seq) * kTileSize;
  return {tile, sequence * tiles_per_seq, sequence * length + base,
          static_cast<int>(min(std::size_t(kTileSize), length - base))};
}

template <int Threads, int Vectors>
__global__ void __launch_bounds__(Threads)
    ema_look_back(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ h, std::size_t length,
                  std::size_t tiles_per_seq, unsigned long long* tile_counter, unsigned long long* tile_status,
                  float2* tile_aggregate) {
  using T = Tile<Threads, Vectors>;
  __shared__ PairF warp_totals[T::kWarps];
  __shared__ float h_before_shared;
  const ClaimedTile t = claim_tile<T::kSize>(tile_counter, length, tiles_per_seq);

  PairF v[Vectors][4];
  load_pairs<Threads, Vectors>(a + t.offset, b + t.offset, t.valid, v);
  const TileScan<PairF> s = scan::scan_tile<ComposeMaps, Threads, Vectors>(v, warp_totals);
  if (threadIdx.x == 0) h_before_shared = look_back(tile_status, tile_aggregate, t.tile, t.first_of_sequence, s.total);
  __syncthreads();
  store_states<Threads, Vectors>(h + t.offset, t.valid, v, apply(s.warp_prefix, h_before_shared));
}

// ---- Version 5 ---------------------------------------------------------------------------------
// Chapter 05's version 7 for pairs: the whole first warp looks back over 32 predecessors at
// once (chapter 05's look_back, with the pair operator), and every status travels beside its
// flag in one 64-bit word, with no separate array and no fence. An aggregate is two floats, so
// a tile has two words:
//   word 2t     = (flag, a)   written once:           (kAggregate, total.a)
//   word 2t + 1 = (flag, b)   written at most twice:  (kAggregate, total.b), then (kPrefix, h at the end)
// A prefix needs one float (every sequence starts from h = 0), so it goes into the b word alone.
// Relaxed order is enough, as in chapter 05: every value is inside the word that carries its
// flag, so there is no other write whose visibility a release/acquire pair would have to order.

// [snippet:pair_status]
// What a look-back lane reads for tile p, as a map: an aggregate is the tile's own pair; a
// prefix h is the map (0, h), which forgets the state before it and yields h. Tiles before the
// sequence's first read as the prefix 0: the state before a sequence.
struct PairStatus {
  unsigned long long* words;
  __device__ void publish_aggregate(long long tile, PairF total) const {
    scan::publish(&words[2 * tile], kAggregate, total.a);
    scan::publish(&words[2 * tile + 1], kAggregate, total.b);
  }
  // A prefix acts on the state 0 before the sequence: only what it yields, h = inclusive.b, is kept.
  __device__ void publish_prefix(long long tile, PairF inclusive) const {
    scan::publish(&words[2 * tile + 1], kPrefix, inclusive.b);
  }
  __device__ scan::StatusEntry<PairF> read(long long p, long long first_tile) const {
    if (p < first_tile) return {{0.f, 0.f}, true, true};
    const unsigned long long word_a = StatusRef(words[2 * p]).load(cuda::std::memory_order_relaxed);
    const unsigned long long word_b = StatusRef(words[2 * p + 1]).load(cuda::std::memory_order_relaxed);
    if (scan::status_flag(word_b) == kPrefix) return {{0.f, scan::status_value(word_b)}, true, true};
    // Both words say "aggregate": each holds the only value ever stored with that flag, so
    // the two halves are the same tile's pair. Any other mix is a tile caught mid-publication.
    if (scan::status_flag(word_b) == kAggregate && scan::status_flag(word_a) == kAggregate)
      return {{scan::status_value(word_a), scan::status_value(word_b)}, true, false};
    return {identity<float>(), false, false};
  }
};
// [/snippet:pair_status]

// [snippet:look_back_window]
template <int Threads, int Vectors>
__global__ void __launch_bounds__(Threads)
    ema_look_back_window(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ h,
                         std::size_t length, std::size_t tiles_per_seq, unsigned long long* tile_counter,
                         unsigned long long* tile_status) {
  using T = Tile<Threads, Vectors>;
  __shared__ PairF warp_totals[T::kWarps];
  __shared__ float h_before_shared;
  const ClaimedTile t = claim_tile<T::kSize>(tile_counter, length, tiles_per_seq);

  PairF v[Vectors][4];
  load_pairs<Threads, Vectors>(a + t.offset, b + t.offset, t.valid, v);
  const TileScan<PairF> s = scan::scan_tile<ComposeMaps, Threads, Vectors>(v, warp_totals);
  if (threadIdx.x < 32) {
    // The composition of the sequence's earlier tiles: (0, h before this tile), or the identity
    // (1, 0) for its first tile. Either way, its b is the state before the tile.
    const long long tile = t.tile, first = t.first_of_sequence;
    const PairF before = scan::look_back<ComposeMaps>(PairStatus{tile_status}, tile, first, s.total, threadIdx.x);
    if (threadIdx.x == 0) h_before_shared = before.b;
  }
  __syncthreads();
  store_states<Threads, Vectors>(h + t.offset, t.valid, v, apply(s.warp_prefix, h_before_shared));
}
// [/snippet:look_back_window]

// ---- Version 6 ---------------------------------------------------------------------------------
// [snippet:cub_device_scan]
// CUB scans a sequence of pairs; ours live in two arrays, so the input is an iterator that
// makes pair i from a[i] and b[i], and the output one that keeps only h = B_i.
struct MakePair {
  const float* a;
  const float* b;
  __host__ __device__ PairF operator()(long long i) const { return {a[i], b[i]}; }
};
struct TakeState {
  __host__ __device__ float operator()(const PairF& p) const { return p.b; }
};

template <class Count>
cudaError_t cub_scan_one(void* temp, std::size_t& temp_bytes, const float* a, const float* b, float* h, Count count,
                         cudaStream_t stream) {
  auto in = thrust::make_transform_iterator(thrust::make_counting_iterator<long long>(0), MakePair{a, b});
  auto out = thrust::make_transform_output_iterator(h, TakeState{});
  return cub::DeviceScan::InclusiveScan(temp, temp_bytes, in, out, PairOp{}, count, stream);
}
// [/snippet:cub_device_scan]

// ---- Version 7 ---------------------------------------------------------------------------------
// [snippet:cub_device_scan_float2]
// The same scan over a plain array of (a, b) pairs, zipped once before timing: CUB loads its
// input directly, with no iterator between it and memory.
struct Float2PairOp {
  __device__ float2 operator()(const float2& first, const float2& second) const {
    const PairF c = combine(PairF{first.x, first.y}, PairF{second.x, second.y});
    return make_float2(c.a, c.b);
  }
};
struct TakeFloat2State {
  __host__ __device__ float operator()(const float2& p) const { return p.y; }
};

template <class Count>
cudaError_t cub_scan_float2_one(void* temp, std::size_t& temp_bytes, const float2* ab, float* h, Count count,
                                cudaStream_t stream) {
  auto out = thrust::make_transform_output_iterator(h, TakeFloat2State{});
  return cub::DeviceScan::InclusiveScan(temp, temp_bytes, ab, out, Float2PairOp{}, count, stream);
}
// [/snippet:cub_device_scan_float2]

unsigned grid_size(std::size_t blocks) {
  if (blocks > 0x7fffffffu) throw std::invalid_argument("ema: too many blocks for one grid");
  return static_cast<unsigned>(blocks);
}

// ---- Launching version 5 with one tile shape -----------------------------------------------------
template <int Threads, int Items>
void launch_look_back_window(const float* a, const float* b, float* h, std::size_t batch, std::size_t length,
                             unsigned long long* window_status, cudaStream_t stream) {
  static_assert(Items % 4 == 0, "the tile is loaded in float4");
  static_assert(std::size_t(Threads) * Items >= kTileSize, "the scratch is sized for version 4's tile count");
  const std::size_t per_seq = window_tiles_per_sequence(length, TileShape{Threads, Items});
  const std::size_t tiles = per_seq * batch;
  // Word 0 is the tile counter, words 1.. the two status words of every tile: one memset.
  CUDA_CHECK(cudaMemsetAsync(window_status, 0, (2 * tiles + 1) * sizeof(unsigned long long), stream));
  ema_look_back_window<Threads, Items / 4>
      <<<grid_size(tiles), Threads, 0, stream>>>(a, b, h, length, per_seq, window_status, window_status + 1);
}

}  // namespace

const KernelInfo& info(Kernel kernel) {
  for (const auto& k : kKernels)
    if (k.id == kernel) return k;
  throw std::invalid_argument("ema: no kernel version " + std::to_string(static_cast<int>(kernel)));
}

std::size_t cub_scan_temp_bytes(std::size_t length) {
  if (length > static_cast<std::size_t>(INT_MAX)) throw std::invalid_argument("cub_scan_temp_bytes: length too large");
  std::size_t pairs = 0, float2s = 0;
  CUDA_CHECK(cub_scan_one(nullptr, pairs, nullptr, nullptr, nullptr, static_cast<int>(length), nullptr));
  CUDA_CHECK(cub_scan_float2_one(nullptr, float2s, nullptr, nullptr, static_cast<int>(length), nullptr));
  return std::max(pairs, float2s);
}

void cub_pair_scan(const float* a, const float* b, float* h, std::size_t batch, std::size_t length, void* temp,
                   std::size_t temp_bytes, cudaStream_t stream) {
  if (length > static_cast<std::size_t>(INT_MAX)) throw std::invalid_argument("cub_pair_scan: length too large");
  for (std::size_t s = 0; s < batch; ++s) {  // one call per sequence: CUB scans one array
    const std::size_t start = s * length;
    CUDA_CHECK(cub_scan_one(temp, temp_bytes, a + start, b + start, h + start, static_cast<int>(length), stream));
    CUDA_CHECK_LAUNCH();
  }
}

void cub_float2_scan(const float2* ab, float* h, std::size_t batch, std::size_t length, void* temp,
                     std::size_t temp_bytes, cudaStream_t stream) {
  if (length > static_cast<std::size_t>(INT_MAX)) throw std::invalid_argument("cub_float2_scan: length too large");
  for (std::size_t s = 0; s < batch; ++s) {
    const std::size_t start = s * length;
    CUDA_CHECK(cub_scan_float2_one(temp, temp_bytes, ab + start, h + start, static_cast<int>(length), stream));
    CUDA_CHECK_LAUNCH();
  }
}

void run_look_back_window(TileShape shape, const float* a, const float* b, float* h, std::size_t batch,
                          std::size_t length, const DeviceScratch& scratch, cudaStream_t stream) {
  if (batch == 0 || length == 0) return;
  const auto is = [&](int threads, int items) { return shape.threads == threads && shape.items_per_thread == items; };
  // One instantiation per shape of kWindowTileShapes (a test checks that every one runs).
  if (is(128, 16))
    launch_look_back_window<128, 16>(a, b, h, batch, length, scratch.window_status, stream);
  else if (is(128, 32))
    launch_look_back_window<128, 32>(a, b, h, batch, length, scratch.window_status, stream);
  else if (is(128, 48))
    launch_look_back_window<128, 48>(a, b, h, batch, length, scratch.window_status, stream);
  else if (is(128, 64))
    launch_look_back_window<128, 64>(a, b, h, batch, length, scratch.window_status, stream);
  else if (is(64, 64))
    launch_look_back_window<64, 64>(a, b, h, batch, length, scratch.window_status, stream);
  else if (is(256, 16))
    launch_look_back_window<256, 16>(a, b, h, batch, length, scratch.window_status, stream);
  else if (is(256, 32))
    launch_look_back_window<256, 32>(a, b, h, batch, length, scratch.window_status, stream);
  else if (is(512, 16))
    launch_look_back_window<512, 16>(a, b, h, batch, length, scratch.window_status, stream);
  else
    throw std::invalid_argument("run_look_back_window: no kernel built for a tile of " + std::to_string(shape.threads) +
                                " threads × " + std::to_string(shape.items_per_thread) + " items");
  CUDA_CHECK_LAUNCH();
}

void run_hand_written(Kernel kernel, const float* a, const float* b, float* h, std::size_t batch, std::size_t length,
                      const DeviceScratch& scratch, cudaStream_t stream) {
  if (batch == 0 || length == 0) return;
  constexpr int kVectors = kTileItemsPerThread / 4;
  static_assert(kTileItemsPerThread % 4 == 0, "the tile is loaded in float4");
  switch (kernel) {
    case Kernel::one_thread: ema_one_thread<<<grid_size(batch), 1, 0, stream>>>(a, b, h, length); break;
    case Kernel::warp_pairs: ema_warp_pairs<<<grid_size(batch), kWarpPairsThreads, 0, stream>>>(a, b, h, length); break;
    case Kernel::cub_block: ema_cub_block<512, 8><<<grid_size(batch), 512, 0, stream>>>(a, b, h, length); break;
    case Kernel::look_back: {
      const std::size_t per_seq = tiles_per_sequence(length);
      const std::size_t tiles = per_seq * batch;
      // Word 0 is the tile counter, words 1.. the statuses: one memset clears both.
      CUDA_CHECK(cudaMemsetAsync(scratch.tile_status, 0, (tiles + 1) * sizeof(unsigned long long), stream));
      ema_look_back<kTileThreads, kVectors><<<grid_size(tiles), kTileThreads, 0, stream>>>(
          a, b, h, length, per_seq, scratch.tile_status, scratch.tile_status + 1, scratch.tile_aggregate);
      break;
    }
    case Kernel::look_back_window: return run_look_back_window(kWindowTile, a, b, h, batch, length, scratch, stream);
    default: throw std::invalid_argument(std::string("run_hand_written: ") + info(kernel).name + " is a library");
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace ema
