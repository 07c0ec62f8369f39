// The driver's answers that device_facts.hpp remembers, keyed by device (and kernel, threads and
// shared memory). A mutex guards the maps: calls may come from several host threads.
#include "device_facts.hpp"

#include "check.hpp"
#include "selective_scan.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

namespace selective_scan::detail {
namespace {

std::mutex facts_mutex;

template <class Key, class Ask>
int remembered(std::map<Key, int>& answers, const Key& key, Ask ask) {
  {
    std::lock_guard<std::mutex> lock(facts_mutex);
    if (const auto found = answers.find(key); found != answers.end()) return found->second;
  }
  const int answer = ask();  // outside the lock: the driver may take a while, and may throw
  std::lock_guard<std::mutex> lock(facts_mutex);
  return answers.emplace(key, answer).first->second;
}

}  // namespace

int current_device() {
  int device = 0;
  SELECTIVE_SCAN_CHECK(cudaGetDevice(&device));
  return device;
}

int multiprocessors() {
  static std::map<int, int> answers;
  const int device = current_device();
  return remembered(answers, device, [&] {
    int count = 0;
    SELECTIVE_SCAN_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
    return count;
  });
}

std::optional<DeviceLimits> device_limits() {
  static std::map<int, DeviceLimits> answers;
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) {
    cudaGetLastError();  // no device: nothing to remember, and no error left behind
    return std::nullopt;
  }
  {
    std::lock_guard<std::mutex> lock(facts_mutex);
    if (const auto found = answers.find(device); found != answers.end()) return found->second;
  }
  DeviceLimits limits;
  if (cudaDeviceGetAttribute(&limits.major, cudaDevAttrComputeCapabilityMajor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&limits.minor, cudaDevAttrComputeCapabilityMinor, device) != cudaSuccess ||
      cudaDeviceGetAttribute(&limits.shared_per_block_optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) !=
          cudaSuccess) {
    cudaGetLastError();
    return std::nullopt;
  }
  std::lock_guard<std::mutex> lock(facts_mutex);
  return answers.emplace(device, limits).first->second;
}

void allow_shared_memory(const void* kernel, int shared_bytes) {
  static std::map<std::tuple<int, const void*, int>, int> answers;
  remembered(answers, std::make_tuple(current_device(), kernel, shared_bytes), [&] {
    SELECTIVE_SCAN_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, shared_bytes));
    return 0;
  });
}

int blocks_per_multiprocessor(const void* kernel, int threads, int shared_bytes) {
  static std::map<std::tuple<int, const void*, int, int>, int> answers;
  return remembered(answers, std::make_tuple(current_device(), kernel, threads, shared_bytes), [&] {
    // A kernel past 48 KB of dynamic shared memory must be allowed it before the question.
    allow_shared_memory(kernel, shared_bytes);
    int blocks = 0;
    SELECTIVE_SCAN_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, shared_bytes));
    return blocks;
  });
}

std::string sm90_code_refusal(const void* kernel) {
  if (!version_built(Kernel::ring))
    return std::string("a build without sm_90 code (CUDA architectures ") + built_architectures() + ")";
  static std::map<std::pair<int, const void*>, int> answers;
  // The architecture the loaded code's body was compiled for is its PTX's (__CUDA_ARCH__): the
  // binary's alone would say 90 for sm_80 PTX that the driver compiled for an H100.
  const int compiled_for = remembered(answers, std::make_pair(current_device(), kernel), [&] {
    cudaFuncAttributes attributes{};
    SELECTIVE_SCAN_CHECK(cudaFuncGetAttributes(&attributes, kernel));
    return std::min(attributes.ptxVersion, attributes.binaryVersion);
  });
  return compiled_for < 90 ? "no sm_90 code for this GPU" : "";
}

}  // namespace selective_scan::detail
