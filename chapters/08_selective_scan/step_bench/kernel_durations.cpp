#include "kernel_durations.hpp"

#include "cuda_check.hpp"

#include <cupti.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <stdexcept>
#include <utility>

namespace ch08::step_bench {
namespace {

void cupti_check(CUptiResult result, const char* what) {
  if (result == CUPTI_SUCCESS) return;
  const char* message = nullptr;
  cuptiGetResultString(result, &message);
  throw std::runtime_error(std::string("CUPTI: ") + what + ": " + (message ? message : "unknown error"));
}

// CUPTI hands the records back through two plain functions: what they collect lives here.
struct Collected {
  std::mutex mutex;
  std::vector<std::pair<std::string, double>> kernels;  // (name, ms)
  bool recorder_alive = false;
};
Collected& collected() {
  static Collected c;
  return c;
}

constexpr std::size_t kBufferBytes = std::size_t(8) << 20;

void CUPTIAPI buffer_requested(std::uint8_t** buffer, std::size_t* size, std::size_t* max_records) {
  *buffer = static_cast<std::uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer ? kBufferBytes : 0;
  *max_records = 0;  // as many as fit
}

void CUPTIAPI buffer_completed(CUcontext, std::uint32_t, std::uint8_t* buffer, std::size_t, std::size_t valid) {
  CUpti_Activity* record = nullptr;
  std::lock_guard lock(collected().mutex);
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
    const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
    collected().kernels.emplace_back(kernel->name ? kernel->name : "", double(kernel->end - kernel->start) * 1e-6);
  }
  std::free(buffer);
}

}  // namespace

KernelDurations::KernelDurations() {
  std::lock_guard lock(collected().mutex);
  if (collected().recorder_alive) throw std::logic_error("KernelDurations: one recorder at a time");
  collected().recorder_alive = true;
}

KernelDurations::~KernelDurations() {
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  std::lock_guard lock(collected().mutex);
  collected().recorder_alive = false;
}

void KernelDurations::start() {
  CUDA_CHECK(cudaDeviceSynchronize());
  {
    std::lock_guard lock(collected().mutex);
    collected().kernels.clear();
  }
  static const bool registered = [] {  // once a process: the callbacks are the process's
    cupti_check(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), "registering the buffers");
    return true;
  }();
  (void)registered;
  cupti_check(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "enabling kernel records");
}

std::vector<double> KernelDurations::stop(const std::string& name) {
  CUDA_CHECK(cudaDeviceSynchronize());
  cupti_check(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), "disabling kernel records");
  cupti_check(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), "flushing the records");
  std::vector<double> durations;
  std::lock_guard lock(collected().mutex);
  for (const auto& [kernel, ms] : collected().kernels)
    if (kernel.find(name) != std::string::npos) durations.push_back(ms);
  collected().kernels.clear();
  return durations;
}

}  // namespace ch08::step_bench
