// segment_carry.cuh: a sequence cut into time segments, one block each, and the state h carried
// from one segment's end to the next segment's start through global memory. Each carried value
// is chapter 06's status word: the flag in the high half and h in the low half of 64 bits, so
// that one relaxed store publishes both and one relaxed load sees both or neither. The words
// are zeroed before the launch: 0 means "not yet".
#pragma once

#include <cuda/atomic>

#include <cstddef>
#include <cstdint>

namespace selective_scan::detail::carry {

using Word = unsigned long long;

// Where segment s of `segments` begins in a sequence of `length` steps: on a multiple of `tile`
// steps, so that only the last segment can end in a partial tile. segment_begin(segments) = length.
__host__ __device__ inline std::int64_t segment_begin(std::int64_t length, int segments, int s, int tile) {
  if (s >= segments) return length;
  return length * s / segments / tile * tile;
}

// How a kernel's sequences are cut: `segments` (1: not cut), and the carried states,
// words[1 + (channel * (segments - 1) + boundary) * dstate + state] for the boundary between
// segments `boundary` and `boundary + 1`; words[0] counts the blocks as they start, which hands
// out the work items in that order (chapter 05's reason: a block waits only for items that a
// running block already holds).
struct Split {
  int segments;
  Word* words;
};
__host__ __device__ inline std::int64_t carry_index(int segments, int dstate, std::int64_t channel, int boundary,
                                                    int state) {
  return 1 + (channel * (segments - 1) + boundary) * dstate + state;
}
// The bytes of a Split's words.
inline std::size_t split_bytes(std::int64_t channels, int dstate, int segments) {
  return segments <= 1 ? 0 : (1 + std::size_t(channels) * (segments - 1) * dstate) * sizeof(Word);
}

#ifdef __CUDACC__
// [snippet:carry_words]
using WordRef = cuda::atomic_ref<Word, cuda::thread_scope_device>;
constexpr Word kReady = Word{1} << 32;

__device__ __forceinline__ void publish(Word* word, float h) {
  WordRef(*word).store(kReady | __float_as_uint(h), cuda::std::memory_order_relaxed);
}
// Spins until the word is published; the sleep leaves the issue slots to the other blocks of the
// multiprocessor, which are doing the work that is waited for.
__device__ __forceinline__ float wait_for(Word* word) {
  for (;;) {
    const Word w = WordRef(*word).load(cuda::std::memory_order_relaxed);
    if (w & kReady) return __uint_as_float(static_cast<unsigned>(w));
    __nanosleep(256);
  }
}
// [/snippet:carry_words]
#endif

}  // namespace selective_scan::detail::carry
