// The sliced scan on the GPUs of this machine through NCCL (sequence_parallel.hpp), one thread
// and one communicator a GPU, against chapter 08's fp64 reference on the whole sequence: 2 ranks
// and every GPU there is, slices of unequal length, fp32 and bf16, every option on and off.
#include "check_close.hpp"
#include "device_problem.hpp"
#include "gpu_test.hpp"
#include "sequence_parallel.hpp"
#include "slices.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>
#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <thread>
#include <vector>

namespace {

std::vector<double> real_parts(const std::vector<ch08::Complex>& v) {
  std::vector<double> out;
  for (const ch08::Complex& c : v) out.push_back(c.real());
  return out;
}

int usable_gpus() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
}

// Each rank's outputs of one sliced forward, in rank order.
std::vector<ch08::ForwardResult> run_sliced(const ch08::Problem& p, selective_scan::DataType type, int ranks) {
  std::vector<int> devices(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) devices[std::size_t(r)] = r;
  std::vector<ncclComm_t> comms(static_cast<std::size_t>(ranks));
  REQUIRE(ncclCommInitAll(comms.data(), ranks, devices.data()) == ncclSuccess);
  const std::vector<ch11::Slice> slices = ch11::split(p.seqlen, ranks);
  const std::vector<double> initial = real_parts(p.initial_state);
  std::vector<ch08::ForwardResult> results(static_cast<std::size_t>(ranks));
  std::vector<std::exception_ptr> failures(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      try {
        if (cudaSetDevice(r) != cudaSuccess) throw std::runtime_error("cudaSetDevice");
        ch08::DeviceProblem d(ch11::slice_of(p, slices[std::size_t(r)], initial), type,
                              selective_scan::Kernel::automatic);
        d.poison_outputs();
        sequence_parallel::forward(d.forward_params(), {comms[std::size_t(r)]});
        if (cudaDeviceSynchronize() != cudaSuccess) throw std::runtime_error("cudaDeviceSynchronize");
        results[std::size_t(r)] = d.forward_result();
      } catch (...) {
        failures[std::size_t(r)] = std::current_exception();
      }
    });
  for (std::thread& t : threads) t.join();
  for (ncclComm_t comm : comms) ncclCommDestroy(comm);
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
  return results;
}

}  // namespace

TEST_CASE("the sliced forward on several GPUs equals the whole sequence's fp64 reference", "[gpu]") {
  REQUIRE_GPU();
  const int gpus = usable_gpus();
  if (gpus < 2) {
    std::printf("SKIPPED: %d GPU(s); the sliced scan needs at least 2\n", gpus);
    std::fflush(stdout);
    std::_Exit(77);
  }
  setenv("NCCL_NVLS_ENABLE", "0", 1);  // NVLink multicast stays off (the GPU machine's rule)
  int c = 0;
  for (const selective_scan::DataType type : {selective_scan::DataType::float32, selective_scan::DataType::bfloat16})
    for (int ranks : {2, gpus}) {
      ch08::Problem shape;
      shape.batch = 2, shape.dim = 24, shape.seqlen = 2 * 2048 + 37, shape.dstate = 16, shape.groups = 2;
      shape.has_D = c & 1, shape.has_z = c & 2, shape.has_delta_bias = shape.delta_softplus = c & 1;
      shape.has_initial_state = c & 2;
      const ch08::Problem p = ch08::as_gpu_sees(ch08::make_official_test_problem(shape, unsigned(c)), type);
      INFO((type == selective_scan::DataType::float32 ? "fp32" : "bf16") << ", " << ranks << " ranks, case " << c);
      ++c;
      const std::vector<ch08::ForwardResult> sliced = run_sliced(p, type, ranks);
      const ch08::ForwardResult whole = ch08::reference_forward(p);
      std::vector<std::vector<double>> out;
      for (const ch08::ForwardResult& r : sliced) out.push_back(p.has_z ? r.out_z : r.out);
      const common::Tolerance tol =
          type == selective_scan::DataType::float32 ? common::Tolerance{1e-4, 1e-3} : common::Tolerance{5e-2, 3e-2};
      CHECK_CLOSE("out", common::compare(ch11::joined(out, p.batch * p.dim), p.has_z ? whole.out_z : whole.out, tol));
      CHECK_CLOSE("last state",
                  common::compare(real_parts(sliced.back().last_state), real_parts(whole.last_state), tol));
    }
}
