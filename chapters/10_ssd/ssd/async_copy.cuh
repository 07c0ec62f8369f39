// async_copy.cuh: 16-byte copies from global to shared memory that run behind the threads which
// issue them (cp.async, sm_80 and later): a block issues a chunk's whole tiles at once and waits
// once, instead of one load's latency after another.
#pragma once

#include <cstdint>

namespace ssd::detail::async_copy {

// 16 bytes from `from` to `to` where `copy`, else 16 zero bytes to `to` (`from` is then not read).
__device__ __forceinline__ void copy16(void* to, const void* from, bool copy) {
  asm volatile(
      "cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(to))),
      "l"(from), "r"(copy ? 16 : 0)
      : "memory");
}

// Waits for every copy this thread issued; a __syncthreads() after it shows them to the block.
__device__ __forceinline__ void wait_all() {
  asm volatile("cp.async.commit_group;\ncp.async.wait_group 0;" ::: "memory");
}

// A walk that copies ahead: commit() closes the group of copies this thread issued since the last
// one (a group may be empty); wait_all_but<N>() waits until at most the N newest are still running.
__device__ __forceinline__ void commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wait_all_but() {
  asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");
}

}  // namespace ssd::detail::async_copy
