#include "scaling.hpp"

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "grid_fill.hpp"
#include "multi_gpu.hpp"
#include "sequence_parallel.hpp"
#include "slices.hpp"
#include "stats.hpp"

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <exception>
#include <optional>
#include <random>
#include <span>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace ch11 {
namespace {

using Bytes = common::DeviceBuffer<unsigned char>;

int element_bytes(selective_scan::DataType t) { return t == selective_scan::DataType::float32 ? 4 : 2; }

// One rank's tensors for `length` positions and chapter 08's parameters over them, filled on its GPU.
// The backward's tensors over a rank's forward: dout ~ N(0, 1) drawn on the GPU, every gradient,
// and the state entering the slice.
struct RankBackward {
  Bytes dout, du, ddelta, dz, workspace;
  common::DeviceBuffer<float> dA, dB, dC, dD, ddelta_bias, entering;
  selective_scan::BackwardParams params;
  double bytes = 0;

  RankBackward(const ScalingShape& s, std::int64_t length, std::uint64_t seed, const selective_scan::ForwardParams& f);
};

struct RankData {
  Bytes u, delta, z, B, C, out, out_z;
  common::DeviceBuffer<float> A, D, delta_bias, chunk_states;
  Bytes workspace;
  selective_scan::ForwardParams params;
  std::optional<RankBackward> backward;  // where its buffers fit beside the forward's
  double bytes = 0;

  RankData(const ScalingShape& s, std::int64_t length, std::uint64_t seed) {
    const std::size_t e = std::size_t(element_bytes(s.type));
    const std::size_t sequence = std::size_t(s.batch * s.dim * length),
                      projection = std::size_t(s.batch * s.dstate * length);
    selective_scan::ForwardParams& p = params;
    p.sizes = {s.batch, s.dim, length, s.dstate, 1};
    p.input_type = s.type;
    p.flags.delta_softplus = true;
    u = Bytes(sequence * e), delta = Bytes(sequence * e), z = Bytes(sequence * e), out = Bytes(sequence * e),
    out_z = Bytes(sequence * e), B = Bytes(projection * e), C = Bytes(projection * e);
    chunk_states = common::DeviceBuffer<float>(std::size_t(selective_scan::chunk_states_floats(p.sizes, false)));
    // The official benchmarks' distributions, as chapter 08's grid draws them (grid_fill.hpp): u, z, B,
    // C ~ N(0, 1), delta = 0.5 N(0, 1) on the GPU; the small fp32 weights on the host: A[d, n] =
    // −(n + 1) U(0.5, 1.5), D ~ U(−1, 1), a bias that puts softplus(delta + bias) near 0.02.
    using ch08::grid::fill_normal_input;
    fill_normal_input(u.data(), std::int64_t(sequence), s.type, seed + 1, 1.0f);
    fill_normal_input(delta.data(), std::int64_t(sequence), s.type, seed + 2, 0.5f);
    fill_normal_input(z.data(), std::int64_t(sequence), s.type, seed + 3, 1.0f);
    fill_normal_input(B.data(), std::int64_t(projection), s.type, seed + 4, 1.0f);
    fill_normal_input(C.data(), std::int64_t(projection), s.type, seed + 5, 1.0f);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<float> uniform(0.f, 1.f);
    std::vector<float> weights_A(std::size_t(s.dim * s.dstate)), weights_D(std::size_t(s.dim)),
        bias(std::size_t(s.dim), -3.9f);
    for (std::size_t e = 0; e < weights_A.size(); ++e)
      weights_A[e] = -float(e % std::size_t(s.dstate) + 1) * (0.5f + uniform(rng));
    for (float& d : weights_D) d = 2.f * uniform(rng) - 1.f;
    A = common::DeviceBuffer<float>(std::span<const float>(weights_A));
    D = common::DeviceBuffer<float>(std::span<const float>(weights_D));
    delta_bias = common::DeviceBuffer<float>(std::span<const float>(bias));
    const std::int64_t row = length;
    p.u = {u.data(), s.type, s.dim * row, row};
    p.delta = {delta.data(), s.type, s.dim * row, row};
    p.z = {z.data(), s.type, s.dim * row, row};
    p.A = A.data(), p.A_dim_stride = s.dstate;
    for (auto* projection_params : {&p.B, &p.C}) {
      projection_params->variable = true;
      projection_params->type = s.type;
      projection_params->batch_stride = s.dstate * row, projection_params->group_stride = s.dstate * row;
      projection_params->state_stride = row;
    }
    p.B.data = B.data(), p.C.data = C.data();
    p.D = D.data(), p.delta_bias = delta_bias.data();
    p.out = {out.data(), s.type, s.dim * row, row};
    p.out_z = {out_z.data(), s.type, s.dim * row, row};
    p.chunk_states = chunk_states.data();
    workspace = Bytes(selective_scan::forward_workspace_bytes(p));
    p.workspace = workspace.size() ? workspace.data() : nullptr;

    bytes = double(5 * sequence * e + 2 * projection * e + chunk_states.bytes() + workspace.size());
    try {
      backward.emplace(s, length, seed, p);
      bytes += backward->bytes;
    } catch (const std::exception&) {  // the backward's buffers do not fit: the forward is timed alone
      cudaGetLastError();              // the failed allocation's error is not the next call's
    }
    CUDA_CHECK(cudaDeviceSynchronize());
  }
};

RankBackward::RankBackward(const ScalingShape& s, std::int64_t length, std::uint64_t seed,
                           const selective_scan::ForwardParams& f) {
  const std::size_t e = std::size_t(element_bytes(s.type));
  const std::size_t sequence = std::size_t(s.batch * s.dim * length),
                    projection = std::size_t(s.batch * s.dstate * length);
  const std::int64_t row = length;
  dout = Bytes(sequence * e), du = Bytes(sequence * e), ddelta = Bytes(sequence * e), dz = Bytes(sequence * e);
  ch08::grid::fill_normal_input(dout.data(), std::int64_t(sequence), s.type, seed + 6, 1.0f);
  dA = common::DeviceBuffer<float>(std::size_t(s.dim * s.dstate));
  dB = common::DeviceBuffer<float>(projection), dC = common::DeviceBuffer<float>(projection);
  dD = common::DeviceBuffer<float>(std::size_t(s.dim)), ddelta_bias = common::DeviceBuffer<float>(std::size_t(s.dim));
  entering = common::DeviceBuffer<float>(std::size_t(s.batch * s.dim * s.dstate));
  selective_scan::BackwardParams& b = params;
  b.forward = f;
  b.dout = {dout.data(), s.type, s.dim * row, row};
  b.du = {du.data(), s.type, s.dim * row, row};
  b.ddelta = {ddelta.data(), s.type, s.dim * row, row};
  b.dz = {dz.data(), s.type, s.dim * row, row};
  b.dA = dA.data(), b.dB = dB.data(), b.dC = dC.data(), b.dD = dD.data(), b.ddelta_bias = ddelta_bias.data();
  workspace = Bytes(selective_scan::backward_workspace_bytes(b));
  b.workspace = workspace.data();
  bytes = double(4 * sequence * e + dB.bytes() + dC.bytes() + workspace.size());
}

// Events around `call` on the current GPU, after every rank reaches the barrier.
template <class Call>
double time_once(std::barrier<>& start, Call&& call) {
  cudaEvent_t begin = nullptr, end = nullptr;
  CUDA_CHECK(cudaEventCreate(&begin));
  CUDA_CHECK(cudaEventCreate(&end));
  CUDA_CHECK(cudaDeviceSynchronize());
  start.arrive_and_wait();
  CUDA_CHECK(cudaEventRecord(begin));
  call();
  CUDA_CHECK(cudaEventRecord(end));
  CUDA_CHECK(cudaEventSynchronize(end));
  float ms = 0;
  CUDA_CHECK(cudaEventElapsedTime(&ms, begin, end));
  cudaEventDestroy(begin);
  cudaEventDestroy(end);
  return ms;
}

}  // namespace

ScalingTime time_scaling(const ScalingShape& shape, int ranks, int repetitions) {
  if (ranks < 1 || repetitions < 1) throw std::invalid_argument("ch11: time_scaling: ranks and repetitions from 1");
  const std::vector<Slice> slices =
      shape.balance_forward ? split_for_forward(shape.seqlen, ranks, kGpuCut) : split(shape.seqlen, ranks, kGpuCut);
  const std::vector<ncclComm_t> comms =
      ranks > 1 ? communicators(ranks) : std::vector<ncclComm_t>(static_cast<std::size_t>(ranks), nullptr);
  std::barrier start(ranks);
  std::vector<double> forward(static_cast<std::size_t>(ranks)), both(static_cast<std::size_t>(ranks)),
      gather(static_cast<std::size_t>(ranks)), bytes(static_cast<std::size_t>(ranks));
  std::vector<std::exception_ptr> failures(static_cast<std::size_t>(ranks));
  std::vector<std::thread> threads;
  // Every rank first makes its data; where one cannot (its slice does not fit), none goes on to a
  // collective that the missing rank would never join.
  std::atomic<bool> failed{false}, backward_everywhere{true};
  for (int r = 0; r < ranks; ++r)
    threads.emplace_back([&, r] {
      std::optional<RankData> data;
      try {
        CUDA_CHECK(cudaSetDevice(r));
        data.emplace(shape, slices[std::size_t(r)].length(), 1000u * std::uint64_t(r));
        bytes[std::size_t(r)] = data->bytes;
        if (!data->backward) backward_everywhere = false;
      } catch (...) {
        failures[std::size_t(r)] = std::current_exception();
        failed = true;
      }
      start.arrive_and_wait();
      if (failed) return;
      try {
        const sequence_parallel::Slicing slicing{comms[std::size_t(r)]};
        const auto run = [&] {
          if (ranks == 1)
            selective_scan::forward(data->params);
          else
            sequence_parallel::forward(data->params, slicing, nullptr,
                                       data->backward ? data->backward->entering.data() : nullptr);
        };
        const auto run_both = [&] {
          run();
          if (ranks == 1)
            selective_scan::backward(data->backward->params);
          else
            sequence_parallel::backward(data->backward->params, slicing, data->backward->entering.data());
        };
        run();  // warm-up
        std::vector<double> samples;
        for (int i = 0; i < repetitions; ++i) samples.push_back(time_once(start, run));
        forward[std::size_t(r)] = common::summarize(samples).median_ms;
        if (backward_everywhere) {  // every rank or none: the backward's collectives need them all
          run_both();               // warm-up
          std::vector<double> samples_both;
          for (int i = 0; i < repetitions; ++i) samples_both.push_back(time_once(start, run_both));
          both[std::size_t(r)] = common::summarize(samples_both).median_ms;
        }
        if (ranks > 1) {
          // The collective alone: an all-gather of one summary a rank, b·d·(n + 1) floats.
          const std::size_t summary = std::size_t(shape.batch * shape.dim * (shape.dstate + 1));
          common::DeviceBuffer<float> own(summary), all(summary * std::size_t(ranks));
          std::vector<double> g;
          for (int i = 0; i < repetitions; ++i)
            g.push_back(time_once(start, [&] {
              if (ncclAllGather(own.data(), all.data(), summary, ncclFloat, slicing.comm, nullptr) != ncclSuccess)
                throw std::runtime_error("ncclAllGather failed");
            }));
          gather[std::size_t(r)] = common::summarize(g).median_ms;
        }
      } catch (...) {  // past the data, a failure is a broken GPU or NCCL: the other ranks may wait on it
        failures[std::size_t(r)] = std::current_exception();
      }
    });
  for (std::thread& t : threads) t.join();
  for (ncclComm_t comm : comms)
    if (comm) ncclCommDestroy(comm);
  for (const std::exception_ptr& failure : failures)
    if (failure) std::rethrow_exception(failure);
  ScalingTime t;
  t.ranks = ranks;
  t.forward_ms = *std::max_element(forward.begin(), forward.end());
  t.forward_backward_ms = *std::max_element(both.begin(), both.end());
  t.gather_ms = *std::max_element(gather.begin(), gather.end());
  t.gpu_bytes = *std::max_element(bytes.begin(), bytes.end());
  return t;
}

}  // namespace ch11
