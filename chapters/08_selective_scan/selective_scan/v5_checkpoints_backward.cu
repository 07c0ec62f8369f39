// Version 5, backward: version 4's layout (K = 2 of a channel's 16 states a thread, P = 8 lanes a
// channel, four channels a warp; K = 1 up to 8 states with B and C both variable) with two
// exponentials per state and step instead of three.
// Version 4 walked each 2048-step chunk three times, each walk taking Abar = exp(delta A) anew:
// a sweep keeping h at every 32-step tile start, a recomputation of a tile's h into registers,
// and the walk backwards. Here
//   1. the sweep keeps h every kStretch = 8 steps (a checkpoint; in the workspace, a thread its
//      own, read back a stretch at a time); where the forward kept them (state_checkpoints) there
//      is no sweep, and the tiles read them from there;
//   2. for each stretch, last first, the recomputation keeps both Abar_t and Abar_t h_{t-1} of its
//      8 steps in registers (32 floats a thread: half of version 4's 64 for h alone), and the
//      walk backwards takes them from there: it needs h_t = Abar_t h_{t-1} + delta_t u_t B_t,
//      Abar_t h_{t-1} itself, and Abar_t, and no exponential.
// The walking threads load nothing from global memory themselves (Hopper). A block's 16 channels
// (one batch, one group: the same B and C rows) take their tiles from a ring of kStages slots in
// shared memory, filled a tile ahead by the tensor copy engine: as the block starts a tile, one
// thread asks for the next, a box of 32 steps x 16 rows of each input the walk reads (delta, u,
// dout, z, y; B, C), each box one instruction, completing on the slot's "full" mbarrier while
// the warps walk the tile before. Copies issued row by row, by the walking lanes, hid the loads
// as well but cost more instructions than they saved in fp16 and bf16 (PERFORMANCE.md).
// The per-tile staging (softplus, the gate, from the slot into shared memory) and the sums over
// states and over a warp's channels are version 4's; dB and dC are then summed over the block's
// four warps and added four steps to an atomic instruction. The values a lane keeps to finish its
// staged steps live in shared memory, not registers. When the channel groups are too few to fill
// the GPU, each sequence is cut into segments of whole tiles (or of whole chunks, where those are
// enough), one block each, as the forward cuts it (segment_carry.cuh). A segment needs two carries:
// q, the gradient that flows into its last step from the segments after it, and (unless the forward
// kept h) h at its first step, from the segments before it. So a cut backward is two launches of
// this kernel. In the first, each segment summarizes itself: a walk forwards for its end state from
// h = 0 (where h is not kept and segments follow), a walk backwards for the q leaving its first
// step from q = 0 (where segments precede). In the second, each segment folds the summaries of the
// others into its two carries and walks as an uncut sequence would, in pieces that end at its
// bounds and at the chunks' (where the forward's chunk states give h). A group whose channels do
// not fill whole blocks ends on a block with fewer (channel_blocks.hpp), taken by the same kernel
// as cut sequences. Past 16 states each slice of 16 is a block's work of its own (state_slices
// below), with B and C both variable. Real A, inputs whose rows start on 16 bytes, the atomic dB
// and dC, and sm_90 only; the launcher hands anything else to version 4's backward (or version 2's).
#include "channel_blocks.hpp"
#include "check.hpp"
#include "device_facts.hpp"
#include "device_math.cuh"
#include "packed_sequences.cuh"
#include "reductions.cuh"
#include "segment_carry.cuh"
#include "sequence_access.cuh"
#include "shared_ring.cuh"
#include "staged_rows.cuh"
#include "tensor_maps.hpp"
#include "v5_sliced_steps.cuh"
#include "warp_backward.cuh"

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace selective_scan::detail {
namespace {

constexpr int kWarps = 4;  // per block
constexpr int kThreads = kWarps * 32;
constexpr int kWholeK = 2, P = 8;           // states a thread, lanes a channel: 16 states
constexpr int kStates = kWholeK * P;        // a block's: a slice of the call's states
constexpr int kSlots = 32 / P;              // channels a warp
constexpr int kChannels = kWarps * kSlots;  // a block's, all of one batch and group
constexpr int kStretchesPerChunk = int(kChunkLength / kStretch);
constexpr int kStages = 2;  // slots in the ring
static_assert(kSlots == kGroup, "dB and dC of a group's four steps are spread over the warp's four channels");
static_assert(kChannels == kBoxRows && kStates == kBoxRows, "a tensor copy lands a slot's rows of one input");
static_assert(kStretch % kGroup == 0 && kTile % kStretch == 0, "a stretch is whole groups, a tile whole stretches");

// [snippet:backward_slot]
// The rows of one tile, as the tensor copies land them, a dense box each: per channel, delta, u,
// dout, z and the forward's pre-gate output y (tensor_maps.hpp: Row); per state, B and C (states
// past dstate arrive as 0, as do steps past the end).
template <class Input>
struct alignas(128) Slot {
  alignas(128) Input rows[kRows][kChannels][kTile];  // a box of 16 channels x 32 steps each
  alignas(128) Input B[kStates][kTile];
  alignas(128) Input C[kStates][kTile];
};
// What a walk needs of a tile: the sweep (delta, u, B), the gradients (all of them); of a cut
// sequence's summaries, the end state (delta, u, B: the sweep's) and the carry q (delta, dout,
// z, C).
enum class Walk { sweep, gradients, ends, carry };
// [/snippet:backward_slot]

// How a launch cuts the sequences: into `segments` (1: not cut), and whether it is the first of
// the cut's two launches, which writes the summaries the second folds.
struct Cut {
  int segments;
  int granule;  // steps the segments start on: a tile, or a chunk (then the chunk states give h)
  bool summarizing;
  float* summaries;
};
// Whether the first launch walks the segments forwards, for h at the next one's start: not
// where the forward kept h, nor where the segments start on chunks (the chunk states give it).
__host__ __device__ inline bool cut_walks_forwards(const ScanArgs& a, const Cut& cut) {
  return !a.state_checkpoints && cut.granule != kChunkLength;
}
// [snippet:backward_slices]
// Past 16 states a block walks one slice of 16 of them (state_slices, v5_sliced_steps.cuh), each
// slice its own block, since the states do not meet in the recurrence. They meet in two sums a
// step (over the states, for du and ddelta), which the slices add into the workspace's step_sums
// and finish_sliced_steps() finishes (kSliced, a kernel of its own: as a run-time branch it made
// the 16-state backward slower). Each slice stages its tiles' channel rows again;
// that is the price of walking them apart.
static_assert(kStates == kSliceStates, "a slice is the 16 states a block walks");
// A launch's units of work along the channels and states: its blocks of channels times its slices.
__host__ __device__ inline std::int64_t launch_units(const ScanArgs& a) {
  return channel_blocks(a, kChannels) * state_slices(a);
}
// [/snippet:backward_slices]
// The items of a launch: every unit's segments, but in a first launch that does not walk
// forwards, segment 0's, which has nothing to do (the items are ordered last segment first).
__host__ __device__ inline std::int64_t launch_items(const ScanArgs& a, const Cut& cut) {
  return launch_units(a) * (cut.summarizing && !cut_walks_forwards(a, cut) ? cut.segments - 1 : cut.segments);
}

// The B and C rows of the tile being walked, as fp32 (fp16 and bf16 converted) for the block's
// four warps, each row padded by 16 bytes: the P lanes of a channel read states j, j + P of the
// same steps, which in the dense box would all fall on the same banks.
struct ConvertedRows {
  alignas(16) float B[kStates][kTile + 4];
  alignas(16) float C[kStates][kTile + 4];
};

// Rows padded as in version 4. 68 KB a block in fp32, 54 KB in fp16 and bf16: three blocks a
// multiprocessor, as the 168 registers allow (`__launch_bounds__(128, 3)`: at (128, 4) the
// compiler kept 128 registers and spilled, and ran 4% slower). The checkpoints are sized for two
// states a thread; the one-state walk uses half.
constexpr std::int64_t kCheckpointsPerBlock = std::int64_t(kStretchesPerChunk) * kWholeK * kThreads;
template <class Input>
struct alignas(128) Shared {
  Slot<Input> slots[kStages];
  std::uint64_t full[kStages], empty[kStages];
  // Row lengths chosen for the banks: with rows of 36 (delta, delta u) pairs and of 40 dy, the
  // four channels of a warp read a step group on different banks; with dB and dC rows of 36,
  // the lanes writing states j, j + 8 at step tg + slot land on different banks too.
  float2 steps[kWarps][kSlots][kTile + 4];               // (delta, delta u) of each step
  float2 finish[kWarps][kSlots][kTile + 4];              // (u, d delta / d delta_raw) of each step
  float dy[kWarps][kSlots][kTile + 8];                   // dout, times silu(z) with a gate
  alignas(16) float sums[kWarps][kSlots][2][kTile + 4];  // per step: sum over states of A Abar h_{t-1} g, of g B
  alignas(16) float time_gradients[kWarps][2][kStates][kTile + 4];  // dB_t, dC_t of each warp's rows
  ConvertedRows converted;
};
static_assert(sizeof(Shared<float>) <= 74 * 1024 && sizeof(Shared<__half>) <= 74 * 1024,
              "three blocks a multiprocessor need at most 74 KB each (227 KB)");

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

constexpr int kStretchesPerTile = kTile / kStretch;
constexpr int kStepsPerLane = kTile / P;  // steps of a tile a lane stages

// A block's work item: up to 16 channels of one group (channel_blocks.hpp), a slice of 16 of
// their states and one segment of their sequences (whole tiles or whole chunks), the last
// segment's items first, and a block's slices one after another (they read the same channels).
struct Item {
  ChannelBlock block;  // its channels: block.count of them, 16 or fewer in a group's last block
  int state0;          // its first state
  int segment;
  std::int64_t t_begin, t_end;
  __device__ Item(const ScanArgs& a, std::int64_t item, const Cut& cut) {
    const std::int64_t units = launch_units(a), unit = item % units;
    block = channel_block(a, unit / state_slices(a), kChannels);
    state0 = int(unit % state_slices(a)) * kStates;
    segment = cut.segments - 1 - int(item / units);
    t_begin = carry::segment_begin(a.seqlen, cut.segments, segment, cut.granule);
    t_end = carry::segment_begin(a.seqlen, cut.segments, segment + 1, cut.granule);
  }
  __device__ std::int64_t last_tile() const { return t_begin + (t_end - t_begin - 1) / kTile * kTile; }
  // The piece of the segment that holds step t: its steps within t's chunk.
  __device__ std::int64_t piece_begin(std::int64_t t) const {
    return std::max(t_begin, t / kChunkLength * kChunkLength);
  }
  __device__ std::int64_t piece_end(std::int64_t t) const {
    return std::min(t_end, t / kChunkLength * kChunkLength + kChunkLength);
  }
  // The first launch's walks: forwards for the end state (where the segments after it need it),
  // backwards for q (the segments before it need it).
  __device__ bool summarizes_forwards(const ScanArgs& a, const Cut& cut) const {
    return cut_walks_forwards(a, cut) && segment + 1 < cut.segments;
  }
  __device__ bool summarizes_backwards() const { return segment > 0; }
};

// A tile of the block's work: which item (and where its rows are: the batch, the first channel,
// the group, the first state), where it starts and which walk takes it.
struct TileRef {
  std::int64_t item;  // < 0: none
  std::int64_t b, d0, group;
  int state0;
  std::int64_t t0;
  Walk walk;
};

// [snippet:backward_schedule]
// The order the walks take a block's tiles in, item after item. A first launch: the summary walks
// (forwards, then backwards). Otherwise piece by piece, last first, the sweep's tiles forwards and
// the gradients' backwards (with the forward's checkpoints, no sweep: the gradients' tiles run
// straight back through the segment). The ring is filled in this order, a tile ahead of the walks.
__device__ TileRef first_tile(const ScanArgs& a, std::int64_t item, const Cut& cut) {
  if (item >= launch_items(a, cut)) return {-1, 0, 0, 0, 0, 0, Walk::sweep};
  const Item w(a, item, cut);
  const auto at = [&](std::int64_t t0, Walk walk) {
    return TileRef{item, w.block.b, w.block.d0, w.block.group, w.state0, t0, walk};
  };
  if (cut.summarizing) {
    if (w.summarizes_forwards(a, cut)) return at(w.t_begin, Walk::ends);
    return at(w.last_tile(), Walk::carry);
  }
  if (a.state_checkpoints) return at(w.last_tile(), Walk::gradients);
  return at(w.piece_begin(w.last_tile()), Walk::sweep);
}
// The tile after t, of item w. Not inlined (nor is fill_slot): called once a tile, it then takes
// none of the walk's registers.
__device__ __noinline__ TileRef tile_after(const ScanArgs& a, const Item w, TileRef t, const Cut cut) {
  const auto at = [&](std::int64_t t0, Walk walk) { return TileRef{t.item, t.b, t.d0, t.group, t.state0, t0, walk}; };
  switch (t.walk) {
    case Walk::ends:
      if (t.t0 + kTile < w.t_end) return at(t.t0 + kTile, Walk::ends);
      if (w.summarizes_backwards()) return at(w.last_tile(), Walk::carry);
      break;
    case Walk::carry:
      if (t.t0 > w.t_begin) return at(t.t0 - kTile, Walk::carry);
      break;
    case Walk::sweep:
      if (t.t0 + kTile < w.piece_end(t.t0)) return at(t.t0 + kTile, Walk::sweep);
      return at(t.t0, Walk::gradients);  // the piece's last tile, now backwards
    case Walk::gradients: {
      const std::int64_t piece_t0 = a.state_checkpoints ? w.t_begin : w.piece_begin(t.t0);
      if (t.t0 > piece_t0) return at(t.t0 - kTile, Walk::gradients);
      if (piece_t0 > w.t_begin) return at(w.piece_begin(piece_t0 - 1), Walk::sweep);
      break;
    }
  }
  return first_tile(a, t.item + gridDim.x, cut);
}
// [/snippet:backward_schedule]

// [snippet:backward_fill]
// A tile into a slot: one thread asks the tensor copy engine for a box of 32 steps x 16 rows of
// each input the walk reads (rows past the ends arrive as 0), all counted off the slot's "full"
// barrier.
__device__ __forceinline__ void tensor_copy(void* destination, const CUtensorMap& map, std::uint64_t* barrier, int c0,
                                            int c1, int c2, int c3) {
  asm volatile(
      "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], "
      "[%6];" ::"r"(ring::shared_address(destination)),
      "l"(&map), "r"(c0), "r"(c1), "r"(c2), "r"(c3), "r"(ring::shared_address(barrier))
      : "memory");
}
template <class Input>
__device__ __noinline__ void fill_slot(const ScanArgs& args, const TensorMaps& maps, Slot<Input>& slot,
                                       std::uint64_t* full, TileRef t) {
  const bool has_z = args.z.data != nullptr;
  // The channel rows this walk reads: the sweep and the end state delta and u, the gradients all
  // (z and y with a gate), the carry delta, dout (and z).
  const bool forwards = t.walk == Walk::sweep || t.walk == Walk::ends;
  // (Past 16 states the gate's gradient is finish_sliced_steps()'s, and y is not read.)
  const bool read[kRows] = {true, t.walk != Walk::carry, !forwards, has_z && !forwards,
                            has_z && t.walk == Walk::gradients && state_slices(args) == 1};
  const bool with_B = args.B.variable && t.walk != Walk::carry;
  const bool with_C = args.C.variable && !forwards;
  constexpr unsigned kBox = kChannels * kTile * sizeof(Input);
  unsigned bytes = (with_B ? kBox : 0) + (with_C ? kBox : 0);
  for (int r = 0; r < kRows; ++r) bytes += read[r] ? kBox : 0;
  ring::arrive_expecting(full, bytes);
  const int t0 = int(t.t0), d0 = int(t.d0), b = int(t.b), group = int(t.group);
  for (int r = 0; r < kRows; ++r)
    if (read[r]) tensor_copy(slot.rows[r], maps.rows[r], full, t0, d0, b, 0);
  if (with_B) tensor_copy(slot.B, maps.B, full, t0, t.state0, group, b);
  if (with_C) tensor_copy(slot.C, maps.C, full, t0, t.state0, group, b);
}
// [/snippet:backward_fill]

// [snippet:backward_block_adds]
// A tile's dB and dC, summed over the block's four warps (its 16 channels share the B and C
// rows) and added four steps at a time: one 16-byte atomic add per (state, 4 steps) and block,
// a sixteenth of the atomic instructions that one add per step and warp took. The barrier waits
// for every warp's sums; the next tile's staging begins with one, before they are written again.
// Not inlined: called once a tile, it takes none of the walk's registers.
using TimeGradients = float[kWarps][2][kStates][kTile + 4];
__device__ __noinline__ void add_block_time_gradients(const ScanArgs& args, const TimeGradients& sums,
                                                      const TileRef& at, int valid, bool with_B, bool with_C) {
  constexpr int kQuads = kTile / 4;
  __syncthreads();
#pragma unroll
  for (int v = threadIdx.x; v < 2 * kStates * kQuads; v += kThreads) {
    const int quad = v % kQuads, n = v / kQuads % kStates, m = v / (kQuads * kStates);
    if (at.state0 + n >= args.dstate || 4 * quad >= valid || !(m == 0 ? with_B : with_C)) continue;
    float4 sum{0.f, 0.f, 0.f, 0.f};
#pragma unroll
    for (int w = 0; w < kWarps; ++w) {
      const float4 a = *reinterpret_cast<const float4*>(&sums[w][m][n][4 * quad]);
      sum.x += a.x, sum.y += a.y, sum.z += a.z, sum.w += a.w;
    }
    // dB and dC start on 16 bytes and seqlen is a multiple of 4 (checkpoints_backward_refusal): so
    // is `valid`, and every row of 4 steps is one aligned float4.
    float* to = (m == 0 ? args.dB : args.dC) +
                ((at.b * args.groups + at.group) * args.dstate + at.state0 + n) * args.seqlen + at.t0 + 4 * quad;
    atomicAdd(reinterpret_cast<float4*>(to), sum);
  }
}
// [/snippet:backward_block_adds]

// [snippet:backward_step_sums]
// Past 16 states: a warp's sums over its slice's states of one tile (per channel and step, the
// two that du and ddelta need) added into step_sums[(channel * 2 + m) * seqlen + t], four steps to
// an atomic instruction, for finish_sliced_steps() to finish. `channels` of the warp's four are
// the block's (fewer in a group's last block).
using WarpStepSums = float[kSlots][2][kTile + 4];
__device__ __forceinline__ void add_step_sums(std::int64_t seqlen, float* step_sums, const WarpStepSums& sums,
                                              std::int64_t first_channel, int channels, std::int64_t t0, int valid) {
  constexpr int kQuads = kTile / 4;
  __syncwarp();
#pragma unroll
  for (int v = threadIdx.x % 32; v < kSlots * 2 * kQuads; v += 32) {
    const int quad = v % kQuads, m = v / kQuads % 2, slot = v / (2 * kQuads);
    if (slot >= channels || 4 * quad >= valid) continue;
    float* to = step_sums + ((first_channel + slot) * 2 + m) * seqlen + t0 + 4 * quad;
    atomicAdd(reinterpret_cast<float4*>(to), *reinterpret_cast<const float4*>(&sums[slot][m][4 * quad]));
  }
}
// [/snippet:backward_step_sums]

// The backward's walk, one thread's part, in named pieces. BlockWalk is what stays the same for
// the launch: the call, its cut, the ring and the thread's place in the block. ItemWalk adds one
// work item: its channel, its per-state constants and the sums it gathers. Every member is
// inlined into the kernel, so the pieces are still one walk and their arrays stay in registers,
// as when they were closures of one function.
//
// kBothVariable: B and C both variable (Mamba's case), known when compiling, so that the constant
// B and C, their sums and their branches drop out of that kernel. kGeneral: the kernel that takes
// sequences cut into segments and a group's last block of fewer than 16 channels; in the other
// the summaries, the folds, the segments' bounds and the idle lanes' guards drop out, and the
// walk keeps the registers it had before there was a cut (in that kernel, as run-time branches,
// the cut made fp32 spill 132 bytes, and so did the guards on their own).
template <class Input, int K, bool kGeneral>
struct BlockWalk {
  const ScanArgs& args;
  const WorkspaceLayout& workspace;
  const TensorMaps& maps;
  Shared<Input>& sh;
  const Cut cut;
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int slot = lane / P, j = lane % P;  // channel slot in the warp, lane in the channel
  const int c = warp * kSlots + slot;       // the channel's place in the block
  float* const partials;
  // h before step s * kStretch of the chunk, state k: checkpoints[(s * K + k) * kThreads + threadIdx.x]
  float* const checkpoints;
  // [snippet:backward_ring]
  // The ring: where the tiles asked for so far and the tiles walked have got to. Taking a tile
  // first has thread 0 ask for the one after it (once every thread has let go of the slot it goes
  // to), then waits for its own.
  const ring::Pipeline<kStages> pipeline;
  ring::RingPosition<kStages> issued, taken;

  __device__ void issue(const TileRef& t) {
    if (t.item < 0) return;
    if (threadIdx.x == 0) {
      const int s = pipeline.acquire(issued);
      fill_slot(args, maps, sh.slots[s], pipeline.full_barrier(s), t);
    }
    issued.advance();
  }
  __device__ int take(const Item& w, const TileRef& t) {
    issue(tile_after(args, w, t, cut));
    const int s = pipeline.wait(taken);
    taken.advance();
    return s;
  }
  __device__ void release(int s) {
    __syncwarp();
    pipeline.release(s);
  }
  // [/snippet:backward_ring]

  __device__ BlockWalk(const ScanArgs& a, const WorkspaceLayout& layout, const Cut& launch_cut, const TensorMaps& m,
                       Shared<Input>& shared)
      : args(a),
        workspace(layout),
        maps(m),
        sh(shared),
        cut(kGeneral ? launch_cut : Cut{1, kTile, false, nullptr}),
        partials(static_cast<float*>(a.workspace)),
        checkpoints(partials + layout.total + blockIdx.x * kCheckpointsPerBlock),
        pipeline(shared.full, shared.empty) {}

  // This thread's rows of the slice: j, j + P, ..., so that the P lanes of a channel read P
  // neighbouring rows.
  __device__ int row_of(int k) const { return j + P * k; }
  // The steps of a tile this thread stages (and finishes): j + 8 i', i' = (i + slot) % 4. The
  // eight lanes of a channel take eight neighbouring steps (one 32-byte sector of an fp32
  // output), and the warp's four channels, whose rows in the slot start on the same bank, take
  // different eighths of them.
  __device__ int staged_step(int i) const { return j + P * ((i + slot) % kStepsPerLane); }
  __device__ float& checkpoint(int stretch, int k) const {
    return checkpoints[(stretch * K + k) * kThreads + threadIdx.x];
  }

  // The B (and C) rows of a slot, as fp32 into padded rows, once for the block (the copies land
  // them densely: read straight from there, the lanes of a channel would all hit the same
  // banks). The first barrier keeps the rows until every warp has walked the tile before; the
  // second makes them visible to every warp. The walks are the same for the whole block, so
  // every thread comes here with the same flags.
  __device__ void convert_rows(const Slot<Input>& tile, bool with_B, bool with_C) {
    constexpr int kPerVector = 16 / int(sizeof(Input));
    constexpr int kVectorsPerRow = kTile / kPerVector;
    __syncthreads();
#pragma unroll
    for (int v = threadIdx.x; v < 2 * kStates * kVectorsPerRow; v += kThreads) {
      const int piece = v % kVectorsPerRow, n = v / kVectorsPerRow % kStates;
      const bool is_B = v < kStates * kVectorsPerRow;
      if (!(is_B ? with_B : with_C)) continue;
      const uint4 raw = *reinterpret_cast<const uint4*>(&(is_B ? tile.B : tile.C)[n][piece * kPerVector]);
      float* to = (is_B ? sh.converted.B : sh.converted.C)[n] + piece * kPerVector;
      if constexpr (std::is_same_v<Input, float>) {
        *reinterpret_cast<uint4*>(to) = raw;
      } else {
        const Input* x = reinterpret_cast<const Input*>(&raw);
        *reinterpret_cast<float4*>(to) = {to_float(x[0]), to_float(x[1]), to_float(x[2]), to_float(x[3])};
        *reinterpret_cast<float4*>(to + 4) = {to_float(x[4]), to_float(x[5]), to_float(x[6]), to_float(x[7])};
      }
    }
    __syncthreads();
  }
};

// kPacked: the kernel for packed sequences (packed_sequences.cuh), whose walks restart where one
// begins, both ways; the others are built without it (a tile's boundaries are then none at
// compile time, and their code is what it was).
template <class Input, int K, bool kBothVariable, bool kGeneral, bool kSliced, bool kPacked>
struct ItemWalk {
  BlockWalk<Input, K, kGeneral>& launch;
  const ScanArgs& args;
  Shared<Input>& sh;
  const int warp, slot, j;
  const std::int64_t item;
  const Item w;
  const int segment, segments;
  // Lanes past the block's channels (a group's last block: the general kernel's) walk its first
  // channel with no output gradient, so that every gradient of theirs is 0 (their dB and dC add
  // nothing to the block's sums), and write nothing: `live` guards every store, `row` is the
  // channel they read.
  const bool live;
  const int row;
  const std::int64_t bd;
  const Channel<Input, false> ch;
  const bool B_var, C_var;
  float A[K], A2[K], B_const[K], C_const[K], dA[K], dB_sum[K], dC_sum[K], q[K];
  float dD = 0.f, ddelta_bias = 0.f;  // this lane's share: the steps it stages

  __device__ ItemWalk(BlockWalk<Input, K, kGeneral>& block_walk, std::int64_t item_index)
      : launch(block_walk),
        args(block_walk.args),
        sh(block_walk.sh),
        warp(block_walk.warp),
        slot(block_walk.slot),
        j(block_walk.j),
        item(item_index),
        w(block_walk.args, item_index, block_walk.cut),
        segment(w.segment),
        segments(block_walk.cut.segments),
        live(!kGeneral || block_walk.c < w.block.count),
        row(live ? block_walk.c : 0),
        bd(w.block.first + row),
        ch(block_walk.args, bd),
        B_var(kBothVariable || block_walk.args.B.variable),
        C_var(kBothVariable || block_walk.args.C.variable) {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int n = state(k);
      A[k] = A2[k] = B_const[k] = C_const[k] = dA[k] = dB_sum[k] = dC_sum[k] = q[k] = 0.f;
      if (n >= args.dstate) continue;  // A = B = C = 0: g and h stay 0
      A[k] = args.A[ch.d * args.A_dim_stride + n];
      A2[k] = log2_scaled(A[k]);
      // What enters the last step from after it (the last segment's; the others fold theirs).
      // Not for the lanes past a group's channels: their gradients must stay 0.
      if (live && args.dlast_state) q[k] = args.dlast_state[last_state_row(n)];
      if (!B_var) B_const[k] = static_cast<const float*>(args.B.data)[ch.d * args.B.dim_stride + n];
      if (!C_var) C_const[k] = static_cast<const float*>(args.C.data)[ch.d * args.C.dim_stride + n];
    }
  }

  __device__ TileRef tile_ref(std::int64_t t0, Walk walk) const {
    return TileRef{item, w.block.b, w.block.d0, w.block.group, w.state0, t0, walk};
  }
  // This thread's states of the call.
  __device__ int state(int k) const { return (kSliced ? w.state0 : 0) + launch.row_of(k); }
  // Where state n of the call's last sequence ends: the channel's own row without packing.
  __device__ std::int64_t last_state_row(int n) const {
    return kPacked ? ch.state_index(ch.last_sequence(), n) : ch.state_index(n);
  }
  // Cursors over packed sequences' boundaries (packed_sequences.cuh), for walks forwards from
  // step t0 and backwards from the item's last step: one search of the offsets a walk, then one
  // read a boundary. sequences_at hands out the next tile's boundaries (none, at compile time,
  // without packing).
  __device__ SequenceCursor forwards_from(std::int64_t t0) const {
    return kPacked ? SequenceCursor(args, 0, t0) : SequenceCursor();
  }
  __device__ ReverseSequenceCursor backwards() const {
    return kPacked ? ReverseSequenceCursor(args, 0, w.t_end - 1) : ReverseSequenceCursor();
  }
  template <class Cursor>
  __device__ TileSequences sequences_at(Cursor& cursor, std::int64_t t0) const {
    if constexpr (kPacked)
      return cursor.template tile<kTile>(t0);
    else
      return TileSequences{0u, w.block.b};
  }
  // The state step s of a tile goes on from: h, or where the step begins a packed sequence, that
  // sequence's initial state (0 without one). kBoundaries: the tile may hold a sequence's start
  // (else h, at compile time: most tiles of packed sequences walk as unpacked ones).
  template <bool kBoundaries>
  __device__ float continued(float h, const TileSequences& sequences, int s, int k) const {
    if (!kBoundaries || !sequences.begins_at(s)) return h;
    return state(k) < args.dstate ? ch.initial_state(sequences.sequence(s), state(k)) : 0.f;
  }
  // The q that leaves step s of a tile for the step before: q itself, or where s begins a packed
  // sequence, the gradient of the last state of the sequence before (0 without one), q being the
  // gradient of this sequence's initial state, stored with `stores`.
  template <bool kBoundaries>
  __device__ float restarted(float q_k, const TileSequences& sequences, int s, int k, bool stores) const {
    if (!kBoundaries || !sequences.begins_at(s)) return q_k;
    if (!live || state(k) >= args.dstate) return 0.f;  // idle lanes' gradients stay 0
    const std::int64_t q = sequences.sequence(s);
    if (stores && args.dinitial_state) args.dinitial_state[ch.state_index(q, state(k))] = q_k;
    return ch.last_state_gradient(q - 1, state(k));
  }
  // With a cut, several blocks add into a channel's partial sums (zeroed by the launcher).
  __device__ void put(float* partial, float value) const {
    if (segments > 1)
      atomicAdd(partial, value);
    else
      *partial = value;
  }
  // This segment's summary in one direction, row `summary_row` (segment_carry.cuh).
  __device__ float& summary(carry::Direction direction, int summary_row) const {
    return launch.cut
        .summaries[carry::backward_summary_index(segments, args.dstate, bd, segment, direction, summary_row)];
  }

  // One tile's (delta, delta u) into shared memory, and with `backwards` also dy and what
  // finishing the steps needs; 0 past the end.
  __device__ void stage(const Slot<Input>& tile, std::int64_t t0, bool backwards) {
#pragma unroll
    for (int i = 0; i < kStepsPerLane; ++i) {
      const int s = launch.staged_step(i);
      const std::int64_t t = t0 + s;
      float2 v{0.f, 0.f}, kept{0.f, 0.f};
      float dy = 0.f;
      if (t < args.seqlen) {
        const float x = to_float(tile.rows[kDelta][row][s]) + ch.delta_bias;
        const bool soft = args.delta_softplus && x <= 20.f;
        const float delta = args.delta_softplus ? softplus(x) : x;
        const float u = to_float(tile.rows[kU][row][s]);
        v = {delta, delta * u};
        if (backwards) {
          dy = live ? to_float(tile.rows[kDout][row][s]) : 0.f;
          if (ch.z) {  // dz = dout y silu'(z) with y the forward's pre-gate output; dy = dout silu(z)
            const float z = to_float(tile.rows[kZ][row][s]);
            if (live && !kSliced) {
              const float y = to_float(tile.rows[kOut][row][s]);
              ch.template sequence<Input>(args.dz)[t] = from_float<Input>(dy * y * silu_derivative(z));
            }
            dy *= silu(z);
          }
          kept = {u, soft ? sigmoid(x) : 1.f};
          dD += dy * u;
        }
      }
      sh.steps[warp][slot][s] = v;
      if (backwards) sh.finish[warp][slot][s] = kept, sh.dy[warp][slot][s] = dy;
    }
    launch.convert_rows(tile, B_var, backwards && C_var);
    __syncwarp();
  }

  // [snippet:backward_rows]
  // B or C of steps g ... g + 3 for this thread's states: fp32 rows (straight from the slot, or
  // the block's converted fp16 and bf16 rows), or the constant.
  __device__ void read_matrix(const float (&rows)[kStates][kTile + 4], bool variable, const float (&constant)[K], int g,
                              float (&out)[K][kGroup]) const {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      float4 v{constant[k], constant[k], constant[k], constant[k]};
      if (variable) v = *reinterpret_cast<const float4*>(&rows[launch.row_of(k)][g]);
      out[k][0] = v.x, out[k][1] = v.y, out[k][2] = v.z, out[k][3] = v.w;
    }
  }
  // [/snippet:backward_rows]
  __device__ void read_B(int g, float (&B)[K][kGroup]) const { read_matrix(sh.converted.B, B_var, B_const, g, B); }
  __device__ void read_C(int g, float (&C)[K][kGroup]) const { read_matrix(sh.converted.C, C_var, C_const, g, C); }

  // [snippet:checkpoints_sweep]
  // A tile walked forwards: h through its steps and the sum of their delta; with `keep`, h
  // before each of its stretches into the block's checkpoints, from stretch `first` on.
  template <bool kBoundaries>
  __device__ void sweep_tile(float (&h)[K], float& delta_sum, bool keep, int first,
                             const TileSequences& sequences) const {
#pragma unroll
    for (int g = 0; g < kTile; g += kGroup) {
      if (keep && g % kStretch == 0) {
#pragma unroll
        for (int k = 0; k < K; ++k) launch.checkpoint(first + g / kStretch, k) = h[k];
      }
      float B[K][kGroup];
      read_B(g, B);
#pragma unroll
      for (int s = 0; s < kGroup; s += 2) {
        const float4 two = *reinterpret_cast<const float4*>(&sh.steps[warp][slot][g + s]);
        const float delta[2] = {two.x, two.z}, delta_u[2] = {two.y, two.w};
#pragma unroll
        for (int e = 0; e < 2; ++e) {
          delta_sum += delta[e];
#pragma unroll
          for (int k = 0; k < K; ++k)
            h[k] = exp2_delta_A<Input>(delta[e], A2[k]) * continued<kBoundaries>(h[k], sequences, g + s + e, k) +
                   delta_u[e] * B[k][s + e];
        }
      }
    }
  }
  // [/snippet:checkpoints_sweep]
  __device__ void sweep_tile(float (&h)[K], float& delta_sum, bool keep, int first,
                             const TileSequences& sequences) const {
    by_boundaries<kPacked>(sequences, [&](auto boundaries) {
      sweep_tile<decltype(boundaries)::value>(h, delta_sum, keep, first, sequences);
    });
  }

  // [snippet:checkpoints_summaries]
  // The first launch of a cut: the segment's summaries, walked from h = 0 and from q = 0, for
  // the second launch to fold. Forwards, the state at its end (segment 0: from the initial
  // state); backwards, the q leaving its first step.
  __device__ void summarize_forwards() {
    float h[K], delta_sum = 0.f;
#pragma unroll
    for (int k = 0; k < K; ++k)
      h[k] = segment == 0 && args.initial_state && state(k) < args.dstate ? args.initial_state[ch.state_index(state(k))]
                                                                          : 0.f;
    bool restarts = false;  // where a packed sequence begins, no state passes: an infinite sum
    SequenceCursor cursor = forwards_from(w.t_begin);
    for (std::int64_t t0 = w.t_begin; t0 < w.t_end; t0 += kTile) {
      const int ring_slot = launch.take(w, tile_ref(t0, Walk::ends));
      stage(sh.slots[ring_slot], t0, false);
      const TileSequences sequences = sequences_at(cursor, t0);
      restarts = restarts || sequences.begins;
      sweep_tile(h, delta_sum, false, 0, sequences);
      launch.release(ring_slot);
    }
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (live && state(k) < args.dstate) summary(carry::kForwards, state(k)) = h[k];
    if (live && j == 0 && w.state0 == 0) summary(carry::kForwards, args.dstate) = restarts ? INFINITY : delta_sum;
  }
  // The last segment walks from the caller's gradient of the last state, as segment 0's forward
  // summary walks from the initial state.
  __device__ void summarize_backwards() {
    float back[K] = {}, delta_sum = 0.f;
    if (segment + 1 == segments && live && args.dlast_state)
#pragma unroll
      for (int k = 0; k < K; ++k)
        if (state(k) < args.dstate) back[k] = args.dlast_state[last_state_row(state(k))];
    bool restarts = false;  // as summarize_forwards
    ReverseSequenceCursor cursor = backwards();
    for (std::int64_t t0 = w.last_tile(); t0 >= w.t_begin; t0 -= kTile) {
      const int ring_slot = launch.take(w, tile_ref(t0, Walk::carry));
      const Slot<Input>& tile = sh.slots[ring_slot];
      const TileSequences sequences = sequences_at(cursor, t0);
      restarts = restarts || sequences.begins;
      // (delta, dout times the gate) of each step, 0 past the end, and the C rows.
#pragma unroll
      for (int i = 0; i < kStepsPerLane; ++i) {
        const int s = launch.staged_step(i);
        float2 v{0.f, 0.f};
        if (t0 + s < args.seqlen) {
          const float x = to_float(tile.rows[kDelta][row][s]) + ch.delta_bias;
          v = {args.delta_softplus ? softplus(x) : x, to_float(tile.rows[kDout][row][s])};
          if (ch.z) v.y *= silu(to_float(tile.rows[kZ][row][s]));
        }
        sh.steps[warp][slot][s] = v;
      }
      launch.convert_rows(tile, false, C_var);
      __syncwarp();
      by_boundaries<kPacked>(sequences, [&](auto boundaries) {
#pragma unroll
        for (int g = kTile - kGroup; g >= 0; g -= kGroup) {
          float C[K][kGroup];
          read_C(g, C);
#pragma unroll
          for (int s = kGroup - 1; s >= 0; --s) {
            const float2 step = sh.steps[warp][slot][g + s];
            delta_sum += step.x;
#pragma unroll
            for (int k = 0; k < K; ++k)
              back[k] = restarted<decltype(boundaries)::value>(
                  exp2_delta_A<Input>(step.x, A2[k]) * fmaf(step.y, C[k][s], back[k]), sequences, g + s, k, false);
          }
        }
      });
      launch.release(ring_slot);
    }
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (live && state(k) < args.dstate) summary(carry::kBackwards, state(k)) = back[k];
    if (live && j == 0 && w.state0 == 0) summary(carry::kBackwards, args.dstate) = restarts ? INFINITY : delta_sum;
  }
  // [/snippet:checkpoints_summaries]

  // The second launch: q at the segment's end, from the summaries of the segments after it.
  __device__ void fold_gradient_after() {
    if (!live || segment + 1 >= segments) return;
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (state(k) < args.dstate)
        q[k] = carry::fold_backward<kPacked>(launch.cut.summaries, segments, args.dstate, bd, segment,
                                             carry::kBackwards, state(k), A2[k]);
  }

  // h at a piece's start: the forward's state at a chunk's start (or the initial state), or,
  // where a segment starts within a chunk, the summaries of the segments before it folded.
  __device__ void piece_start_state(std::int64_t piece_t0, float (&h)[K]) const {
#pragma unroll
    for (int k = 0; k < K; ++k) {
      h[k] = 0.f;
      if (state(k) >= args.dstate || args.state_checkpoints) continue;
      const std::int64_t chunk = piece_t0 / kChunkLength;
      if (piece_t0 % kChunkLength != 0)
        h[k] = carry::fold_backward<kPacked>(launch.cut.summaries, segments, args.dstate, bd, segment, carry::kForwards,
                                             state(k), A2[k]);
      else if (chunk > 0)
        h[k] = args.chunk_states[ch.chunk_state_index(chunk - 1, state(k))];
      else if (args.initial_state)
        h[k] = args.initial_state[ch.state_index(state(k))];
    }
  }

  // [snippet:checkpoints_kept]
  // A tile's checkpoints, read before its staging so that their trip overlaps it: the sweep's, or
  // the forward's (0 past the end and past dstate, where nothing reads them).
  __device__ void read_checkpoints(std::int64_t t0, int tile_index, float (&start)[kStretchesPerTile][K]) const {
    if (args.state_checkpoints) {
      const float* kept = args.state_checkpoints + kept_row(args, bd, t0);
#pragma unroll
      for (int st = 0; st < kStretchesPerTile; ++st)
#pragma unroll
        for (int k = 0; k < K; ++k)
          start[st][k] =
              state(k) < args.dstate && t0 + st * kStretch < args.seqlen ? kept[st * args.dstate + state(k)] : 0.f;
    } else {
#pragma unroll
      for (int st = 0; st < kStretchesPerTile; ++st)
#pragma unroll
        for (int k = 0; k < K; ++k) start[st][k] = launch.checkpoint(tile_index * kStretchesPerTile + st, k);
    }
  }
  // [/snippet:checkpoints_kept]

  // [snippet:checkpoints_recompute]
  // Abar_t and Abar_t h_{t-1} of the stretch's steps (from s0 in the tile), from its checkpoint.
  template <bool kBoundaries>
  __device__ void recompute_stretch(int s0, const float (&start)[K], const TileSequences& sequences,
                                    float (&decay_at)[kStretch][K], float (&carried)[kStretch][K]) const {
    float h[K];
#pragma unroll
    for (int k = 0; k < K; ++k) h[k] = start[k];
#pragma unroll
    for (int g = 0; g < kStretch; g += kGroup) {
      float B[K][kGroup];
      read_B(s0 + g, B);
#pragma unroll
      for (int s = 0; s < kGroup; s += 2) {
        const float4 two = *reinterpret_cast<const float4*>(&sh.steps[warp][slot][s0 + g + s]);
        const float delta[2] = {two.x, two.z}, delta_u[2] = {two.y, two.w};
#pragma unroll
        for (int e = 0; e < 2; ++e)
#pragma unroll
          for (int k = 0; k < K; ++k) {
            const int i = g + s + e;
            decay_at[i][k] = exp2_delta_A<Input>(delta[e], A2[k]);
            carried[i][k] = decay_at[i][k] * continued<kBoundaries>(h[k], sequences, s0 + i, k);
            h[k] = carried[i][k] + delta_u[e] * B[k][s + e];
          }
      }
    }
  }
  // [/snippet:checkpoints_recompute]

  // [snippet:checkpoints_step]
  // The stretch's gradients, its step groups last first: q carried back through each step, dA
  // summed, dB and dC of each step, and the two sums over states that du and ddelta need.
  template <bool kBoundaries>
  __device__ void stretch_gradients(int s0, const TileSequences& sequences, const float (&decay_at)[kStretch][K],
                                    const float (&carried)[kStretch][K]) {
#pragma unroll
    for (int g = kStretch - kGroup; g >= 0; g -= kGroup) {
      const int tg = s0 + g;  // the group's first step in the tile
      float B[K][kGroup], C[K][kGroup];
      read_B(tg, B);
      read_C(tg, C);
      const float4 two0 = *reinterpret_cast<const float4*>(&sh.steps[warp][slot][tg]);
      const float4 two1 = *reinterpret_cast<const float4*>(&sh.steps[warp][slot][tg + 2]);
      const float4 dy4 = *reinterpret_cast<const float4*>(&sh.dy[warp][slot][tg]);
      const float delta[kGroup] = {two0.x, two0.z, two1.x, two1.z};
      const float delta_u[kGroup] = {two0.y, two0.w, two1.y, two1.w};
      const float dy[kGroup] = {dy4.x, dy4.y, dy4.z, dy4.w};
      float step_sums[2 * kGroup] = {};  // sum over states of A Abar h_{t-1} g, then of g B
      float dB[K][kGroup], dC[K][kGroup];
#pragma unroll
      for (int s = kGroup - 1; s >= 0; --s) {
        const int i = g + s;  // the step in the stretch
#pragma unroll
        for (int k = 0; k < K; ++k) {
          const float grad = fmaf(dy[s], C[k][s], q[k]);             // g_t
          const float h_now = carried[i][k] + delta_u[s] * B[k][s];  // h_t, as the recomputation had it
          const float gh = grad * carried[i][k];
          dA[k] = fmaf(delta[s], gh, dA[k]);
          step_sums[s] = fmaf(A[k], gh, step_sums[s]);
          step_sums[kGroup + s] = fmaf(grad, B[k][s], step_sums[kGroup + s]);
          dB[k][s] = delta_u[s] * grad;
          dC[k][s] = dy[s] * h_now;
          q[k] = restarted<kBoundaries>(decay_at[i][k] * grad, sequences, tg + s, k, true);
        }
      }
      // Lane j of the channel ends with value j: the sums of step j (j < 4) or of step j - 4.
      const float summed = reduce_scatter<2 * kGroup, 1>(step_sums);
      sh.sums[warp][slot][j / kGroup][tg + j % kGroup] = summed;
      // Channel slot s of the warp ends with step tg + s of the four channels' dB, dC.
#pragma unroll
      for (int k = 0; k < K; ++k) {
        if (B_var)
          sh.time_gradients[warp][0][launch.row_of(k)][tg + slot] = reduce_scatter<kGroup, P>(dB[k]);
        else
          for (int s = 0; s < kGroup; ++s) dB_sum[k] += dB[k][s];
        if (C_var)
          sh.time_gradients[warp][1][launch.row_of(k)][tg + slot] = reduce_scatter<kGroup, P>(dC[k]);
        else
          for (int s = 0; s < kGroup; ++s) dC_sum[k] += dC[k][s];
      }
    }
  }
  // [/snippet:checkpoints_step]
  // A tile's stretches, last first, each from its checkpoint.
  template <bool kBoundaries>
  __device__ void tile_gradients(const float (&start)[kStretchesPerTile][K], const TileSequences& sequences) {
#pragma unroll
    for (int st = kStretchesPerTile - 1; st >= 0; --st) {
      float decay_at[kStretch][K], carried[kStretch][K];
      recompute_stretch<kBoundaries>(st * kStretch, start[st], sequences, decay_at, carried);
      stretch_gradients<kBoundaries>(st * kStretch, sequences, decay_at, carried);
    }
  }

  // After a tile's stretches: its dB and dC into the block's sums, and its steps finished (du and
  // ddelta), or past 16 states their sums over this slice's states added for
  // finish_sliced_steps().
  __device__ void finish_tile(std::int64_t t0, float* step_sums) {
    const int valid = int(std::min<std::int64_t>(kTile, args.seqlen - t0));
    add_block_time_gradients(args, sh.time_gradients, tile_ref(t0, Walk::gradients), valid, B_var, C_var);
    if constexpr (kSliced) {
      add_step_sums(args.seqlen, step_sums, sh.sums[warp], w.block.first + warp * kSlots, w.block.count - warp * kSlots,
                    t0, valid);
    } else {
      // Finish the steps this lane staged.
#pragma unroll
      for (int i = 0; i < kStepsPerLane; ++i) {
        const int s = launch.staged_step(i);
        if (!live || s >= valid) continue;
        const float sum_Ahg = sh.sums[warp][slot][0][s], sum_gB = sh.sums[warp][slot][1][s];
        const float2 kept = sh.finish[warp][slot][s];
        const float ddelta = kept.y * (sum_Ahg + kept.x * sum_gB);
        ddelta_bias += ddelta;
        ch.template sequence<Input>(args.du)[t0 + s] =
            from_float<Input>(ch.D * sh.dy[warp][slot][s] + sh.steps[warp][slot][s].x * sum_gB);
        ch.template sequence<Input>(args.ddelta)[t0 + s] = from_float<Input>(ddelta);
      }
    }
    __syncwarp();
  }

  // Pass 2: the gradients, piece by piece (the segment's steps within one chunk), last first.
  // With the forward's checkpoints (state_checkpoints: the channel's rows of dstate, one per
  // stretch) there is no sweep: the tiles read their checkpoints from there, and the segment is
  // one piece.
  __device__ void gradients(float* step_sums) {
    ReverseSequenceCursor back = backwards();  // the tiles' walk back, across the pieces
    for (std::int64_t piece_end = w.t_end; piece_end > w.t_begin;) {
      const std::int64_t piece_t0 = args.state_checkpoints ? w.t_begin : w.piece_begin(piece_end - 1);
      const int tiles = int((piece_end - piece_t0 + kTile - 1) / kTile);
      // 1. The sweep: h before every stretch of the piece, from h at its start.
      float h[K];
      piece_start_state(piece_t0, h);
      SequenceCursor sweep = forwards_from(piece_t0);
      for (int tile_index = 0; tile_index < (args.state_checkpoints ? 0 : tiles); ++tile_index) {
        const std::int64_t t0 = piece_t0 + tile_index * kTile;
        const int ring_slot = launch.take(w, tile_ref(t0, Walk::sweep));
        stage(sh.slots[ring_slot], t0, false);
        float unused = 0.f;
        sweep_tile(h, unused, true, tile_index * kStretchesPerTile, sequences_at(sweep, t0));
        launch.release(ring_slot);
      }
      // 2. The tiles backwards, and in each tile its stretches backwards.
      for (int tile_index = tiles - 1; tile_index >= 0; --tile_index) {
        const std::int64_t t0 = piece_t0 + tile_index * kTile;
        const int ring_slot = launch.take(w, tile_ref(t0, Walk::gradients));
        float start[kStretchesPerTile][K];
        read_checkpoints(t0, tile_index, start);
        stage(sh.slots[ring_slot], t0, true);
        const TileSequences sequences = sequences_at(back, t0);
        by_boundaries<kPacked>(sequences,
                               [&](auto boundaries) { tile_gradients<decltype(boundaries)::value>(start, sequences); });
        launch.release(ring_slot);
        finish_tile(t0, step_sums);
      }
      piece_end = piece_t0;
    }
  }

  // The channel's sums: per state from its thread, per channel over its 8 lanes.
  __device__ void add_channel_sums() {
    const WorkspaceLayout& workspace = launch.workspace;
    float* const partials = launch.partials;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      if (!live || state(k) >= args.dstate) continue;
      const std::int64_t at = bd * args.dstate + state(k);
      put(partials + workspace.dA + at, dA[k]);
      if (!B_var) put(partials + workspace.dB_const + at, dB_sum[k]);
      if (!C_var) put(partials + workspace.dC_const + at, dC_sum[k]);
      if (args.dinitial_state && segment == 0) args.dinitial_state[ch.state_index(state(k))] = q[k];
    }
#pragma unroll
    for (int offset = P / 2; offset > 0; offset /= 2) {
      dD += __shfl_xor_sync(0xffffffffu, dD, offset);
      ddelta_bias += __shfl_xor_sync(0xffffffffu, ddelta_bias, offset);
    }
    if (live && j == 0 && !kSliced) {
      put(partials + workspace.dD + bd, dD);
      put(partials + workspace.ddelta_bias + bd, ddelta_bias);
    }
  }
};

// A block's walk: its items one after another, the ring a tile ahead of them throughout.
template <class Input, int K, bool kBothVariable, bool kGeneral, bool kSliced, bool kPacked>
__device__ void walk_backward(const ScanArgs& args, const WorkspaceLayout& workspace, const Cut& launch_cut,
                              float* step_sums, const TensorMaps& maps, Shared<Input>& sh) {
  BlockWalk<Input, K, kGeneral> launch(args, workspace, launch_cut, maps, sh);
  launch.issue(first_tile(args, blockIdx.x, launch.cut));
  for (std::int64_t item = blockIdx.x; item < launch_items(args, launch.cut); item += gridDim.x) {
    ItemWalk<Input, K, kBothVariable, kGeneral, kSliced, kPacked> walk(launch, item);
    if (launch.cut.summarizing) {
      if (walk.w.summarizes_forwards(args, launch.cut)) walk.summarize_forwards();
      if (walk.w.summarizes_backwards()) walk.summarize_backwards();
      continue;
    }
    walk.fold_gradient_after();
    walk.gradients(step_sums);
    walk.add_channel_sums();
  }
}

#endif  // __CUDA_ARCH__ >= 900

template <class Input, int K, bool kBothVariable, bool kGeneral, bool kSliced, bool kPacked = false>
__global__ __launch_bounds__(kThreads, 3) void checkpoints_backward_kernel(const __grid_constant__ ScanArgs args,
                                                                           WorkspaceLayout workspace, Cut cut,
                                                                           float* step_sums,
                                                                           const __grid_constant__ TensorMaps maps) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  // The tensor copies land on 128-byte boundaries. sizeof(Shared): over the 48 KB of static memory.
  extern __shared__ __align__(128) unsigned char shared_bytes[];
  Shared<Input>& sh = *reinterpret_cast<Shared<Input>*>(shared_bytes);
  // Full: the thread that asks for the copies (and their bytes); empty: every thread, done reading.
  if (threadIdx.x == 0) ring::Pipeline<kStages>(sh.full, sh.empty).init(1, kThreads);
  __syncthreads();
  walk_backward<Input, K, kBothVariable, kGeneral, kSliced, kPacked>(args, workspace, cut, step_sums, maps, sh);
#endif
}

// The grid, and how many segments each sequence is cut into. As many blocks as fit on the device
// at once, each taking units (channel groups, times state slices past 16 states) in turn (or one
// work item each, when the sequences are cut): every block needs its own checkpoints (256 KB), and more blocks than run at once would
// only need more. The same for every input type (the workspace is sized before the type is
// known): fp32's occupancy, three blocks a multiprocessor, which the 16-bit types' smaller
// blocks reach too.
// [snippet:backward_cut_rule]
// A cut as the forward's (v5_ring_forward.cu): segments of at least 64 steps, or of one tile
// where they all fit (carry::backward_segments_for), at most 64 of them, from 512 steps on,
// and from 256 where the groups leave multiprocessors without a block (the forward's rule: at
// 256 steps a cut paid with 64 groups and cost with 192). But where segments of whole chunks
// would already give blocks to half the places, the segments start on chunks: the forward's
// chunk states then give h at each start, and the first launch walks backwards only; that beat
// segments of tiles, and where chunks are too few, tiles beat both chunks and no cut (the
// figures: appendix A, "The measurements behind the library's rules").
constexpr std::int64_t kMinCutSteps = 512, kMinShortCutSteps = 256;
BackwardGrid grid_for(const ScanArgs& args) {
  const int per_multiprocessor = blocks_per_multiprocessor(
      reinterpret_cast<const void*>(checkpoints_backward_kernel<float, kWholeK, true, false, false>), kThreads,
      int(sizeof(Shared<float>)));
  const std::int64_t units = launch_units(args);
  const std::int64_t places = std::max<std::int64_t>(1, std::int64_t(multiprocessors()) * per_multiprocessor);
  // Too few units (blocks of channels, times slices of states) for the places: cut the sequences
  // into as many segments as the places allow, each item a block of its own.
  const bool long_enough =
      args.seqlen >= kMinCutSteps || (args.seqlen >= kMinShortCutSteps && units < multiprocessors());
  if (units < places && long_enough) {
    const std::int64_t of_chunks = std::min(places / units, args.chunks);
    if (of_chunks > 1 && 2 * of_chunks * units >= places)
      return {unsigned(units * of_chunks), int(of_chunks), int(kChunkLength)};
    const int segments = int(carry::backward_segments_for(places / units, args.seqlen, kTile));
    if (segments > 1) return {unsigned(units * segments), segments, kTile};
  }
  // [/snippet:backward_cut_rule]
  // Every block takes the same number of units: with 768 of them and 396 places, 396
  // blocks would run a second round at under the whole multiprocessor; 384 run two full rounds.
  const std::int64_t rounds = (units + places - 1) / places;
  return {unsigned(std::max<std::int64_t>(1, (units + rounds - 1) / rounds)), 1, kTile};
}

// The workspace past the partial sums: every block's checkpoints, a cut's summaries, and past
// 16 states the step sums (two floats a channel and step; on 16 bytes, as the rest is).
std::size_t checkpoints_bytes(const BackwardGrid& grid) {
  return std::size_t(grid.blocks) * kCheckpointsPerBlock * sizeof(float);
}
std::size_t summaries_offset(const WorkspaceLayout& workspace, const BackwardGrid& grid) {
  return std::size_t(workspace.total) * sizeof(float) + checkpoints_bytes(grid);
}
std::size_t step_sums_offset(const ScanArgs& args, const WorkspaceLayout& workspace, const BackwardGrid& grid) {
  const std::size_t end = summaries_offset(workspace, grid) +
                          carry::backward_summaries_bytes(args.batch * args.dim, args.dstate, grid.segments);
  return (end + 15) / 16 * 16;
}
std::size_t step_sums_bytes(const ScanArgs& args) {
  return state_slices(args) > 1 ? std::size_t(args.batch * args.dim) * 2 * args.seqlen * sizeof(float) : 0;
}

// One launch of the kernel, on `blocks` blocks.
template <class Input, int K, bool kBothVariable, bool kGeneral, bool kSliced, bool kPacked = false>
void launch_kernel(unsigned blocks, const ScanArgs& args, const WorkspaceLayout& workspace, const Cut& cut,
                   float* step_sums, const TensorMaps& maps, cudaStream_t stream) {
  const auto kernel = checkpoints_backward_kernel<Input, K, kBothVariable, kGeneral, kSliced, kPacked>;
  allow_shared_memory(reinterpret_cast<const void*>(kernel), int(sizeof(Shared<Input>)));
  kernel<<<blocks, kThreads, sizeof(Shared<Input>), stream>>>(args, workspace, cut, step_sums, maps);
  SELECTIVE_SCAN_CHECK_LAUNCH();
}

// Uncut sequences in one launch (of the general kernel where a group ends on a block of fewer
// than 16 channels, and for packed sequences, which are built only general), or a cut's two: the
// summaries, then the gradients.
template <class Input, int K, bool kBothVariable, bool kSliced = false, bool kPacked = false>
void launch(const ScanArgs& args, const WorkspaceLayout& workspace, const BackwardGrid& grid, const Cut& cut,
            float* step_sums, const TensorMaps& maps, cudaStream_t stream) {
  if (cut.segments == 1) {
    if constexpr (!kPacked)
      if (args.dims_per_group % kChannels == 0)
        return launch_kernel<Input, K, kBothVariable, false, kSliced>(grid.blocks, args, workspace, cut, step_sums,
                                                                      maps, stream);
    launch_kernel<Input, K, kBothVariable, true, kSliced, kPacked>(grid.blocks, args, workspace, cut, step_sums, maps,
                                                                   stream);
    return;
  }
  const Cut first{cut.segments, cut.granule, true, cut.summaries};
  launch_kernel<Input, K, kBothVariable, true, kSliced, kPacked>(unsigned(launch_items(args, first)), args, workspace,
                                                                 first, step_sums, maps, stream);
  launch_kernel<Input, K, kBothVariable, true, kSliced, kPacked>(grid.blocks, args, workspace, cut, step_sums, maps,
                                                                 stream);
}

}  // namespace

std::string checkpoints_backward_refusal(const ScanArgs& args, bool is_complex) {
  if (is_complex) return "complex A";
  if (args.dstate > kStates && !(args.B.variable && args.C.variable)) return "dstate > 16 with a constant B or C";
  if (args.deterministic) return "deterministic (it adds dB and dC with atomics)";
  if (const std::string packed = ring_packed_refusal(args, kStates); !packed.empty()) return packed;
  // The tensor copies need every row on 16 bytes; checked at 2 bytes a value, the narrowest
  // type, since the workspace is sized before the call's type is known.
  if (!rows_on_16_bytes(args, 2, true)) return "a row not on 16 bytes";
  // The block adds a variable B's or C's gradient four steps at a time, in 16-byte atomic adds.
  const auto on_16_bytes = [](const float* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  if (args.seqlen % 4 != 0) return "seqlen not a multiple of 4";
  if ((args.B.variable && !on_16_bytes(args.dB)) || (args.C.variable && !on_16_bytes(args.dC)))
    return "dB or dC not on 16 bytes";
  return sm90_code_refusal(
      reinterpret_cast<const void*>(checkpoints_backward_kernel<float, kWholeK, true, false, false>));
}

BackwardGrid checkpoints_backward_grid(const ScanArgs& args) { return grid_for(args); }

std::int64_t checkpoints_backward_items(const ScanArgs& args, const BackwardGrid& grid) {
  return launch_units(args) * grid.segments;
}

std::size_t checkpoints_backward_scratch_bytes(const ScanArgs& args, const BackwardGrid& grid) {
  const WorkspaceLayout workspace = workspace_layout(args, false);
  return step_sums_offset(args, workspace, grid) + step_sums_bytes(args) - std::size_t(workspace.total) * sizeof(float);
}

template <class Input>
void checkpoints_backward(const ScanArgs& args, const BackwardGrid& grid, cudaStream_t stream) {
  const WorkspaceLayout workspace = workspace_layout(args, false);
  prepare_time_gradients(args, workspace, false, stream);
  Cut cut{grid.segments, grid.granule, false, nullptr};
  if (grid.segments > 1) {
    // The per-channel partial sums start at 0: a channel's segments add into them.
    SELECTIVE_SCAN_CHECK(cudaMemsetAsync(args.workspace, 0, std::size_t(workspace.dB_var) * sizeof(float), stream));
    cut.summaries =
        reinterpret_cast<float*>(static_cast<unsigned char*>(args.workspace) + summaries_offset(workspace, grid));
  }
  float* step_sums = nullptr;
  if (state_slices(args) > 1) {
    step_sums =
        reinterpret_cast<float*>(static_cast<unsigned char*>(args.workspace) + step_sums_offset(args, workspace, grid));
    SELECTIVE_SCAN_CHECK(cudaMemsetAsync(step_sums, 0, step_sums_bytes(args), stream));
  }
  const TensorMaps maps = tensor_maps<Input>(args);
  // As the forward's few_states: with B and C both variable, a lane walks one state where the
  // call has at most 8 (its eight lanes' first), not two.
  if (args.cu_seqlens)  // up to 16 states, B and C both variable (checkpoints_backward_refusal)
    launch<Input, kWholeK, true, false, true>(args, workspace, grid, cut, step_sums, maps, stream);
  else if (step_sums)
    launch<Input, kWholeK, true, true>(args, workspace, grid, cut, step_sums, maps, stream);
  else if (args.B.variable && args.C.variable && args.dstate <= P)
    launch<Input, 1, true>(args, workspace, grid, cut, step_sums, maps, stream);
  else if (args.B.variable && args.C.variable)
    launch<Input, kWholeK, true>(args, workspace, grid, cut, step_sums, maps, stream);
  else
    launch<Input, kWholeK, false>(args, workspace, grid, cut, step_sums, maps, stream);
  if (step_sums) finish_sliced_steps<Input>(args, workspace, step_sums, stream);
  finish_parameter_gradients(args, workspace, false, stream);
}

template void checkpoints_backward<float>(const ScanArgs&, const BackwardGrid&, cudaStream_t);
template void checkpoints_backward<__half>(const ScanArgs&, const BackwardGrid&, cudaStream_t);
template void checkpoints_backward<__nv_bfloat16>(const ScanArgs&, const BackwardGrid&, cudaStream_t);

}  // namespace selective_scan::detail
