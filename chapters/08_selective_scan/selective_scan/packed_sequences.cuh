// packed_sequences.cuh: where packed sequences (ScanArgs::cu_seqlens) begin and end among the
// consecutive steps a thread holds. A step that begins a sequence does not continue the state of
// the step before it: its map h_prev -> h is (0, Abar h0 + delta B u), with h0 that sequence's
// initial state, so a scan of the maps restarts there on its own; and the gradient it hands back
// goes to that sequence's dinitial_state, not to the step before, which instead receives the
// dlast_state of the sequence it ends.
#pragma once

#include "scan_args.hpp"

#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>

namespace selective_scan::detail {

// Version 5's forward and backward build the restarts (kPacked) only into their layout of
// `layout_states` states with B and C both variable, and refuse every other packed call.
inline std::string ring_packed_refusal(const ScanArgs& a, int layout_states) {
  if (a.cu_seqlens && (a.dstate > layout_states || !(a.B.variable && a.C.variable)))
    return "packed sequences past 16 states or with a constant B or C";
  return "";
}

// Where state n of packed sequence q (or of batch row q without packing) of channel d lives in
// initial_state, last_state and their gradients: (sequences or batch, dim, dstate).
__host__ __device__ inline std::int64_t sequence_state_index(const ScanArgs& a, std::int64_t q, std::int64_t d, int n) {
  return (q * a.dim + d) * a.dstate + n;
}

// The last packed sequence that begins before first_step (0 at step 0): a binary search of the
// offsets.
__device__ inline std::int64_t sequence_before(const ScanArgs& a, std::int64_t first_step) {
  std::int64_t low = 0, high = a.sequences - 1;
  while (low < high) {
    const std::int64_t middle = (low + high + 1) / 2;
    if (a.cu_seqlens[middle] < first_step)
      low = middle;
    else
      high = middle - 1;
  }
  return low;
}

// A walk through time tile by tile (version 5's forward) meets the boundaries in order: the
// cursor keeps the sequence it is in and the step that begins the next, and hands each tile its
// boundaries as bits. Warp-uniform: every lane of a block walks the same steps.
struct TileSequences {
  unsigned begins = 0;      // bit s: step s of the tile begins a sequence
  std::int64_t before = 0;  // the sequence of the step before the tile (b without packing)
  __device__ bool begins_at(int s) const { return (begins >> s) & 1u; }
  // The sequence of step s of the tile.
  __device__ std::int64_t sequence(int s) const { return before + __popc(begins & ((2u << s) - 1u)); }
};

// Runs walk(std::true_type{}) for a tile that holds a packed sequence's start, else
// walk(std::false_type{}): a walk built with its restarts only where a tile needs them, since
// most tiles of packed sequences hold none (and none at all without kPacked, at compile time).
template <bool kPacked, class Walk>
__device__ __forceinline__ void by_boundaries(const TileSequences& sequences, Walk walk) {
  if (kPacked && sequences.begins)
    walk(std::true_type{});
  else
    walk(std::false_type{});
}

class SequenceCursor {
 public:
  SequenceCursor() = default;  // meets no boundary (a kernel built without packed sequences)
  // From step first_step of batch row b on.
  __device__ SequenceCursor(const ScanArgs& a, std::int64_t b, std::int64_t first_step)
      : cu_(a.cu_seqlens), sequences_(a.sequences), sequence_(b) {
    if (!cu_) return;
    sequence_ = sequence_before(a, first_step);
    next_ = following(sequence_);
  }
  // Whether a tile handed out so far held a boundary.
  __device__ bool met_a_boundary() const { return met_; }
  // Steps t0 ... t0 + kSteps - 1, and the cursor moved past them.
  template <int kSteps>
  __device__ TileSequences tile(std::int64_t t0) {
    static_assert(kSteps <= 32, "one bit a step (sequence()'s mask at step 31: 2u << 31 is 0, less 1 all ones)");
    TileSequences t;
    t.before = sequence_;
    while (next_ < t0 + kSteps) {
      t.begins |= 1u << (next_ - t0);
      ++sequence_;
      next_ = following(sequence_);
    }
    met_ = met_ || t.begins;
    return t;
  }

 private:
  // The step that begins the sequence after q (none: past every step).
  __device__ std::int64_t following(std::int64_t q) const {
    return q + 1 < sequences_ ? std::int64_t(cu_[q + 1]) : INT64_MAX;
  }
  const std::int32_t* cu_ = nullptr;
  std::int64_t sequences_ = 0, sequence_ = 0;
  std::int64_t next_ = INT64_MAX;
  bool met_ = false;
};

// The same, backwards (version 5's backward walks its tiles last first): the cursor keeps the
// sequence of the last step not yet handed out and the step that begins it, and hands each tile
// its boundaries as bits, one offset read a boundary. Step 0 begins sequence 0 but no bit marks it,
// as the forward cursor's tiles have none there.
class ReverseSequenceCursor {
 public:
  ReverseSequenceCursor() = default;  // meets no boundary (a kernel built without packed sequences)
  // Back from step last_step of batch row b.
  __device__ ReverseSequenceCursor(const ScanArgs& a, std::int64_t b, std::int64_t last_step)
      : cu_(a.cu_seqlens), sequence_(b) {
    if (!cu_) return;
    sequence_ = sequence_before(a, last_step + 1);  // the sequence that holds last_step
    begin_ = cu_[sequence_];
  }
  // Steps t0 ... t0 + kSteps - 1, every later step handed out already, and the cursor moved
  // before them.
  template <int kSteps>
  __device__ TileSequences tile(std::int64_t t0) {
    static_assert(kSteps <= 32, "one bit a step");
    TileSequences t;
    while (cu_ && sequence_ > 0 && begin_ >= t0) {
      t.begins |= 1u << (begin_ - t0);
      --sequence_;
      begin_ = cu_[sequence_];
    }
    t.before = sequence_;  // the sequence of step t0 - 1
    return t;
  }

 private:
  const std::int32_t* cu_ = nullptr;
  std::int64_t sequence_ = 0, begin_ = 0;
};

// The steps a thread of version 2 holds: their boundaries as a tile's, and where sequences end.
struct StepSequences : TileSequences {
  unsigned ends = 0;  // bit i: step i is the last of a sequence before the channel's last
  __device__ bool ends_at(int i) const { return (ends >> i) & 1u; }
};

// The sequences of steps first_step ... first_step + kItems - 1 of batch row b. Steps past
// seqlen belong to the last sequence and neither begin nor end one. A kernel built without
// kPacked gets no boundaries at compile time, and its code is what it was before packing.
template <int kItems, bool kPacked>
__device__ StepSequences sequences_of_steps(const ScanArgs& a, std::int64_t b, std::int64_t first_step) {
  StepSequences s;
  s.before = b;
  if constexpr (!kPacked) return s;
  s.before = sequence_before(a, first_step);
  // Unrolled step by step, the bits at places known at compile time (a cursor's loop over the
  // boundaries cost version 2's packed backward 120 bytes of spills more).
  std::int64_t q = s.before, next = a.cu_seqlens[q + 1];  // the step that begins sequence q + 1
#pragma unroll
  for (int i = 0; i < kItems; ++i) {
    const std::int64_t t = first_step + i;
    if (t == next && q + 1 < a.sequences) {
      ++q;
      next = a.cu_seqlens[q + 1];
      s.begins |= 1u << i;
    }
    if (t + 1 == next && q + 1 < a.sequences) s.ends |= 1u << i;
  }
  return s;
}

}  // namespace selective_scan::detail
