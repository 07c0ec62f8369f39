// segment_carry.cuh: a sequence cut into time segments, one block each, and the state h carried
// from one segment's end to the next segment's start through global memory. Each carried value
// is chapter 06's status word: the flag in the high half and a float in the low half of 64 bits,
// so that one relaxed store publishes both and one relaxed load sees both or neither. The words
// are zeroed before the launch: 0 means "not yet".
//   - The forward publishes each segment's summary (per state, its end from h = 0; and its sum of
//     delta) and folds the summaries of all the segments before it, in order: no chain of waits.
//   - The backward needs both directions: h at a segment's start (the segments before it) and
//     q at its end (the segments after it). No order of claiming items makes every wait one on
//     a running block, so it summarizes in a first launch and folds in a second: plain floats,
//     no flags, the launch boundary the only wait (backward_summary_index, fold_backward).
#pragma once

#include <cuda/atomic>

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace selective_scan::detail::carry {

using Word = unsigned long long;

// How many time segments a cut makes of `seqlen` steps where `room` blocks of each group fit on the
// GPU at once: segments of at least kMinSegmentSteps, at most kMaxSegments of them
// (v5_ring_forward.cu says why) -- or segments of one tile (`tile` steps) where they all fit at
// once and number at most kMaxSegments: in the backward at any length, in the forward below
// kForwardOneTileBelow steps. A lone block walks a step slowly (every instruction's latency is its
// own), so a short call waits for its longest segment, and one-tile segments shorten it: they paid
// in both directions at 256 steps, and from 1024 steps in forward + backward while the forward
// alone came out slower, hence the forward's bound. Where not all of them fit, they lost, some
// segments walking two tiles all the same (the figures: appendix A, "The measurements behind the
// library's rules").
constexpr std::int64_t kMinSegmentSteps = 64;
constexpr std::int64_t kMaxSegments = 64;
constexpr std::int64_t kForwardOneTileBelow = 512;
// Segments of at least kMinSegmentSteps alone (the slices past 16 states cut this way).
inline std::int64_t long_segments_for(std::int64_t room, std::int64_t seqlen) {
  return std::min({room, seqlen / kMinSegmentSteps, kMaxSegments});
}
inline bool one_tile_segments_fit(std::int64_t room, std::int64_t seqlen, std::int64_t tile) {
  return seqlen / tile <= std::min(room, kMaxSegments);
}
inline std::int64_t forward_segments_for(std::int64_t room, std::int64_t seqlen, std::int64_t tile) {
  if (seqlen < kForwardOneTileBelow && one_tile_segments_fit(room, seqlen, tile)) return seqlen / tile;
  return long_segments_for(room, seqlen);
}
inline std::int64_t backward_segments_for(std::int64_t room, std::int64_t seqlen, std::int64_t tile) {
  if (one_tile_segments_fit(room, seqlen, tile)) return seqlen / tile;
  return long_segments_for(room, seqlen);
}

// Where segment s of `segments` begins in a sequence of `length` steps: on a multiple of `tile`
// steps, so that only the last segment can end in a partial tile. segment_begin(segments) = length.
__host__ __device__ inline std::int64_t segment_begin(std::int64_t length, int segments, int s, int tile) {
  if (s >= segments) return length;
  return length * s / segments / tile * tile;
}

// How the forward's sequences are cut: `segments` (1: not cut), and the words the segments
// publish their summaries in (summary_index); words[0] counts the blocks as they start, which
// hands out the work items in that order (chapter 05's reason: a block waits only for items that
// a running block already holds).
struct Split {
  int segments;
  Word* words;
};

// The forward's summaries of a cut: for every channel and every segment but the last, dstate
// words (the state at the segment's end when it starts from h = 0; segment 0 starts from its
// initial state) and, at row dstate, the sum of its delta; after words[0].
__host__ __device__ inline std::int64_t summary_index(int segments, int dstate, std::int64_t channel, int segment,
                                                      int row) {
  return 1 + (channel * (segments - 1) + segment) * (dstate + 1) + row;
}
inline std::size_t summary_bytes(std::int64_t channels, int dstate, int segments) {
  return segments <= 1 ? 0 : (1 + std::size_t(channels) * (segments - 1) * (dstate + 1)) * sizeof(Word);
}

// The backward's summaries of a cut: per channel and segment, one row of dstate + 1 floats for
// each direction. Forwards, the state at the segment's end from h = 0 (segment 0: from its
// initial state); backwards, the gradient q that leaves its first step, from q = 0 at its end.
// Each row ends with the segment's sum of delta, summed in the row's own direction.
enum Direction : int { kForwards = 0, kBackwards = 1 };
__host__ __device__ inline std::int64_t backward_summary_index(int segments, int dstate, std::int64_t channel,
                                                               int segment, Direction direction, int row) {
  return ((channel * segments + segment) * 2 + direction) * (dstate + 1) + row;
}
inline std::size_t backward_summaries_bytes(std::int64_t channels, int dstate, int segments) {
  return segments <= 1 ? 0 : std::size_t(channels) * segments * 2 * (dstate + 1) * sizeof(float);
}

#ifdef __CUDACC__
// [snippet:carry_words]
using WordRef = cuda::atomic_ref<Word, cuda::thread_scope_device>;
constexpr Word kReady = Word{1} << 32;

__device__ __forceinline__ Word peek(Word* word) { return WordRef(*word).load(cuda::std::memory_order_relaxed); }
__device__ __forceinline__ float value(Word w) { return __uint_as_float(static_cast<unsigned>(w)); }

__device__ __forceinline__ void publish(Word* word, float h) {
  WordRef(*word).store(kReady | __float_as_uint(h), cuda::std::memory_order_relaxed);
}
// Spins until the word is published; the sleep leaves the issue slots to the other blocks of the
// multiprocessor, which are doing the work that is waited for.
__device__ __forceinline__ float wait_for(Word* word) {
  for (;;) {
    const Word w = peek(word);
    if (w & kReady) return value(w);
    __nanosleep(256);
  }
}
// [/snippet:carry_words]

// The decay a summary's sum of delta lets through, exp(A sum); kRestarts: 0 where the sum is
// infinite, the mark of a segment in which a packed sequence began (no state passes it).
template <bool kRestarts>
__device__ __forceinline__ float decay_through(float A2, float delta_sum) {
  return kRestarts && isinf(delta_sum) ? 0.f : exp2f(A2 * delta_sum);
}

// [snippet:carry_fold]
// h at the start of segment s, for one state: the summaries of segments 0 ... s - 1 folded in
// order, h = b_j + exp(A sum_j(delta)) h. A window of them is loaded at once, so that their trips
// through L2 overlap; only a summary not yet published is waited for. The order of the fold is
// fixed, so the result does not depend on which block finished first.
template <bool kRestarts = false, int kWindow = 8>
__device__ __forceinline__ float fold_summaries(Word* words, int segments, int dstate, std::int64_t channel, int s,
                                                int state, float A2) {
  const auto word = [&](int j, int row) { return words + summary_index(segments, dstate, channel, j, row); };
  float h = 0.f;
  for (int j0 = 0; j0 < s; j0 += kWindow) {
    Word end[kWindow], sum[kWindow];
#pragma unroll
    for (int i = 0; i < kWindow; ++i) {
      const int j = min(j0 + i, s - 1);  // past s - 1: the last one again, never folded
      end[i] = peek(word(j, state)), sum[i] = peek(word(j, dstate));
    }
#pragma unroll
    for (int i = 0; i < kWindow && j0 + i < s; ++i) {
      const float b = end[i] & kReady ? value(end[i]) : wait_for(word(j0 + i, state));
      const float delta_sum = sum[i] & kReady ? value(sum[i]) : wait_for(word(j0 + i, dstate));
      h = b + decay_through<kRestarts>(A2, delta_sum) * h;
    }
  }
  return h;
}
// [/snippet:carry_fold]

// [snippet:carry_fold_backward]
// For the backward's second launch, one state of segment s: forwards, h at its start, the
// summaries of segments 0 ... s - 1 folded in order; backwards, q at its end, those of segments
// S - 1 ... s + 1. Each fold is x = b_j + exp(A sum_j(delta)) x, as a chain of waits would have
// done it, link by link. The first launch wrote the summaries: nothing to wait for. kRestarts: an
// infinite sum, where a packed sequence began, lets nothing through.
template <bool kRestarts = false>
__device__ __forceinline__ float fold_backward(const float* summaries, int segments, int dstate, std::int64_t channel,
                                               int s, Direction direction, int state, float A2) {
  const int first = direction == kForwards ? 0 : segments - 1, step = direction == kForwards ? 1 : -1;
  float x = 0.f;
#pragma unroll 8
  for (int j = first; j != s; j += step) {
    const float* row = summaries + backward_summary_index(segments, dstate, channel, j, direction, 0);
    const float delta_sum = __ldg(row + dstate);
    x = __ldg(row + state) + decay_through<kRestarts>(A2, delta_sum) * x;
  }
  return x;
}
// [/snippet:carry_fold_backward]
#endif

}  // namespace selective_scan::detail::carry
