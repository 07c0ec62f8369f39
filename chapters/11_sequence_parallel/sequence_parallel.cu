#include "sequence_parallel.hpp"

#include "device_math.cuh"

#include <cstdint>
#include <string>

namespace sequence_parallel {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess)
    throw selective_scan::Error(std::string("sequence_parallel: ") + what + ": " + cudaGetErrorString(status));
}
void check(ncclResult_t status, const char* what) {
  if (status != ncclSuccess)
    throw selective_scan::Error(std::string("sequence_parallel: ") + what + ": " + ncclGetErrorString(status));
}

using selective_scan::detail::softplus;
using selective_scan::detail::to_float;

// One warp a (b, d): Σ_t δ_t of the slice, δ = softplus?(delta + bias) as chapter 08 takes it,
// written after the last states in the summary: summary[states + b·dim + d].
template <class T>
__global__ void step_sums_kernel(selective_scan::ForwardParams p, float* sums) {
  const std::int64_t channels = p.sizes.batch * p.sizes.dim;
  const std::int64_t warp = (blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x) / 32;
  const int lane = int(threadIdx.x % 32);
  if (warp >= channels) return;
  const std::int64_t b = warp / p.sizes.dim, d = warp % p.sizes.dim;
  const T* row = static_cast<const T*>(p.delta.data) + b * p.delta.batch_stride + d * p.delta.dim_stride;
  const float bias = p.delta_bias ? p.delta_bias[d] : 0.f;
  float sum = 0.f;
  for (std::int64_t t = lane; t < p.sizes.seqlen; t += 32) {
    const float v = to_float(row[t]) + bias;
    sum += p.flags.delta_softplus ? softplus(v) : v;
  }
  for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffffu, sum, offset);
  if (lane == 0) sums[warp] = sum;
}

// [snippet:gpu_fold]
// One thread a state element (b, d, n): the state entering rank `rank`'s slice. Rank 0's summary
// is its slice's end from the sequence's initial state, so the fold starts from 0 and carries it
// through ranks 0 .. rank − 1; rank 0's own is the initial state (or 0). gathered holds every
// rank's summary: states, then Σδ.
__global__ void fold_kernel(const float* gathered, const float* A, std::int64_t A_dim_stride, const float* initial,
                            float* carry, selective_scan::Sizes s, int rank) {
  const std::int64_t states = s.batch * s.dim * s.dstate, summary = states + s.batch * s.dim;
  for (std::int64_t e = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; e < states;
       e += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t n = e % s.dstate, channel = e / s.dstate, d = channel % s.dim;
    const float a = A[d * A_dim_stride + n];
    float h = rank == 0 && initial ? initial[e] : 0.f;
    for (int k = 0; k < rank; ++k)
      h = expf(a * gathered[k * summary + states + channel]) * h + gathered[k * summary + e];
    carry[e] = h;
  }
}
// [/snippet:gpu_fold]

// [snippet:gpu_fold_backward]
// The backward's fold, one thread a state element: the gradient handed back across this rank's
// end. The last rank's summary already starts from the sequence's dlast_state, so the fold starts
// from 0 and carries it through ranks − 1 .. rank + 1; the last rank's own is dlast_state (or 0).
__global__ void fold_backward_kernel(const float* gathered, const float* A, std::int64_t A_dim_stride,
                                     const float* dlast, float* handed, selective_scan::Sizes s, int rank, int ranks) {
  const std::int64_t states = s.batch * s.dim * s.dstate, summary = states + s.batch * s.dim;
  for (std::int64_t e = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x; e < states;
       e += std::int64_t(gridDim.x) * blockDim.x) {
    const std::int64_t n = e % s.dstate, channel = e / s.dstate, d = channel % s.dim;
    const float a = A[d * A_dim_stride + n];
    float q = rank == ranks - 1 && dlast ? dlast[e] : 0.f;
    for (int k = ranks - 1; k > rank; --k)
      q = expf(a * gathered[k * summary + states + channel]) * q + gathered[k * summary + e];
    handed[e] = q;
  }
}
// [/snippet:gpu_fold_backward]

// Σδ of every channel of the slice into sums (step_sums_kernel in the input type).
void launch_step_sums(const selective_scan::ForwardParams& slice, float* sums, cudaStream_t stream) {
  const unsigned warps_per_block = 8,
                 blocks = unsigned((slice.sizes.batch * slice.sizes.dim + warps_per_block - 1) / warps_per_block);
  switch (slice.input_type) {
    case selective_scan::DataType::float32:
      step_sums_kernel<float><<<blocks, 32 * warps_per_block, 0, stream>>>(slice, sums);
      break;
    case selective_scan::DataType::float16:
      step_sums_kernel<__half><<<blocks, 32 * warps_per_block, 0, stream>>>(slice, sums);
      break;
    case selective_scan::DataType::bfloat16:
      step_sums_kernel<__nv_bfloat16><<<blocks, 32 * warps_per_block, 0, stream>>>(slice, sums);
      break;
  }
  check(cudaPeekAtLastError(), "the step sums' launch");
}

template <class T>
class Scratch {
 public:
  Scratch(std::size_t count, cudaStream_t stream) : stream_(stream) {
    check(cudaMallocAsync(reinterpret_cast<void**>(&data_), count * sizeof(T), stream), "cudaMallocAsync");
  }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() { cudaFreeAsync(data_, stream_); }
  T* get() const { return data_; }

 private:
  T* data_ = nullptr;
  cudaStream_t stream_;
};

}  // namespace

std::string validate(const selective_scan::ForwardParams& p, const Slicing& slicing) {
  if (std::string problem = selective_scan::validate(p); !problem.empty()) return problem;
  if (!slicing.comm) return "no communicator";
  if (p.flags.complex) return "a sliced sequence takes real A (Mamba's)";
  if (!p.B.variable || !p.C.variable) return "a sliced sequence takes B and C variable along time";
  if (p.state_checkpoints) return "a sliced sequence keeps no state checkpoints";
  return {};
}

// [snippet:gpu_forward]
void forward(const selective_scan::ForwardParams& slice, const Slicing& slicing, cudaStream_t stream,
             float* entering_state) {
  if (std::string problem = validate(slice, slicing); !problem.empty())
    throw selective_scan::Error("sequence_parallel::forward: " + problem);
  int rank = 0, ranks = 1;
  check(ncclCommUserRank(slicing.comm, &rank), "ncclCommUserRank");
  check(ncclCommCount(slicing.comm, &ranks), "ncclCommCount");
  const selective_scan::Sizes& s = slice.sizes;
  const std::int64_t states = s.batch * s.dim * s.dstate, summary = states + s.batch * s.dim;
  Scratch<float> own(std::size_t(summary), stream), gathered(std::size_t(summary * ranks), stream),
      scratch_carry(entering_state ? 0 : std::size_t(states), stream);
  float* carry = entering_state ? entering_state : scratch_carry.get();

  // 1. The slice's scan: its last state and its Σδ, this rank's summary. Every rank but the first
  //    starts from zero; rank 0's slice starts the sequence, so it starts from the initial state
  //    and its scan is already final: it scans once, the others twice. A longer first slice
  //    does not pay: step 4 waits for rank 0's summary, the end of its one pass (section [5]).
  selective_scan::ForwardParams first_pass = slice;
  if (rank > 0) first_pass.initial_state = nullptr;
  first_pass.last_state = own.get();
  selective_scan::forward(first_pass, stream);
  launch_step_sums(slice, own.get() + states, stream);

  // 2. Every rank's summary to every rank.
  check(ncclAllGather(own.get(), gathered.get(), std::size_t(summary), ncclFloat, slicing.comm, stream),
        "ncclAllGather");

  // 3. The state entering this rank's slice.
  fold_kernel<<<unsigned((states + 255) / 256), 256, 0, stream>>>(gathered.get(), slice.A, slice.A_dim_stride,
                                                                  slice.initial_state, carry, s, rank);
  check(cudaPeekAtLastError(), "the fold's launch");

  // 4. The slice again, from that state (rank 0: done; alone, it also hands out the last state).
  if (rank > 0) {
    selective_scan::ForwardParams entered = slice;
    entered.initial_state = carry;
    if (rank != ranks - 1) entered.last_state = nullptr;
    selective_scan::forward(entered, stream);
  } else if (ranks == 1 && slice.last_state) {
    check(cudaMemcpyAsync(slice.last_state, own.get(), std::size_t(states) * sizeof(float), cudaMemcpyDeviceToDevice,
                          stream),
          "cudaMemcpyAsync");
  }
}
// [/snippet:gpu_forward]

std::string validate(const selective_scan::BackwardParams& p, const Slicing& slicing, const float* entering_state) {
  if (std::string problem = validate(p.forward, slicing); !problem.empty()) return problem;
  if (!entering_state) return "the backward needs the state entering the slice (forward's entering_state)";
  if (p.dinitial_state && !p.forward.initial_state) return "dinitial_state is given but initial_state is not";
  selective_scan::BackwardParams entered = p;
  entered.forward.initial_state = entering_state;
  return selective_scan::validate(entered);
}

// [snippet:gpu_backward]
void backward(const selective_scan::BackwardParams& slice, const Slicing& slicing, const float* entering_state,
              cudaStream_t stream) {
  if (std::string problem = validate(slice, slicing, entering_state); !problem.empty())
    throw selective_scan::Error("sequence_parallel::backward: " + problem);
  int rank = 0, ranks = 1;
  check(ncclCommUserRank(slicing.comm, &rank), "ncclCommUserRank");
  check(ncclCommCount(slicing.comm, &ranks), "ncclCommCount");
  const selective_scan::Sizes& s = slice.forward.sizes;
  const std::int64_t states = s.batch * s.dim * s.dstate, summary = states + s.batch * s.dim;
  Scratch<float> own(std::size_t(summary), stream), gathered(std::size_t(summary * ranks), stream),
      handed(std::size_t(states), stream);

  // 1. The slice's backward: the q leaving its first step, and its Σδ, this rank's summary. Every
  //    rank but the last has nothing handed back across its end; the last rank's slice ends the
  //    sequence, so it takes the sequence's dlast_state and its backward is already final (its
  //    other gradients; the others' are written again in 4).
  selective_scan::BackwardParams alone = slice;
  alone.forward.initial_state = entering_state;
  alone.dlast_state = rank == ranks - 1 ? slice.dlast_state : nullptr;
  alone.dinitial_state = own.get();
  selective_scan::backward(alone, stream);
  launch_step_sums(slice.forward, own.get() + states, stream);

  // 2. Every rank's summary to every rank.
  check(ncclAllGather(own.get(), gathered.get(), std::size_t(summary), ncclFloat, slicing.comm, stream),
        "ncclAllGather");

  // 3. The gradient handed back across this rank's end.
  fold_backward_kernel<<<unsigned((states + 255) / 256), 256, 0, stream>>>(
      gathered.get(), slice.forward.A, slice.forward.A_dim_stride, slice.dlast_state, handed.get(), s, rank, ranks);
  check(cudaPeekAtLastError(), "the backward fold's launch");

  // 4. The slice's backward again, with it (the last rank: done; alone, it also hands out the
  //    sequence's dinitial_state).
  if (rank < ranks - 1) {
    selective_scan::BackwardParams entered = slice;
    entered.forward.initial_state = entering_state;
    entered.dlast_state = handed.get();
    entered.dinitial_state = rank == 0 ? slice.dinitial_state : nullptr;
    selective_scan::backward(entered, stream);
  } else if (ranks == 1 && slice.dinitial_state) {
    check(cudaMemcpyAsync(slice.dinitial_state, own.get(), std::size_t(states) * sizeof(float),
                          cudaMemcpyDeviceToDevice, stream),
          "cudaMemcpyAsync");
  }

  // 5. The weights' gradients of the whole sequence: every rank's summed.
  const auto sum_over_ranks = [&](float* gradient, std::int64_t count, const char* what) {
    if (gradient)
      check(ncclAllReduce(gradient, gradient, std::size_t(count), ncclFloat, ncclSum, slicing.comm, stream), what);
  };
  check(ncclGroupStart(), "ncclGroupStart");
  sum_over_ranks(slice.dA, s.dim * s.dstate, "ncclAllReduce of dA");
  sum_over_ranks(slice.dD, s.dim, "ncclAllReduce of dD");
  sum_over_ranks(slice.ddelta_bias, s.dim, "ncclAllReduce of ddelta_bias");
  check(ncclGroupEnd(), "ncclGroupEnd");
}
// [/snippet:gpu_backward]

}  // namespace sequence_parallel
