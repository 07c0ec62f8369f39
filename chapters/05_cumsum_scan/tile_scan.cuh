// The pieces of chapter 05's tile scans, written once for any associative operator: the
// register tile and its loads and stores, the warp and tile scans, the tile status words and
// the decoupled look-back. Chapter 05 instantiates them with Sum; chapter 06 links this
// library and instantiates them with its pair operator.
//
// An operator is a struct that tells the scan four things:
//   using Value = ...;                                 what is scanned (a float, a pair, ...)
//   static Value identity();                           the value that changes nothing
//   static Value combine(Value earlier, Value later);  associative; not necessarily commutative
//   static Value shfl_up / shfl_down / shfl(...)       how a value moves between the lanes of a warp
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>

namespace scan {

constexpr unsigned kFullMask = 0xffffffffu;

// [snippet:sum]
// The cumulative sum's operator. A float crosses lanes in one shuffle.
struct Sum {
  using Value = float;
  static __device__ float identity() { return 0.f; }
  static __device__ float combine(float earlier, float later) { return earlier + later; }
  static __device__ float shfl_up(float v, int offset) { return __shfl_up_sync(kFullMask, v, offset); }
  static __device__ float shfl_down(float v, int offset) { return __shfl_down_sync(kFullMask, v, offset); }
  static __device__ float shfl(float v, int lane) { return __shfl_sync(kFullMask, v, lane); }
};
// [/snippet:sum]

__host__ __device__ inline bool aligned16(const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; }

// ---- The register tile ------------------------------------------------------------------------
// A tile of Threads × 4·Vectors items. Warp w owns a contiguous stretch of 128·Vectors of them;
// in that stretch, "row" k (128 floats) holds one float4 per lane: lane l has elements
// 128k + 4l .. 128k + 4l + 3. So every load and store instruction of a warp moves 512
// contiguous bytes (perfectly coalesced), and every thread still owns runs of 4 neighbours.
template <int Threads, int Vectors>
struct Tile {
  static constexpr int kWarps = Threads / 32;
  static constexpr int kItemsPerThread = 4 * Vectors;
  static constexpr int kSize = Threads * kItemsPerThread;
  // Position in the tile of item e of row k of this thread.
  static __device__ int index(int k, int e) {
    return (threadIdx.x / 32) * 128 * Vectors + k * 128 + (threadIdx.x % 32) * 4 + e;
  }
};

// [snippet:load_tile]
// Loads this thread's items; `valid` elements of the tile exist. A full tile at 16-byte
// aligned addresses takes one float4 load per row; otherwise each element is guarded, and
// the missing ones read as `missing` (for a sum 0, the identity, so they change nothing).
template <int Threads, int Vectors>
__device__ __forceinline__ void load_tile(const float* __restrict__ tile_in, int valid, bool vectorized,
                                          float (&v)[Vectors][4], float missing) {
  using T = Tile<Threads, Vectors>;
  if (vectorized && valid == T::kSize) {
#pragma unroll
    for (int k = 0; k < Vectors; ++k) {
      const float4 q = *reinterpret_cast<const float4*>(tile_in + T::index(k, 0));
      v[k][0] = q.x, v[k][1] = q.y, v[k][2] = q.z, v[k][3] = q.w;
    }
  } else {
#pragma unroll
    for (int k = 0; k < Vectors; ++k)
#pragma unroll
      for (int e = 0; e < 4; ++e) v[k][e] = T::index(k, e) < valid ? tile_in[T::index(k, e)] : missing;
  }
}
// [/snippet:load_tile]

// Stores output(item) for every valid item (the same two paths as load_tile). `output` turns a
// scanned item into the float written: for a sum, the item plus what comes before it.
template <int Threads, int Vectors, class Value, class Output>
__device__ __forceinline__ void store_tile(float* __restrict__ tile_out, int valid, bool vectorized,
                                           const Value (&v)[Vectors][4], Output output) {
  using T = Tile<Threads, Vectors>;
  if (vectorized && valid == T::kSize) {
#pragma unroll
    for (int k = 0; k < Vectors; ++k)
      *reinterpret_cast<float4*>(tile_out + T::index(k, 0)) =
          make_float4(output(v[k][0]), output(v[k][1]), output(v[k][2]), output(v[k][3]));
  } else {
#pragma unroll
    for (int k = 0; k < Vectors; ++k)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        if (T::index(k, e) < valid) tile_out[T::index(k, e)] = output(v[k][e]);
  }
}

// Chapter 05's `output`: the sum of everything before the item, plus the item.
struct AddPrefix {
  float prefix;
  __device__ float operator()(float item) const { return prefix + item; }
};

// [snippet:warp_scan]
// Inclusive scan across the 32 lanes of a warp: Hillis–Steele again, but in registers, with
// a shuffle handing each lane the value of the lane `offset` below. No shared memory, no
// barrier: the 32 lanes of a warp execute each shuffle together. The lane below holds the
// earlier items, so it is combine's left operand.
template <class Op>
__device__ __forceinline__ typename Op::Value warp_inclusive_scan(typename Op::Value value, int lane) {
#pragma unroll
  for (int offset = 1; offset < 32; offset *= 2) {
    const typename Op::Value below = Op::shfl_up(value, offset);
    if (lane >= offset) value = Op::combine(below, value);
  }
  return value;
}
// [/snippet:warp_scan]

template <class Value>
struct TileScan {
  Value warp_prefix;  // the combination of the tile's earlier warps
  Value total;        // the combination of the whole tile
};

// [snippet:scan_tile]
// Scans the tile in registers. On return each item holds the inclusive scan *within its warp's
// stretch*; combining warp_prefix (and whatever comes before the tile) in front completes it.
// Contains one __syncthreads(); `warp_totals` is shared, one value per warp.
template <class Op, int Threads, int Vectors>
__device__ __forceinline__ TileScan<typename Op::Value> scan_tile(typename Op::Value (&v)[Vectors][4],
                                                                  typename Op::Value* warp_totals) {
  using Value = typename Op::Value;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  // 1. Each thread scans its own runs of 4, sequentially, in registers.
  // 2. Each row's run totals are scanned across the warp (the rows are independent: their
  //    shuffles overlap).
  Value row_inclusive[Vectors];
#pragma unroll
  for (int k = 0; k < Vectors; ++k) {
    v[k][1] = Op::combine(v[k][0], v[k][1]);
    v[k][2] = Op::combine(v[k][1], v[k][2]);
    v[k][3] = Op::combine(v[k][2], v[k][3]);
    row_inclusive[k] = warp_inclusive_scan<Op>(v[k][3], lane);
  }
  // 3. Combine what comes before each run in front of it: the earlier rows, then the earlier
  //    lanes of its row.
  Value rows_before = Op::identity();
#pragma unroll
  for (int k = 0; k < Vectors; ++k) {
    Value lanes_before = Op::shfl_up(row_inclusive[k], 1);
    if (lane == 0) lanes_before = Op::identity();
    const Value before = Op::combine(rows_before, lanes_before);
#pragma unroll
    for (int e = 0; e < 4; ++e) v[k][e] = Op::combine(before, v[k][e]);
    rows_before = Op::combine(rows_before, Op::shfl(row_inclusive[k], 31));
  }
  // 4. The warps meet once, through shared memory.
  if (lane == 31) warp_totals[warp] = rows_before;
  __syncthreads();
  TileScan<Value> result{Op::identity(), Op::identity()};
#pragma unroll
  for (int w = 0; w < Threads / 32; ++w) {
    if (w == warp) result.warp_prefix = result.total;
    result.total = Op::combine(result.total, warp_totals[w]);
  }
  return result;
}
// [/snippet:scan_tile]

// ---- Tile status words --------------------------------------------------------------------------
// A flag and a float travel together in one 64-bit word, written with one store and read with
// one load, so a reader never sees a flag without its value.
constexpr unsigned kNotReady = 0;   // what the cleared status array holds
constexpr unsigned kAggregate = 1;  // the value is the tile's own combination
constexpr unsigned kPrefix = 2;     // the value is the combination of this tile and every tile before it

using StatusRef = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>;

__device__ __forceinline__ unsigned long long pack_status(unsigned flag, float value) {
  return (static_cast<unsigned long long>(flag) << 32) | __float_as_uint(value);
}
__device__ __forceinline__ unsigned status_flag(unsigned long long word) { return static_cast<unsigned>(word >> 32); }
__device__ __forceinline__ float status_value(unsigned long long word) {
  return __uint_as_float(static_cast<unsigned>(word));
}

// Relaxed atomics are enough when the value is in the word itself: no other data is published
// with the status, so there is nothing whose order a fence would have to guarantee. Had the value
// and the flag been two words, the writer would need a fence (__threadfence()) between
// writing the value and the flag, and the reader one between reading the flag and the value.
__device__ __forceinline__ void publish(unsigned long long* word, unsigned flag, float value) {
  StatusRef(*word).store(pack_status(flag, value), cuda::std::memory_order_relaxed);
}

// What a look-back lane read for one predecessor tile: its aggregate, or its inclusive prefix
// (`prefix`), or nothing usable yet (`!ready`).
template <class Value>
struct StatusEntry {
  Value value;
  bool ready;
  bool prefix;
};

// [snippet:status_word]
// The statuses of a scan whose value is one float: one word per tile. Tiles before the first
// read as the prefix 0, what comes before the whole array.
struct FloatStatus {
  unsigned long long* words;
  __device__ void publish_aggregate(long long tile, float total) const { publish(&words[tile], kAggregate, total); }
  __device__ void publish_prefix(long long tile, float inclusive) const { publish(&words[tile], kPrefix, inclusive); }
  __device__ StatusEntry<float> read(long long p, long long first_tile) const {
    if (p < first_tile) return {0.f, true, true};
    const unsigned long long word = StatusRef(words[p]).load(cuda::std::memory_order_relaxed);
    return {status_value(word), status_flag(word) != kNotReady, status_flag(word) == kPrefix};
  }
};
// [/snippet:status_word]

// Claims a tile in the order blocks start, not by blockIdx: every tile with a smaller index has
// then already started, so a look-back never waits for a tile that might still be queued behind
// this one (which could deadlock the GPU). Contains one __syncthreads().
__device__ __forceinline__ unsigned long long claim_tile(unsigned long long* tile_counter) {
  __shared__ unsigned long long claimed;
  if (threadIdx.x == 0) claimed = atomicAdd(tile_counter, 1ull);
  __syncthreads();
  return claimed;
}

// [snippet:look_back]
// Run by the tile's first warp, after the tile's total is known. Returns (in every lane) the
// combination of every tile from first_tile up to `tile` (excluded), and publishes this tile's
// inclusive prefix. Status says where a tile's aggregate and prefix are kept.
template <class Op, class Status>
__device__ typename Op::Value look_back(Status status, long long tile, long long first_tile, typename Op::Value total,
                                        int lane) {
  using Value = typename Op::Value;
  if (tile == first_tile) {
    if (lane == 0) status.publish_prefix(tile, total);
    return Op::identity();
  }
  // Publish the aggregate at once: successors can use it before this tile knows its prefix.
  if (lane == 0) status.publish_aggregate(tile, total);
  Value before = Op::identity();  // the combination of every tile walked so far, in order
  // A window of 32 predecessors at a time: lane l reads tile window_end − 1 − l.
  for (long long window_end = tile;; window_end -= 32) {
    StatusEntry<Value> e;
    unsigned prefix_lanes, needed;
    do {
      e = status.read(window_end - 1 - lane, first_tile);
      prefix_lanes = __ballot_sync(kFullMask, e.prefix);
      // The walk stops at the nearest tile with a prefix (the lowest such lane); every lane up
      // to it must have published something. Tiles farther back do not matter.
      const int stop = prefix_lanes ? __ffs(prefix_lanes) - 1 : 31;
      needed = stop == 31 ? kFullMask : (2u << stop) - 1;
    } while (__ballot_sync(kFullMask, !e.ready) & needed);
    Value value = (needed >> lane) & 1u ? e.value : Op::identity();
    // Combine the window in order, the farthest tile (lane 31) first: after the step with
    // `offset`, lane l holds the combination of lanes l .. l + 2·offset − 1, so after five
    // steps lane 0 holds the whole window.
#pragma unroll
    for (int offset = 1; offset < 32; offset *= 2) {
      const Value farther = Op::shfl_down(value, offset);
      if (lane + offset < 32) value = Op::combine(farther, value);
    }
    before = Op::combine(Op::shfl(value, 0), before);
    if (prefix_lanes) break;
  }
  if (lane == 0) status.publish_prefix(tile, Op::combine(before, total));
  return before;
}
// [/snippet:look_back]

}  // namespace scan
