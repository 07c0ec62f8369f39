// The library's scratch pools (check.hpp's scratch_pool) and what ssd.hpp offers about them.
#include "check.hpp"

#include <cstdint>
#include <map>
#include <mutex>

namespace ssd {
namespace {

std::mutex pools_mutex;
std::map<int, cudaMemPool_t> pools;  // by device; made on first use, kept for the process

}  // namespace

namespace detail {

cudaMemPool_t scratch_pool() {
  int device = 0;
  SSD_CHECK(cudaGetDevice(&device));
  const std::lock_guard<std::mutex> lock(pools_mutex);
  cudaMemPool_t& pool = pools[device];
  if (!pool) {
    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    cudaMemPool_t made = nullptr;
    SSD_CHECK(cudaMemPoolCreate(&made, &props));
    // Keep every byte mapped when a stream synchronizes: release_cached_memory() trims it.
    std::uint64_t keep = UINT64_MAX;
    SSD_CHECK(cudaMemPoolSetAttribute(made, cudaMemPoolAttrReleaseThreshold, &keep));
    pool = made;
  }
  return pool;
}

}  // namespace detail

std::size_t cached_memory_bytes() {
  const std::lock_guard<std::mutex> lock(pools_mutex);
  std::size_t total = 0;
  for (const auto& [device, pool] : pools) {
    std::uint64_t reserved = 0, used = 0;
    SSD_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
    SSD_CHECK(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
    total += std::size_t(reserved - used);
  }
  return total;
}

void release_cached_memory() {
  const std::lock_guard<std::mutex> lock(pools_mutex);
  int current = 0;
  SSD_CHECK(cudaGetDevice(&current));
  // A block given back behind a call's last kernel returns to the pool only when that kernel has
  // run: each device finishes its work before its pool is trimmed.
  for (const auto& [device, pool] : pools) {
    SSD_CHECK(cudaSetDevice(device));
    SSD_CHECK(cudaDeviceSynchronize());
    SSD_CHECK(cudaMemPoolTrimTo(pool, 0));
  }
  SSD_CHECK(cudaSetDevice(current));
}

}  // namespace ssd
