// A small caching allocator for Thrust's scratch memory. thrust::inclusive_scan asks for a
// temporary buffer on every call; by default it gets a fresh cudaMalloc and gives it back
// with cudaFree, and both are slow and synchronize the device. Handed to Thrust through
// thrust::cuda::par(allocator), this keeps every freed block and hands it out again to the
// next request of the same size, so from the second call on no allocation happens.
#pragma once

#include "cuda_check.hpp"

#include <cstddef>
#include <map>
#include <stdexcept>

namespace scan {

class CachingAllocator {
 public:
  using value_type = char;  // what Thrust requires of an allocator for its scratch

  CachingAllocator() = default;
  CachingAllocator(const CachingAllocator&) = delete;
  CachingAllocator& operator=(const CachingAllocator&) = delete;
  ~CachingAllocator() {
    for (auto& [bytes, p] : free_) cudaFree(p);  // no throw from a destructor
    for (auto& [p, bytes] : in_use_) cudaFree(p);
  }

  char* allocate(std::ptrdiff_t bytes) {
    const std::size_t size = static_cast<std::size_t>(bytes);
    char* p = nullptr;
    if (auto it = free_.find(size); it != free_.end()) {
      p = it->second;
      free_.erase(it);
    } else {
      CUDA_CHECK(cudaMalloc(&p, size));
    }
    in_use_.emplace(p, size);
    return p;
  }

  void deallocate(char* p, std::size_t) {
    auto it = in_use_.find(p);
    if (it == in_use_.end()) throw std::logic_error("CachingAllocator: freeing a block it did not hand out");
    free_.emplace(it->second, p);
    in_use_.erase(it);
  }

  std::size_t cached_blocks() const { return free_.size(); }

 private:
  std::multimap<std::size_t, char*> free_;  // size -> block, kept for reuse
  std::map<char*, std::size_t> in_use_;     // block -> size
};

}  // namespace scan
