#include "multi_gpu.hpp"

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "device_problem.hpp"
#include "sequence_parallel.hpp"
#include "slices.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <thread>

namespace ch11 {
int usable_gpus() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

// Each rank's outputs of one sliced forward, in rank order.
std::vector<ncclComm_t> communicators(int ranks) {
  std::vector<int> devices(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) devices[std::size_t(r)] = r;
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(ranks));
  setenv("NCCL_NVLS_ENABLE", "0", 1);
  if (ncclCommInitAll(comms.data(), ranks, devices.data()) != ncclSuccess)
    throw std::runtime_error("ncclCommInitAll failed on " + std::to_string(ranks) + " GPUs");
  return comms;
}

common::Tolerance sliced_tolerance(selective_scan::DataType type) {
  return type == selective_scan::DataType::float32 ? common::Tolerance{1e-4, 1e-3} : common::Tolerance{5e-2, 3e-2};
}

common::Tolerance sliced_gradient_tolerance(selective_scan::DataType type, const std::vector<double>& reference) {
  double scale = 1;
  for (double v : reference) scale = std::max(scale, std::abs(v));
  const common::Tolerance t = sliced_tolerance(type);
  return {t.atol * scale, t.rtol};
}

namespace {

// work(r, comm) on one thread a rank, each on its GPU r with its communicator; the communicators
// destroyed after, and the first rank's failure rethrown.
template <class Work>
void on_every_rank(int ranks, Work&& work) {
  std::vector<ncclComm_t> comms = communicators(ranks);
  std::vector<std::exception_ptr> failures(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      try {
        if (cudaSetDevice(r) != cudaSuccess) throw std::runtime_error("cudaSetDevice");
        work(r, comms[std::size_t(r)]);
      } catch (...) {
        failures[std::size_t(r)] = std::current_exception();
      }
    });
  for (std::thread& t : threads) t.join();
  for (ncclComm_t comm : comms) ncclCommDestroy(comm);
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
}

}  // namespace

std::vector<ch08::ForwardResult> run_sliced(const ch08::Problem& p, selective_scan::DataType type, int ranks) {
  const std::vector<ch11::Slice> slices = ch11::split(p.seqlen, ranks, ch11::kGpuCut);
  const std::vector<double> initial = real_parts(p.initial_state);
  std::vector<ch08::ForwardResult> results(static_cast<std::size_t>(ranks));
  on_every_rank(ranks, [&](int r, ncclComm_t comm) {
    ch08::DeviceProblem d(ch11::slice_of(p, slices[std::size_t(r)], initial), type, selective_scan::Kernel::automatic);
    d.poison_outputs();
    sequence_parallel::forward(d.forward_params(), {comm});
    CUDA_CHECK(cudaDeviceSynchronize());
    results[std::size_t(r)] = d.forward_result();
  });
  return results;
}

std::vector<SlicedRun> run_sliced_backward(const ch08::Problem& p, selective_scan::DataType type, int ranks,
                                           const std::vector<double>& dout, const std::vector<ch08::Complex>& dlast) {
  const std::vector<ch11::Slice> slices = ch11::split(p.seqlen, ranks, ch11::kGpuCut);
  const std::vector<double> initial = real_parts(p.initial_state);
  std::vector<SlicedRun> results(static_cast<std::size_t>(ranks));
  on_every_rank(ranks, [&](int r, ncclComm_t comm) {
    const Slice& slice = slices[std::size_t(r)];
    ch08::DeviceProblem d(ch11::slice_of(p, slice, initial), type, selective_scan::Kernel::automatic);
    d.poison_outputs();
    common::DeviceBuffer<float> entering(std::size_t(p.batch * p.dim * p.dstate));
    entering.poison();
    const sequence_parallel::Slicing slicing{comm};
    sequence_parallel::forward(d.forward_params(), slicing, nullptr, entering.data());
    d.set_dout(ch11::cut(dout, p.batch * p.dim, p.seqlen, slice));
    d.set_dlast_state(dlast);
    sequence_parallel::backward(d.backward_params(), slicing, entering.data());
    CUDA_CHECK(cudaDeviceSynchronize());
    results[std::size_t(r)] = {d.forward_result(), d.gradients()};
  });
  return results;
}

}  // namespace ch11
