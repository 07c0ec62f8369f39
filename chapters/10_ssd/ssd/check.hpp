// check.hpp: every CUDA call and launch of the library is checked; a failure throws ssd::Error
// naming the call, the file and the line.
#pragma once

#include "ssd.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <string>
#include <utility>

namespace ssd::detail {

inline void check(cudaError_t status, const char* what, const char* file, int line) {
  if (status != cudaSuccess)
    throw Error(std::string("ssd: ") + what + " failed at " + file + ":" + std::to_string(line) + ": " +
                cudaGetErrorString(status));
}

}  // namespace ssd::detail

#define SSD_CHECK(call) ::ssd::detail::check((call), #call, __FILE__, __LINE__)
#define SSD_CHECK_LAUNCH() ::ssd::detail::check(cudaPeekAtLastError(), "kernel launch", __FILE__, __LINE__)

namespace ssd::detail {

// The current device's pool of scratch memory (scratch_pool.cpp): stream-ordered like
// cudaMallocAsync's default pool, but it keeps what it has mapped when a stream synchronizes. The
// default pool's release threshold is 0, so it unmaps its memory at every synchronization and the
// next call maps it again, a cost every call would pay on the host and the GPU.
cudaMemPool_t scratch_pool();

// Scratch memory of one call, ordered on its stream: taken from scratch_pool() where the call
// starts and given back behind its last kernel, so that the caller holds no workspace between
// calls (the pool keeps it for the next one; ssd::release_cached_memory() returns it).
template <class T>
class Scratch {
 public:
  Scratch(std::size_t count, cudaStream_t stream) : stream_(stream) {
    if (count > 0)
      SSD_CHECK(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&data_), count * sizeof(T), scratch_pool(), stream_));
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    if (data_) cudaFreeAsync(data_, stream_);  // no throw from a destructor
  }
  T* get() const { return data_; }

 private:
  T* data_ = nullptr;
  cudaStream_t stream_;
};

}  // namespace ssd::detail
