// Version 5, forward: warps with two roles and a ring of tiles in shared memory (Hopper).
// Version 4 left each walking thread to fetch its own next tile into registers: the loads, their
// bounds checks and the copies of the prefetched registers sat among the walk's instructions, and
// in bf16 its loads were not hidden at all (PERFORMANCE.md). Here a block has two roles:
//   - one producer warp fills a ring of tiles in shared memory (three; two past 64 states): each row of a tile (32
//     steps of one channel's delta, u or z, or of one state's B or C) is one bulk copy, which the
//     copy engine carries out and counts off the tile's "full" mbarrier as its bytes land;
//   - four consumer warps (eight past 128 states) wait on that barrier, walk the tile and arrive on
//     its "empty" barrier, which tells the producer that the slot may be filled again.
// The consumers' walk is version 4's (K states a thread, P lanes a channel, decay_power), and what
// is new on their side takes fewer instructions: nothing is loaded from global memory, B and C
// are read straight from the ring (fp32 tiles as copied; fp16 and bf16 rows are converted once by
// the producer), whether B and C vary is known at compile time, and the P partial outputs of a
// step are summed with shuffles that leave each lane the whole sum of the step it finishes.
// Rows are copied in bulk when every row is 16-byte aligned and the tile is whole; otherwise the
// producer loads them value by value (the last tile, odd strides). A group whose channels are
// not a whole number of blocks ends on a block with fewer (channel_blocks.hpp): the producer
// fills only their rows, and the consumer lanes left without a channel walk the block's first
// one again and write nothing. With B and C both variable a lane walks only the states the call
// has (few_states: K = 1 or 2 where the 16-state layout's K is 4 or 2), and calls of more than
// 16 states take version 4's wider layouts (many_states: up to 32 lanes a channel, a tile of up
// to 256 rows of B and C). The calls the kernel cannot take -- complex A, more than 16 states
// with a constant B or C, constant B and C, a GPU older than sm_90 -- never reach it: the call's
// plan (plan.cpp) gives them to version 4's forward.
// Past 16 states with few channels, the call is walked as slices of 16 states in the 16-state
// layout, each slice a block's work, cut into segments as below (forward_slices).
// When the channel groups are too few to fill the GPU (a long sequence with a small batch), each
// group's sequence is cut into time segments, one block each. Every segment except the last
// walks its steps twice: first for the state alone (pass 1: no C, no outputs, from h = 0), after
// which it publishes a summary of itself (its end state and its sum of delta) without waiting
// for anyone; then, having folded the summaries of the segments before it into its true starting
// state, writing the outputs (pass 2). All pass 1s run side by side, and no segment waits for
// another's pass 2 or for a chain of carries.
#include "channel_blocks.hpp"
#include "check.hpp"
#include "device_facts.hpp"
#include "device_math.cuh"
#include "packed_sequences.cuh"
#include "scan_args.hpp"
#include "segment_carry.cuh"
#include "shared_ring.cuh"
#include "tile.hpp"
#include "v5_sliced_steps.cuh"
#include "warp_backward.cuh"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace selective_scan::detail {
namespace {

constexpr int kStates = 16;  // Mamba's: a tile holds at least these rows of B and C

// Past 16 states a tile holds the K P rows a layout walks (K states a lane, P lanes a channel).
// The ring keeps three tiles, two past 64 states, where three tiles of 128 rows would leave no
// room for a second block on the multiprocessor (and of 256 rows would not fit one); the blocks
// a multiprocessor then holds bound the registers a thread may take (__launch_bounds__, from
// resident_blocks below).
constexpr int tile_states(int K, int P) { return K * P > kStates ? K * P : kStates; }
constexpr int ring_stages(int S) { return S <= 64 ? 3 : 2; }
// The warps that walk a tile: four, and eight where a tile holds more than 128 rows. Two tiles of
// 256 rows fill most of a multiprocessor's shared memory, so one block fits it; with four warps
// that left one warp a scheduler, and 256 states took five times the forward time of 128
// (PERFORMANCE.md). Eight warps share the same tile between twice the channels.
constexpr int consumer_warps(int S) { return S > 128 ? 8 : 4; }
constexpr int block_threads(int S) { return (consumer_warps(S) + 1) * 32; }  // and one producer warp

// [snippet:ring_tile]
// One slot of the ring: S rows of B and C (16, or the call's states past 16). Each row is padded
// by 16 bytes, so that the lanes reading the same step of different rows fall on different
// banks; a bulk copy lands each row at its own address.
template <class Input, int kChannels, int S>
struct Tile {
  static constexpr int kRow = kTile + 16 / int(sizeof(Input));  // delta, u, z as loaded
  static constexpr int kStateRow = kTile + 4;                   // B, C as fp32
  alignas(16) Input delta[kChannels][kRow];
  alignas(16) Input u[kChannels][kRow];
  alignas(16) Input z[kChannels][kRow];
  alignas(16) float B[S][kStateRow];
  alignas(16) float C[S][kStateRow];
};
template <class Input, int P, int S = kStates>
struct RingShared {
  static constexpr int kConsumerWarps = consumer_warps(S);
  static constexpr int kThreads = block_threads(S);
  static constexpr int kChannelsPerWarp = 32 / P;
  static constexpr int kChannels = kConsumerWarps * kChannelsPerWarp;
  static constexpr int kStages = ring_stages(S);
  using TileType = Tile<Input, kChannels, S>;
  TileType tiles[kStages];
  std::uint64_t full[kStages], empty[kStages];
  std::int64_t first_item;  // the block's work item, when sequences are cut
  // (delta, delta u) of each channel's steps: staged once by the channel's lanes, read by all.
  alignas(16) float2 steps[kConsumerWarps][kChannelsPerWarp][kTile + P];
};
// [/snippet:ring_tile]
template <class Input, int K, int P>
constexpr int resident_blocks() {
  constexpr int kBytes = int(sizeof(RingShared<Input, P, tile_states(K, P)>)) + 1024;
  return 228 * 1024 / kBytes < 3 ? 228 * 1024 / kBytes : 3;
}

// Which block's channels (channel_blocks.hpp), and where their rows start.
struct BlockChannels : ChannelBlock {
  __device__ BlockChannels(const ScanArgs& a, std::int64_t block_group, int channels)
      : ChannelBlock(channel_block(a, block_group, channels)) {}
  template <class Input>
  __device__ const Input* row(const SequenceArg& s, int c) const {
    return static_cast<const Input*>(s.data) + b * s.batch_stride + (d0 + c) * s.dim_stride;
  }
  template <class Input>
  __device__ const Input* state_row(const ProjectionArg& p, int n) const {
    return static_cast<const Input*>(p.data) + b * p.batch_stride + group * p.group_stride + n * p.state_stride;
  }
};

// [snippet:forward_slices]
// Past 16 states, where the channels are few, the forward walks the call as slices of 16 states
// (state_slices, v5_sliced_steps.cuh), each a work item of its own, in the 16-state layout and
// cut into segments like any call of few channels: the states do not meet in the recurrence,
// only in a step's output, the sum over states of C h. The slices add their parts of it into the
// workspace (slice_outputs), and finish_sliced_outputs() adds D u and the gate.
static_assert(kStates == kSliceStates, "a slice is the 16-state layout's states");
// Where the slices' outputs start in the workspace: past the summaries' words, on 16 bytes.
__host__ __device__ inline std::int64_t slice_outputs_offset(const ScanArgs& a, int segments) {
  const std::int64_t words = carry::summary_index(segments, a.dstate, a.batch * a.dim, 0, 0);
  return (words * std::int64_t(sizeof(carry::Word)) + 15) / 16 * 16;
}
// [/snippet:forward_slices]

// A block's work item: a channel group (and past 16 states with few channels, a slice of its
// states) and one time segment of it, numbered segment by segment so that every item waits only
// for items with smaller numbers; a group's slices follow each other (they read the same rows).
struct WorkItem {
  std::int64_t group;
  int state0;  // the slice's first state (0: not sliced)
  int segment;
  std::int64_t begin, end;  // its steps
  __device__ WorkItem(const ScanArgs& a, std::int64_t item, std::int64_t units, int segments, int slices) {
    const std::int64_t unit = segments == 1 ? item : item % units;
    group = slices == 1 ? unit : unit / slices;
    state0 = slices == 1 ? 0 : int(unit % slices) * kStates;
    segment = segments == 1 ? 0 : int(item / units);
    begin = carry::segment_begin(a.seqlen, segments, segment, kTile);
    end = carry::segment_begin(a.seqlen, segments, segment + 1, kTile);
  }
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

// [snippet:ring_producer]
// One tile of the block's channels from step t0 into a slot of the ring. A tile of a cut sequence's
// first pass (no outputs; the section on cut sequences) needs neither z nor C. Rows n of B and C
// are the call's states state0 + n (kSliced; else state0 is 0), up to dstate.
template <class Input, int P, int S, bool kBVariable, bool kCVariable, bool kOutputs, bool kSliced>
__device__ void fill_tile(const ScanArgs& args, const BlockChannels& at,
                          typename RingShared<Input, P, S>::TileType& tile, std::uint64_t* full, std::int64_t t0,
                          bool bulk, int state0) {
  const int lane = threadIdx.x % 32;
  const bool load_z = kOutputs && !kSliced && args.z.data != nullptr;  // sliced: the gate comes after
  constexpr bool load_C = kOutputs && kCVariable;
  const int valid = int(std::min<std::int64_t>(kTile, args.seqlen - t0));
  const int rows = kSliced ? std::min(S, args.dstate - state0) : args.dstate;  // the rows of states that exist
  // A slice's rows past dstate hold 0, not an earlier slice's rows (a state past dstate has
  // A = 0 and h = 0 only while its B is 0). Stored before the arrivals, which release them.
  if constexpr (kSliced) {
    for (int i = lane; i < (S - rows) * kTile; i += 32) {
      tile.B[rows + i / kTile][i % kTile] = 0.f;
      if (load_C) tile.C[rows + i / kTile][i % kTile] = 0.f;
    }
  }
  if (bulk && valid == kTile) {
    // B and C of 16-bit types are converted to fp32 here, once for all the block's channels:
    // every load of a batch first, so that their trips to memory overlap, then the conversions
    // (a batch: all of 16 states' rows, a quarter of 64 states' rows, ...).
    if constexpr (!std::is_same_v<Input, float>) {
      constexpr int kPerVector = 16 / int(sizeof(Input));
      constexpr int kVectorsPerRow = kTile / kPerVector;
      constexpr int kPerLane = 2 * S * kVectorsPerRow / 32;
      constexpr int kBatch = std::min(kPerLane, 8);
#pragma unroll 1
      for (int i0 = 0; i0 < kPerLane; i0 += kBatch) {
        uint4 raw[kBatch];
        float* dst[kBatch];
#pragma unroll
        for (int i = 0; i < kBatch; ++i) {
          const int v = lane + 32 * (i0 + i), r = v / kVectorsPerRow, n = r % S, q = v % kVectorsPerRow;
          const bool is_B = r < S;
          dst[i] = nullptr;
          if (n >= rows || !(is_B ? kBVariable : load_C)) continue;
          const Input* src = at.template state_row<Input>(is_B ? args.B : args.C, state0 + n) + t0 + q * kPerVector;
          raw[i] = __ldg(reinterpret_cast<const uint4*>(src));
          dst[i] = (is_B ? tile.B[n] : tile.C[n]) + q * kPerVector;
        }
#pragma unroll
        for (int i = 0; i < kBatch; ++i) {
          if (!dst[i]) continue;
          const Input* x = reinterpret_cast<const Input*>(&raw[i]);
#pragma unroll
          for (int e = 0; e < kPerVector; e += 4)
            *reinterpret_cast<float4*>(dst[i] + e) = {to_float(x[e]), to_float(x[e + 1]), to_float(x[e + 2]),
                                                      to_float(x[e + 3])};
        }
      }
    }
    constexpr unsigned kRowBytes = kTile * sizeof(Input);
    unsigned bytes = unsigned(at.count) * kRowBytes * (load_z ? 3 : 2);
    if constexpr (std::is_same_v<Input, float>)
      bytes += unsigned(rows) * kRowBytes * ((kBVariable ? 1 : 0) + (load_C ? 1 : 0));
    // Every lane arrives, each after its own stores (a release of them); lane 0's arrival also
    // announces the bytes, so the phase cannot end before they have all landed.
    if (lane == 0) ring::arrive_expecting(full, bytes);
    for (int c = lane; c < at.count; c += 32) {
      ring::bulk_copy(tile.delta[c], at.template row<Input>(args.delta, c) + t0, kRowBytes, full);
      ring::bulk_copy(tile.u[c], at.template row<Input>(args.u, c) + t0, kRowBytes, full);
      if (load_z) ring::bulk_copy(tile.z[c], at.template row<Input>(args.z, c) + t0, kRowBytes, full);
    }
    if constexpr (std::is_same_v<Input, float>) {
      for (int n = lane; n < rows; n += 32) {
        if (kBVariable)
          ring::bulk_copy(tile.B[n], at.template state_row<Input>(args.B, state0 + n) + t0, kRowBytes, full);
        if (load_C) ring::bulk_copy(tile.C[n], at.template state_row<Input>(args.C, state0 + n) + t0, kRowBytes, full);
      }
    }
    if (lane != 0) ring::arrive(full);
  } else {
    // Value by value, lane = step, 0 past the end; then arrivals without bytes.
    const std::int64_t t = t0 + lane;
    const bool in = lane < valid;
    for (int c = 0; c < at.count; ++c) {
      tile.delta[c][lane] = in ? at.template row<Input>(args.delta, c)[t] : Input{};
      tile.u[c][lane] = in ? at.template row<Input>(args.u, c)[t] : Input{};
      if (load_z) tile.z[c][lane] = in ? at.template row<Input>(args.z, c)[t] : Input{};
    }
    for (int n = 0; n < rows; ++n) {
      if (kBVariable) tile.B[n][lane] = in ? to_float(at.template state_row<Input>(args.B, state0 + n)[t]) : 0.f;
      if (load_C) tile.C[n][lane] = in ? to_float(at.template state_row<Input>(args.C, state0 + n)[t]) : 0.f;
    }
    ring::arrive(full);
  }
}

// The producer warp: for every tile of every work item the block takes (twice over a segment
// that has a pass 1), wait until the slot is free, then fill it.
template <class Input, int P, int S, bool kBVariable, bool kCVariable, bool kCut, bool kSliced>
__device__ void produce(const ScanArgs& args, RingShared<Input, P, S>& sh, bool bulk, const carry::Split& split) {
  constexpr int kChannels = RingShared<Input, P, S>::kChannels;
  const int segments = kCut ? split.segments : 1;
  const int slices = kSliced ? state_slices(args) : 1;
  const std::int64_t units = channel_blocks(args, kChannels) * slices, items = units * segments;
  const ring::Pipeline<RingShared<Input, P, S>::kStages> pipeline(sh.full, sh.empty);
  ring::RingPosition<RingShared<Input, P, S>::kStages> fill;  // the next slot to fill
  for (std::int64_t item = kCut ? sh.first_item : blockIdx.x; item < items; item += gridDim.x) {
    const WorkItem w(args, item, units, segments, slices);
    const BlockChannels at(args, w.group, kChannels);
    for (int pass = w.segment + 1 < segments ? 1 : 2; pass <= 2; ++pass) {
      for (std::int64_t t0 = w.begin; t0 < w.end; t0 += kTile, fill.advance()) {
        const int ring_slot = pipeline.acquire(fill);
        std::uint64_t* const full = pipeline.full_barrier(ring_slot);
        if (pass == 2)
          fill_tile<Input, P, S, kBVariable, kCVariable, true, kSliced>(args, at, sh.tiles[ring_slot], full, t0, bulk,
                                                                        w.state0);
        else
          fill_tile<Input, P, S, kBVariable, kCVariable, false, kSliced>(args, at, sh.tiles[ring_slot], full, t0, bulk,
                                                                         w.state0);
      }
    }
  }
}
// [/snippet:ring_producer]

// What a consumer thread walks in one work item: a channel of the block, and its K states
// n = state0 + j + P k (j = lane % P) with their decays, rows of B and C where those are
// constant, and h. Lanes past the block's channels (a group's last block) walk its first channel
// again and write nothing: `live` guards every store, `row` is the channel they read.
template <int K, int P>
struct ChannelStates {
  int j, state0;
  bool live;
  int row;
  std::int64_t bd, d;  // the channel's row of (batch x dim), and its channel
  float A2[K], h[K], B_const[K], C_const[K];
  __device__ int state(int k) const { return state0 + j + P * k; }
};
template <int K, int P>
__device__ __forceinline__ ChannelStates<K, P> channel_of(const WorkItem& w, const BlockChannels& at, int c, int j) {
  ChannelStates<K, P> ch;
  ch.j = j;
  ch.state0 = w.state0;
  ch.live = c < at.count;
  ch.row = ch.live ? c : 0;
  ch.bd = at.first + ch.row;
  ch.d = at.d0 + ch.row;
  return ch;
}
// The channel's decays, its constant rows of B and C, and h at the segment's start where that is
// the call's initial state.
template <bool kBVariable, bool kCVariable, int K, int P>
__device__ __forceinline__ void load_states(const ScanArgs& args, const WorkItem& w, ChannelStates<K, P>& ch) {
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const int n = ch.state(k);
    ch.A2[k] = ch.h[k] = ch.B_const[k] = ch.C_const[k] = 0.f;
    if (n >= args.dstate) continue;
    ch.A2[k] = log2_scaled(args.A[ch.d * args.A_dim_stride + n]);
    if (!kBVariable) ch.B_const[k] = static_cast<const float*>(args.B.data)[ch.d * args.B.dim_stride + n];
    if (!kCVariable) ch.C_const[k] = static_cast<const float*>(args.C.data)[ch.d * args.C.dim_stride + n];
    if (args.initial_state && w.segment == 0) ch.h[k] = args.initial_state[ch.bd * args.dstate + n];
  }
}

// Stage (delta, delta u) of a tile: lane j of a channel takes steps j, j + P, ...; 0 past the end.
template <int P, class TileType, class InRange>
__device__ __forceinline__ void stage_steps(const ScanArgs& args, const TileType& tile, int row, int j,
                                            float delta_bias, float2* steps, InRange in_range) {
#pragma unroll
  for (int i = 0; i < kTile / P; ++i) {
    const int s = j + P * i;
    float x = to_float(tile.delta[row][s]) + delta_bias;
    if (args.delta_softplus) x = softplus_fast(x);
    steps[s] = in_range(s) ? float2{x, x * to_float(tile.u[row][s])} : float2{0.f, 0.f};
  }
  __syncwarp();
}

// Packed sequences (packed_sequences.cuh): which sequences a tile holds (a kernel built without
// kPacked meets no boundary: the channel's own row, at compile time).
template <bool kPacked>
__device__ __forceinline__ TileSequences tile_sequences(SequenceCursor& cursor, const BlockChannels& at,
                                                        std::int64_t t0) {
  if constexpr (kPacked)
    return cursor.tile<kTile>(t0);
  else
    return TileSequences{0u, at.b};
}
// The state step s of a tile goes on from: h, or where the step begins a packed sequence, that
// sequence's initial state (0 without one) -- and with `ends`, h is stored as the last state of
// the sequence before. kBoundaries: the tile may hold a boundary (else h, at compile time).
template <bool kBoundaries, int K, int P>
__device__ __forceinline__ float continued(const ScanArgs& args, const ChannelStates<K, P>& ch, float h_k,
                                           const TileSequences& sequences, int s, int k, bool ends) {
  if (!kBoundaries || !sequences.begins_at(s)) return h_k;
  const std::int64_t q = sequences.sequence(s);
  const int n = ch.state(k);
  if (ends && ch.live && args.last_state && n < args.dstate)
    args.last_state[sequence_state_index(args, q - 1, ch.d, n)] = h_k;
  return args.initial_state && n < args.dstate ? args.initial_state[sequence_state_index(args, q, ch.d, n)] : 0.f;
}

// [snippet:segment_pass]
// Pass 1, for a segment that another one continues: its summary, published at once -- the
// state at its end from h = 0 (segment 0: from its initial state), and the sum of its delta,
// which gives the product of its decays, exp(A sum(delta)).
template <class Input, int K, int P, int S, bool kBVariable, bool kPacked>
__device__ __forceinline__ void summarize_segment(const ScanArgs& args, RingShared<Input, P, S>& sh,
                                                  ring::RingPosition<RingShared<Input, P, S>::kStages>& take,
                                                  const carry::Split& split, int segments, const WorkItem& w,
                                                  const BlockChannels& at, const ChannelStates<K, P>& ch,
                                                  float delta_bias) {
  const ring::Pipeline<RingShared<Input, P, S>::kStages> pipeline(sh.full, sh.empty);
  const int j = ch.j;
  float2* const steps = sh.steps[threadIdx.x / 32][threadIdx.x % 32 / P];
  float end[K], delta_sum = 0.f;
#pragma unroll
  for (int k = 0; k < K; ++k) end[k] = ch.h[k];
  SequenceCursor cursor = kPacked ? SequenceCursor(args, at.b, w.begin) : SequenceCursor();
  for (std::int64_t t0 = w.begin; t0 < w.end; t0 += kTile, take.advance()) {
    const int ring_slot = pipeline.wait(take);
    const auto& tile = sh.tiles[ring_slot];
    // Segments but the last end on a whole tile.
    stage_steps<P>(args, tile, ch.row, j, delta_bias, steps, [](int) { return true; });
    const TileSequences sequences = tile_sequences<kPacked>(cursor, at, t0);
    by_boundaries<kPacked>(sequences, [&](auto boundaries) {
#pragma unroll 2
      for (int g0 = 0; g0 < kTile; g0 += kGroup) {
        const float4 s01 = *reinterpret_cast<const float4*>(&steps[g0]);
        const float4 s23 = *reinterpret_cast<const float4*>(&steps[g0 + 2]);
        const float delta[kGroup] = {s01.x, s01.z, s23.x, s23.z}, delta_u[kGroup] = {s01.y, s01.w, s23.y, s23.w};
#pragma unroll
        for (int k = 0; k < K; ++k) {
          const float4 b = kBVariable ? *reinterpret_cast<const float4*>(&tile.B[j + P * k][g0]) : float4{};
          const float bs[kGroup] = {b.x, b.y, b.z, b.w};
#pragma unroll
          for (int s = 0; s < kGroup; ++s)
            end[k] = exp2_delta_A<Input>(delta[s], ch.A2[k]) *
                         continued<decltype(boundaries)::value>(args, ch, end[k], sequences, g0 + s, k, false) +
                     delta_u[s] * (kBVariable ? bs[s] : ch.B_const[k]);
        }
#pragma unroll
        for (int s = 0; s < kGroup; ++s) delta_sum += delta[s];
      }
    });
    __syncwarp();  // before the next tile's staging overwrites steps
    pipeline.release(ring_slot);
  }
  const auto summary = [&](int row) {
    return split.words + carry::summary_index(segments, args.dstate, ch.bd, w.segment, row);
  };
#pragma unroll
  for (int k = 0; k < K; ++k)
    if (ch.live && ch.state(k) < args.dstate) carry::publish(summary(ch.state(k)), end[k]);
  // Where a packed sequence begins, no state passes: an infinite sum, a decay of 0 to the fold.
  if (ch.live && j == 0 && ch.state0 == 0)
    carry::publish(summary(args.dstate), cursor.met_a_boundary() ? INFINITY : delta_sum);
}
// [/snippet:segment_pass]

// Where a channel's results go: its outputs (out, and out_z with the gate), the states kept for
// the backward, and past 16 states with few channels, each slice's part of every output.
template <class Input>
struct ChannelOutputs {
  Input* out;
  Input* out_z;          // nullptr without z
  float* kept;           // h before every kStretch-th step, the channel's rows of dstate; or nullptr
  float* slice_outputs;  // kSliced only
  float D;
};

// Pass 2 on one tile: the recurrence from the segment's true starting state, each step's output
// summed over the channel's lanes and finished. A whole tile (every tile but perhaps the last,
// kWhole) takes it without checks, and a tile without a packed sequence's start (!kBoundaries)
// without the restarts.
template <class Input, int K, int P, bool kBVariable, bool kCVariable, bool kSliced, bool kBoundaries, bool kWhole,
          int S>
__device__ __forceinline__ void walk_output_tile(const ScanArgs& args, RingShared<Input, P, S>& sh, int ring_slot,
                                                 ChannelStates<K, P>& ch, const ChannelOutputs<Input>& to,
                                                 const TileSequences& sequences, float delta_bias, std::int64_t t0,
                                                 int valid) {
  const auto& tile = sh.tiles[ring_slot];
  float2* const steps = sh.steps[threadIdx.x / 32][threadIdx.x % 32 / P];
  Input* const out_tile = to.out + t0;
  Input* const out_z_tile = to.out_z ? to.out_z + t0 : nullptr;
  // The steps whose outputs a channel's lanes sum at once: one a lane, up to 16. Summed four at a
  // time, three lanes in four of a 16-lane channel held copies of a sum, and every group paid
  // for the butterfly's chain of shuffles and for finishing its outputs; with one step a lane,
  // a stage's shuffles are independent of each other and no lane finishes a step for nothing.
  // Past 4 states a lane the walk amortizes the sums, and 16 more registers would spill.
  constexpr int kSumSteps = K > 4 ? kGroup : P < 16 ? P : 16;
  static_assert(P % kGroup == 0 && (P & (P - 1)) == 0, "a channel's lanes sum whole groups of steps");
  const int j = ch.j;
  const bool finishes = j < kSumSteps;  // P = 32: lanes 16 apart hold the same sums
  const auto in_range = [&](int s) { return kWhole || s < valid; };
  stage_steps<P>(args, tile, ch.row, j, delta_bias, steps, in_range);
  // [snippet:ring_walk]
#pragma unroll(K > 4 ? 1 : 2)
  for (int g0 = 0; g0 < kTile; g0 += kSumSteps) {
    float y[kSumSteps] = {};
#pragma unroll
    for (int q = 0; q < kSumSteps; q += kGroup) {
      const int g = g0 + q;
      if (to.kept && g % kStretch == 0 && in_range(g)) {
#pragma unroll
        for (int k = 0; k < K; ++k)
          if (ch.state(k) < args.dstate) to.kept[(t0 + g) / kStretch * args.dstate + ch.state(k)] = ch.h[k];
      }
      float B4[K][kGroup], C4[K][kGroup];
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const float4 b = kBVariable ? *reinterpret_cast<const float4*>(&tile.B[j + P * k][g]) : float4{};
        const float4 cc = kCVariable ? *reinterpret_cast<const float4*>(&tile.C[j + P * k][g]) : float4{};
        const float bs[kGroup] = {b.x, b.y, b.z, b.w}, cs[kGroup] = {cc.x, cc.y, cc.z, cc.w};
#pragma unroll
        for (int s = 0; s < kGroup; ++s) {
          B4[k][s] = kBVariable ? bs[s] : ch.B_const[k];
          C4[k][s] = kCVariable ? cs[s] : ch.C_const[k];
        }
      }
      const float4 s01 = *reinterpret_cast<const float4*>(&steps[g]);
      const float4 s23 = *reinterpret_cast<const float4*>(&steps[g + 2]);
      const float delta[kGroup] = {s01.x, s01.z, s23.x, s23.z}, delta_u[kGroup] = {s01.y, s01.w, s23.y, s23.w};
#pragma unroll
      for (int s = 0; s < kGroup; ++s) {
#pragma unroll
        for (int k = 0; k < K; ++k) {
          ch.h[k] = exp2_delta_A<Input>(delta[s], ch.A2[k]) *
                        continued<kBoundaries>(args, ch, ch.h[k], sequences, g + s, k, true) +
                    delta_u[s] * B4[k][s];
          y[q + s] += C4[k][s] * ch.h[k];
        }
      }
    }
    // Lane j ends with the sum over the channel's lanes of step j % kSumSteps of the group.
    float total = reduce_scatter<kSumSteps, 1>(y);
#pragma unroll
    for (int far = kSumSteps; far < P; far *= 2) total += __shfl_xor_sync(0xffffffffu, total, far);
    // [/snippet:ring_walk]
    const int s = g0 + j % kSumSteps;
    if (kSliced) {
      if (ch.live && finishes && in_range(s)) atomicAdd(to.slice_outputs + ch.bd * args.seqlen + t0 + s, total);
    } else if (ch.live && finishes && in_range(s)) {
      const float value = total + to.D * to_float(tile.u[ch.row][s]);
      out_tile[s] = from_float<Input>(value);
      if (to.out_z) out_z_tile[s] = from_float<Input>(value * silu_fast(to_float(tile.z[ch.row][s])));
    }
  }
}

// A consumer warp: channel slot = lane / P of the warp's channels, states j, j + P, ... (j =
// lane % P), so that the P lanes of a channel read P neighbouring rows of B or C: different banks.
// kCut: the kernel for cut sequences (pass 1 and the summaries); the other never sees a segment.
// kPacked: the kernel for packed sequences (packed_sequences.cuh), whose walk restarts where one
// begins; the others are built without it (a tile's boundaries are then none at compile time).
template <class Input, int K, int P, int S, bool kBVariable, bool kCVariable, bool kCut, bool kSliced, bool kPacked>
__device__ void consume(const ScanArgs& args, RingShared<Input, P, S>& sh, const carry::Split& split) {
  using Shared = RingShared<Input, P, S>;
  constexpr int kChannels = Shared::kChannels;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int slot = lane / P, j = lane % P;
  const int c = warp * Shared::kChannelsPerWarp + slot;
  const int segments = kCut ? split.segments : 1;
  const int slices = kSliced ? state_slices(args) : 1;
  const std::int64_t units = channel_blocks(args, kChannels) * slices, items = units * segments;
  ChannelOutputs<Input> to;
  to.slice_outputs =
      kSliced ? reinterpret_cast<float*>(static_cast<char*>(args.workspace) + slice_outputs_offset(args, segments))
              : nullptr;
  const ring::Pipeline<Shared::kStages> pipeline(sh.full, sh.empty);
  ring::RingPosition<Shared::kStages> take;  // the next slot to walk
  for (std::int64_t item = kCut ? sh.first_item : blockIdx.x; item < items; item += gridDim.x) {
    const WorkItem w(args, item, units, segments, slices);
    const BlockChannels at(args, w.group, kChannels);
    ChannelStates<K, P> ch = channel_of<K, P>(w, at, c, j);
    to.D = args.D ? args.D[ch.d] : 0.f;
    const float delta_bias = args.delta_bias ? args.delta_bias[ch.d] : 0.f;
    to.out = static_cast<Input*>(args.out.data) + at.b * args.out.batch_stride + ch.d * args.out.dim_stride;
    to.out_z = args.z.data ? static_cast<Input*>(args.out_z.data) + at.b * args.out_z.batch_stride +
                                 ch.d * args.out_z.dim_stride
                           : nullptr;
    // (Found from the channel's first row, not from each tile's: a pointer a tile cost the fp32
    // forward 3-5% at (1, 5120, 8192).)
    to.kept = ch.live && args.state_checkpoints ? args.state_checkpoints + kept_row(args, ch.bd, 0) : nullptr;
    load_states<kBVariable, kCVariable>(args, w, ch);

    if (w.segment + 1 < segments)
      summarize_segment<Input, K, P, S, kBVariable, kPacked>(args, sh, take, split, segments, w, at, ch, delta_bias);
    // Then h at the segment's start, from the summaries of every segment before it.
    if (w.segment > 0) {
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (ch.state(k) < args.dstate)
          ch.h[k] = carry::fold_summaries<kPacked>(split.words, segments, args.dstate, ch.bd, w.segment, ch.state(k),
                                                   ch.A2[k]);
    }

    // Pass 2: the outputs, from the segment's true starting state.
    SequenceCursor cursor = kPacked ? SequenceCursor(args, at.b, w.begin) : SequenceCursor();
    for (std::int64_t t0 = w.begin; t0 < w.end; t0 += kTile, take.advance()) {
      const int ring_slot = pipeline.wait(take);
      const int valid = int(std::min<std::int64_t>(kTile, args.seqlen - t0));
      const TileSequences sequences = tile_sequences<kPacked>(cursor, at, t0);
      // A tile with a sequence's start walks with restarts; the others as unpacked, a whole tile
      // without the test of each step's place.
      by_boundaries<kPacked>(sequences, [&](auto boundaries) {
        if constexpr (decltype(boundaries)::value)
          walk_output_tile<Input, K, P, kBVariable, kCVariable, kSliced, true, false>(args, sh, ring_slot, ch, to,
                                                                                      sequences, delta_bias, t0, valid);
        else if (valid == kTile)
          walk_output_tile<Input, K, P, kBVariable, kCVariable, kSliced, false, true>(args, sh, ring_slot, ch, to,
                                                                                      sequences, delta_bias, t0, valid);
        else
          walk_output_tile<Input, K, P, kBVariable, kCVariable, kSliced, false, false>(
              args, sh, ring_slot, ch, to, sequences, delta_bias, t0, valid);
      });
      // Chunk states: after steps kChunkLength - 1, 2 kChunkLength - 1, ... and the last.
      const std::int64_t t_end = t0 + valid - 1;
      if (ch.live && ((t_end + 1) % kChunkLength == 0 || t_end + 1 == args.seqlen)) {
#pragma unroll
        for (int k = 0; k < K; ++k)
          if (ch.state(k) < args.dstate)
            args.chunk_states[(ch.bd * args.chunks + t_end / kChunkLength) * args.dstate + ch.state(k)] = ch.h[k];
      }
      __syncwarp();  // before the next tile's staging overwrites steps
      pipeline.release(ring_slot);
    }
    if (ch.live && args.last_state && w.end == args.seqlen) {
      // The last sequence's: with packed sequences (batch 1) the last one's, else the channel's.
      const std::int64_t last = kPacked ? args.sequences - 1 : at.b;
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (ch.state(k) < args.dstate) args.last_state[sequence_state_index(args, last, ch.d, ch.state(k))] = ch.h[k];
    }
  }
}

#endif  // __CUDA_ARCH__ >= 900

// [snippet:ring_roles]
template <class Input, int K, int P, bool kBVariable, bool kCVariable, bool kCut, bool kSliced = false,
          bool kPacked = false>
__global__ __launch_bounds__(block_threads(tile_states(K, P)),
                             resident_blocks<Input, K, P>()) void ring_forward_kernel(ScanArgs args, bool bulk,
                                                                                      carry::Split split) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  constexpr int S = tile_states(K, P);
  using Shared = RingShared<Input, P, S>;
  extern __shared__ __align__(16) unsigned char shared_bytes[];
  Shared& sh = *reinterpret_cast<Shared*>(shared_bytes);
  // Rows of states past dstate stay 0 (A = 0 too, so those states stay 0 and add nothing).
  for (int i = threadIdx.x; i < Shared::kStages * S; i += blockDim.x) {
    typename Shared::TileType& tile = sh.tiles[i / S];
    for (int s = 0; s < Shared::TileType::kStateRow; ++s) tile.B[i % S][s] = tile.C[i % S][s] = 0.f;
  }
  if (threadIdx.x == 0) {
    // Full: the producer's lanes (and the bytes); empty: every consumer thread, done reading.
    ring::Pipeline<Shared::kStages>(sh.full, sh.empty).init(32, Shared::kConsumerWarps * 32);
    // Segments wait for the segments before them: a block claims its item in the order blocks
    // start, so whatever it waits for is already held by a running block (chapter 05's reason).
    if (kCut) sh.first_item = std::int64_t(atomicAdd(split.words, 1ull));
  }
  __syncthreads();
  if (threadIdx.x / 32 == Shared::kConsumerWarps)
    produce<Input, P, S, kBVariable, kCVariable, kCut, kSliced>(args, sh, bulk, split);
  else
    consume<Input, K, P, S, kBVariable, kCVariable, kCut, kSliced, kPacked>(args, sh, split);
#endif
}
// [/snippet:ring_roles]

using KernelPointer = void (*)(ScanArgs, bool, carry::Split);

template <class Input, int K, int P, bool kCut>
KernelPointer kernel_for_rows(const ScanArgs& args) {
  if (args.B.variable && args.C.variable) return ring_forward_kernel<Input, K, P, true, true, kCut>;
  if (args.B.variable) return ring_forward_kernel<Input, K, P, true, false, kCut>;
  return ring_forward_kernel<Input, K, P, false, true, kCut>;
}

// [snippet:few_states]
// A lane walks K states: per state and step a decay (a multiply, the four-term series, ex2 and a
// select) and the two updates of h and y; the staging, the sum over the channel's lanes and the
// output are its per-step work whatever K is. Laid out for 16 states, a call of 1 to 8 walked zeros
// in the rest, and one state took nearly as long as 16 (appendix A, "The measurements behind the
// library's rules"). So the lanes of a channel stay as many (P, which the channel count decides)
// and each walks only K = dstate / P states, rounded up to a power of two. Mamba's case, B and C
// both variable, has these layouts; calls with a constant B or C walk 16.
template <class Input, int P, bool kCut>
KernelPointer kernel_for_states(const ScanArgs& args) {
  constexpr int kWhole = kStates / P;
  const bool variable = args.B.variable && args.C.variable;
  if (variable && args.dstate <= P) return ring_forward_kernel<Input, 1, P, true, true, kCut>;
  if constexpr (kWhole > 2)
    if (variable && args.dstate <= 2 * P) return ring_forward_kernel<Input, 2, P, true, true, kCut>;
  return kernel_for_rows<Input, kWhole, P, kCut>(args);
}
// [/snippet:few_states]

// A kernel, the shared memory its ring takes and the channels of its blocks.
struct RingKernel {
  KernelPointer kernel;
  int shared_bytes, block_channels, threads;
};
template <class Input, int K, int P>
RingKernel ring_kernel(KernelPointer kernel) {
  using Shared = RingShared<Input, P, tile_states(K, P)>;
  return {kernel, int(sizeof(Shared)), Shared::kChannels, Shared::kThreads};
}

// [snippet:many_states]
// Past 16 states (B and C both variable) a lane walks K = 8 or 16 states and a tile holds the K P
// rows the layout walks. A tile of B and C is filled once for the whole block, so the layout is
// chosen for the channels that share it: sixteen channels a block (K = 16 of 8 lanes) beat four
// (K = 4 of 32) by far at 128 states. Past K = 16 the registers run out. At 32 and 64 states K = 8 won
// in bf16 and lost by as much in fp32; one layout for both types keeps the plan's count of blocks
// (ring_forward_items) free of the type. Past 128 states the block has eight walking warps
// (consumer_warps), sixteen channels on one ring, which beat four at 256 states in both types (the
// figures: appendix A, "The measurements behind the library's rules"). These layouts are not cut
// into segments (their cut kernels doubled the file's compile time): few channels take slices of 16
// states instead (forward_slices).
template <class Input>
RingKernel kernel_for_many_states(const ScanArgs& args) {
  if (args.dstate <= 32) return ring_kernel<Input, 8, 4>(ring_forward_kernel<Input, 8, 4, true, true, false>);
  if (args.dstate <= 64) return ring_kernel<Input, 8, 8>(ring_forward_kernel<Input, 8, 8, true, true, false>);
  if (args.dstate <= 128) return ring_kernel<Input, 16, 8>(ring_forward_kernel<Input, 16, 8, true, true, false>);
  return ring_kernel<Input, 16, 16>(ring_forward_kernel<Input, 16, 16, true, true, false>);
}
// [/snippet:many_states]

// A segment's pass 1 costs about half its pass 2, so a cut pays only where blocks would otherwise
// leave multiprocessors idle. Where they do, a block is alone on its multiprocessor, one warp to a
// scheduler, and waits out the latency of every instruction of its walk, walking a step more slowly
// than each of three blocks that share a multiprocessor. Shorter segments put more blocks on each
// multiprocessor, and even segments of 64 steps pay. Each segment reads the summaries of all the
// segments before it, so their number is bounded too (carry::forward_segments_for, which also cuts
// short calls into segments of one tile). And a cut pays only where the groups leave
// multiprocessors without a block: with one on each, two segments' blocks share a multiprocessor
// and pass 1 is pure cost. From 256 steps, segments of 64 beat version 4's forward. (The figures:
// appendix A, "The measurements behind the library's rules".)
constexpr std::int64_t kMinCutSteps = 256;

// The cut and the slices walk the 16-state layouts: their blocks have this many threads.
constexpr int kCutThreads = block_threads(kStates);

// Mamba's 16 states, as version 4 lays them out: K = 4 and four lanes a channel from 8192
// channels up, K = 2 and eight lanes below (more warps when there are few channels); between
// them, sixteen_lanes; past 16 states, kernel_for_many_states's layouts.
bool four_lanes(const ScanArgs& args) { return args.dstate <= kStates && args.batch * args.dim >= 8192; }

// [snippet:sixteen_lanes]
// With one or two blocks of eight lanes a channel on each multiprocessor, a scheduler has one or
// two warps, and each waits out the latency of its walk's every instruction; a cut does not pay
// there (pass 1 is pure cost, kMinCutSteps). Sixteen lanes a channel, one state each, give twice
// the warps, each with half the walk a step, for more instructions a channel step (the staging and
// the sums over a channel's lanes are shared by fewer states). Timed in one call, sixteen lanes won
// where the blocks of eight number one to one and a half a multiprocessor, and lost once the blocks
// of sixteen were more than fit at once (the figures: appendix A, "The measurements behind the
// library's rules"). So: B and C both variable, 9 to 16 states, and from one to one and a half
// blocks of eight lanes a multiprocessor, where the blocks of sixteen lanes, three on each at most,
// all run at once.
bool sixteen_lanes(const ScanArgs& args) {
  if (!(args.B.variable && args.C.variable) || args.dstate <= kStates / 2 || args.dstate > kStates) return false;
  const std::int64_t blocks = channel_blocks(args, RingShared<float, 8>::kChannels);
  return blocks >= multiprocessors() && 2 * blocks <= 3 * std::int64_t(multiprocessors());
}
// [/snippet:sixteen_lanes]

template <class Input, bool kCut>
RingKernel kernel_for(const ScanArgs& args) {
  if (args.dstate > kStates) return kernel_for_many_states<Input>(args);
  if (four_lanes(args)) return ring_kernel<Input, 4, 4>(kernel_for_states<Input, 4, kCut>(args));
  // Never cut: its blocks are more than the multiprocessors (launch_for).
  if constexpr (!kCut)
    if (sixteen_lanes(args)) return ring_kernel<Input, 1, 16>(ring_forward_kernel<Input, 1, 16, true, true, false>);
  return ring_kernel<Input, 2, 8>(kernel_for_states<Input, 8, kCut>(args));
}
// Packed sequences (B and C both variable, up to 16 states, ring_forward_refusal) take the
// 16-state layout of eight lanes a channel, built with the restarts (kPacked), cut or not.
template <class Input, bool kCut>
RingKernel packed_kernel() {
  return ring_kernel<Input, 2, 8>(ring_forward_kernel<Input, 2, 8, true, true, kCut, false, true>);
}
// A block's channels: the layout's, the same for every input type.
int block_channels(const ScanArgs& args) {
  return (args.cu_seqlens ? packed_kernel<float, false>() : kernel_for<float, false>(args)).block_channels;
}

// The slices (forward_slices): the 16-state layout of eight lanes a channel, cut, B and C both
// variable (ring_forward_refusal).
template <class Input>
RingKernel sliced_kernel() {
  return ring_kernel<Input, 2, 8>(ring_forward_kernel<Input, 2, 8, true, true, true, true>);
}
// A sliced call's units of work: its blocks of channels times its slices.
std::int64_t sliced_units(const ScanArgs& args) {
  return channel_blocks(args, sliced_kernel<float>().block_channels) * state_slices(args);
}
// Past 16 states, few channels and a sequence long enough to cut: the channel groups of that
// layout too few to give every multiprocessor a block, as at 16 states where the cut begins.
bool sliced(const ScanArgs& args) {
  return args.dstate > kStates && args.seqlen >= kMinCutSteps &&
         channel_blocks(args, sliced_kernel<float>().block_channels) < multiprocessors();
}

template <class Input>
RingLaunch launch_for(const ScanArgs& args) {
  RingLaunch p;
  const bool packed = args.cu_seqlens != nullptr;
  const RingKernel uncut = packed ? packed_kernel<Input, false>() : kernel_for<Input, false>(args);
  p.kernel = reinterpret_cast<const void*>(uncut.kernel);
  p.shared_bytes = uncut.shared_bytes;
  p.block_channels = uncut.block_channels;
  p.threads = uncut.threads;
  allow_shared_memory(p.kernel, p.shared_bytes);
  // Past 16 states the cut walks slices, always in two segments or more (the workspace holds the
  // slices' outputs only where the call is cut: forward_workspace_bytes > 0 means a cut).
  if (sliced(args)) {
    const RingKernel slices = sliced_kernel<Input>();
    allow_shared_memory(reinterpret_cast<const void*>(slices.kernel), slices.shared_bytes);
    const std::int64_t units = sliced_units(args);
    const std::int64_t places =
        std::int64_t(multiprocessors()) *
        blocks_per_multiprocessor(reinterpret_cast<const void*>(slices.kernel), kCutThreads, slices.shared_bytes);
    p.segments = int(std::max<std::int64_t>(2, carry::long_segments_for(places / units, args.seqlen)));
    p.cut_kernel = reinterpret_cast<const void*>(slices.kernel);
    p.cut_shared_bytes = slices.shared_bytes;
    return p;
  }
  // Four lanes are never cut: they start at 8192 channels, 256 groups, more than any GPU's
  // multiprocessors. Nor are other calls of more than 16 states (many_states).
  const std::int64_t groups = channel_blocks(args, p.block_channels);
  if ((four_lanes(args) && !packed) || args.dstate > kStates || groups >= multiprocessors() ||
      args.seqlen < kMinCutSteps)
    return p;
  // The places are the cut kernel's own: it takes more registers than the uncut one, and in
  // fp16 and bf16 fits three blocks a multiprocessor where the uncut one fits four. Counted with
  // the uncut kernel's four, a cut can make more blocks than fit, which then run in two rounds
  // (appendix A, "The measurements behind the library's rules").
  KernelPointer cut_kernel = packed ? packed_kernel<Input, true>().kernel : kernel_for<Input, true>(args).kernel;
  const std::int64_t places =
      std::int64_t(multiprocessors()) *
      blocks_per_multiprocessor(reinterpret_cast<const void*>(cut_kernel), kCutThreads, p.shared_bytes);
  const std::int64_t segments = carry::forward_segments_for(places / groups, args.seqlen, kTile);
  if (segments > 1) {
    p.segments = int(segments);
    p.cut_kernel = reinterpret_cast<const void*>(cut_kernel);
    p.cut_shared_bytes = p.shared_bytes;
    allow_shared_memory(p.cut_kernel, p.shared_bytes);
  }
  return p;
}

}  // namespace

bool rows_on_16_bytes(const ScanArgs& a, std::int64_t element_bytes, bool gradients) {
  const auto aligned = [&](const void* p, std::initializer_list<std::int64_t> strides) {
    if (reinterpret_cast<std::uintptr_t>(p) % 16 != 0) return false;
    for (std::int64_t s : strides)
      if (s * element_bytes % 16 != 0) return false;
    return true;
  };
  const auto sequence = [&](const void* data, std::int64_t batch_stride, std::int64_t dim_stride) {
    return !data || aligned(data, {batch_stride, dim_stride});
  };
  const auto rows = [&](const ProjectionArg& p) {
    return !p.variable || aligned(p.data, {p.batch_stride, p.group_stride, p.state_stride});
  };
  const bool inputs = sequence(a.delta.data, a.delta.batch_stride, a.delta.dim_stride) &&
                      sequence(a.u.data, a.u.batch_stride, a.u.dim_stride) &&
                      sequence(a.z.data, a.z.batch_stride, a.z.dim_stride) && rows(a.B) && rows(a.C);
  if (!inputs || !gradients) return inputs;
  return sequence(a.dout.data, a.dout.batch_stride, a.dout.dim_stride) &&
         (!a.z.data || sequence(a.out.data, a.out.batch_stride, a.out.dim_stride));
}

template <class Input>
void ring_forward(const ScanArgs& args, const RingLaunch& p, cudaStream_t stream) {
  // Without a workspace (an optional argument) the sequences are not cut.
  carry::Split split{1, nullptr};
  const void* kernel = p.kernel;
  int shared_bytes = p.shared_bytes;
  if (args.workspace && p.cut_kernel) {
    split = {p.segments, static_cast<carry::Word*>(args.workspace)};
    kernel = p.cut_kernel;
    shared_bytes = p.cut_shared_bytes;
    // The summaries' words (and the slices' outputs, which they add into) start at 0.
    SELECTIVE_SCAN_CHECK(cudaMemsetAsync(args.workspace, 0, ring_forward_workspace_bytes(args, p.segments), stream));
  }
  const std::int64_t items = ring_forward_items(args, split.segments);
  const int threads = kernel == p.cut_kernel ? kCutThreads : p.threads;
  reinterpret_cast<KernelPointer>(
      kernel)<<<unsigned(std::min<std::int64_t>(items, INT_MAX)), threads, shared_bytes, stream>>>(
      args, rows_on_16_bytes(args, sizeof(Input), false), split);
  SELECTIVE_SCAN_CHECK_LAUNCH();
  if (kernel == p.cut_kernel && sliced(args)) {
    const auto* outputs = reinterpret_cast<const float*>(static_cast<const char*>(args.workspace) +
                                                         slice_outputs_offset(args, split.segments));
    finish_sliced_outputs<Input>(args, outputs, stream);
  }
}

std::string ring_forward_refusal(const ScanArgs& args, bool is_complex) {
  if (is_complex) return "complex A";
  if (args.dstate > kStates && !(args.B.variable && args.C.variable)) return "dstate > 16 with a constant B or C";
  if (!(args.B.variable || args.C.variable)) return "B and C both constant";
  if (const std::string packed = ring_packed_refusal(args, kStates); !packed.empty()) return packed;
  return sm90_code_refusal(reinterpret_cast<const void*>(kernel_for_rows<float, 2, 8, false>(args)));
}

std::int64_t ring_forward_items(const ScanArgs& args, int segments) {
  if (segments > 1 && sliced(args)) return sliced_units(args) * segments;
  return channel_blocks(args, block_channels(args)) * segments;
}

std::size_t ring_forward_workspace_bytes(const ScanArgs& args, int segments) {
  if (segments <= 1) return 0;
  if (!sliced(args)) return carry::summary_bytes(args.batch * args.dim, args.dstate, segments);
  return std::size_t(slice_outputs_offset(args, segments)) +
         std::size_t(args.batch * args.dim * args.seqlen) * sizeof(float);
}

RingLaunch ring_forward_launch(const ScanArgs& args, DataType type) {
  switch (type) {
    case DataType::float32: return launch_for<float>(args);
    case DataType::float16: return launch_for<__half>(args);
    case DataType::bfloat16: return launch_for<__nv_bfloat16>(args);
  }
  return {};
}

template void ring_forward<float>(const ScanArgs&, const RingLaunch&, cudaStream_t);
template void ring_forward<__half>(const ScanArgs&, const RingLaunch&, cudaStream_t);
template void ring_forward<__nv_bfloat16>(const ScanArgs&, const RingLaunch&, cudaStream_t);

}  // namespace selective_scan::detail
