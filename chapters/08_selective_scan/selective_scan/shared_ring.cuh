// shared_ring.cuh: the Hopper pieces of version 5, each a line of PTX -- mbarriers (a barrier in
// shared memory that counts arrivals and, separately, bytes still in flight) and bulk copies (one
// thread asks the copy engine for a whole row; the bytes land in shared memory and are counted
// off the mbarrier as they arrive) -- and where a ring of slots stands. They need sm_90; the
// callers compile them only under __CUDA_ARCH__ >= 900.
#pragma once

#include <cstdint>

namespace selective_scan::detail::ring {

// The shared-memory address PTX wants, from a generic pointer into shared memory.
__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900

// [snippet:mbarrier]
// A phase of the barrier ends when `arrivals` threads have arrived and every byte announced with
// expect_bytes() has landed; then it flips its phase bit, and waiters on the old parity go on.
__device__ __forceinline__ void init(std::uint64_t* barrier, unsigned arrivals) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(shared_address(barrier)), "r"(arrivals));
}
// Makes the initialised barriers visible to the copy engine (the "async proxy") as well.
__device__ __forceinline__ void fence_init() { asm volatile("fence.proxy.async.shared::cta;" ::: "memory"); }

// Arrives, and announces that `bytes` more will land on this phase through bulk copies. Release
// semantics: this thread's earlier shared-memory stores are seen by whoever waits on the phase.
__device__ __forceinline__ void arrive_expecting(std::uint64_t* barrier, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(shared_address(barrier)), "r"(bytes)
               : "memory");
}
__device__ __forceinline__ void arrive(std::uint64_t* barrier) {
  asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(shared_address(barrier)) : "memory");
}
// Whether the phase with this parity has ended (acquire: its stores and bytes are then visible).
// A thread whose phase has not ended is suspended until it ends or up to the hint (10 ms) passes,
// instead of coming back at once to ask again: a waiting warp then takes no issue slots from the
// warps that work.
__device__ __forceinline__ bool phase_done(std::uint64_t* barrier, unsigned parity) {
  constexpr unsigned kSuspendHintNs = 10'000'000;
  unsigned done;
  asm volatile("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2, %3; selp.u32 %0, 1, 0, p; }"
               : "=r"(done)
               : "r"(shared_address(barrier)), "r"(parity), "r"(kSuspendHintNs)
               : "memory");
  return done != 0;
}
__device__ __forceinline__ void wait(std::uint64_t* barrier, unsigned parity) {
  while (!phase_done(barrier, parity)) {
  }
}
// [/snippet:mbarrier]

// Where a ring of kStages slots stands, for the threads that fill it or for those that take from
// it, each keeping its own and advancing it once a tile (CUTLASS's PipelineState). The n-th use
// goes to slot n % kStages, in that slot's round n / kStages; the slot's barriers end one phase a
// round, so a wait for this use waits on the round's parity. It keeps the count n itself: with a
// ring of 2 or 3 slots, the slot and the round are then a shift or a multiply, and no branch.
template <int kStages>
class RingPosition {
 public:
  __device__ __forceinline__ int slot() const { return int(uses_ % kStages); }
  __device__ __forceinline__ unsigned phase() const { return round() & 1; }
  // Whether the slot was used before: then whoever fills it waits first for its readers to have
  // let go of it, the "empty" barrier's phase of the round before.
  __device__ __forceinline__ bool reused() const { return round() > 0; }
  __device__ __forceinline__ unsigned previous_phase() const { return (round() - 1) & 1; }
  __device__ __forceinline__ void advance() { ++uses_; }

 private:
  __device__ __forceinline__ unsigned round() const { return uses_ / kStages; }
  unsigned uses_ = 0;
};

// [snippet:pipeline]
// The protocol of a ring of kStages slots (CUTLASS's PipelineTmaAsync over its PipelineState):
// slot s's "full" barrier ends a phase when its tile has landed, its "empty" barrier when every
// reader has let go of it. The side that fills a slot acquires it, waiting for the readers of the
// round before, and has the tile's copies count off full_barrier(); the side that reads waits
// for it and releases it. Each side keeps its own RingPosition and advances it once a tile.
template <int kStages>
class Pipeline {
 public:
  __device__ Pipeline(std::uint64_t* full, std::uint64_t* empty) : full_(full), empty_(empty) {}
  // One thread, before the block's first barrier: the arrivals that end each barrier's phase.
  __device__ void init(unsigned fill_arrivals, unsigned read_arrivals) const {
    for (int s = 0; s < kStages; ++s) {
      ring::init(&full_[s], fill_arrivals);
      ring::init(&empty_[s], read_arrivals);
    }
    fence_init();
  }
  // The filling side: this use's slot, once the readers of its round before have released it.
  __device__ __forceinline__ int acquire(const RingPosition<kStages>& at) const {
    if (at.reused()) ring::wait(&empty_[at.slot()], at.previous_phase());
    return at.slot();
  }
  __device__ __forceinline__ std::uint64_t* full_barrier(int slot) const { return &full_[slot]; }
  // The reading side: this use's slot, once its tile has landed; then, done with it, release.
  __device__ __forceinline__ int wait(const RingPosition<kStages>& at) const {
    ring::wait(&full_[at.slot()], at.phase());
    return at.slot();
  }
  __device__ __forceinline__ void release(int slot) const { arrive(&empty_[slot]); }

 private:
  std::uint64_t* full_;
  std::uint64_t* empty_;
};
// [/snippet:pipeline]

// [snippet:bulk_copy]
// One thread copies `bytes` (a multiple of 16, both addresses 16-byte aligned) from global to
// shared memory; the copy engine does the work and counts the bytes off `barrier` on arrival.
__device__ __forceinline__ void bulk_copy(void* destination, const void* source, unsigned bytes,
                                          std::uint64_t* barrier) {
  asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                   shared_address(destination)),
               "l"(source), "r"(bytes), "r"(shared_address(barrier))
               : "memory");
}
// [/snippet:bulk_copy]

#endif

}  // namespace selective_scan::detail::ring
