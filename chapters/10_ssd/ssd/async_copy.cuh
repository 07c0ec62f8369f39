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

}  // namespace ssd::detail::async_copy
