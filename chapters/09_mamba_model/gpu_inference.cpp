// gpu_inference.cpp: the recurrent step for a batch of sequences, the same launches as the
// parallel forward with L = 1 (a (sequences, channels) tensor is channels-first with one step)
// except for the two places where the past enters: the convolution and the scan.
#include "gpu_inference.hpp"

#include "gpu_embedding.hpp"
#include "gpu_linear.hpp"
#include "gpu_recurrent_step.hpp"
#include "gpu_rms_norm.hpp"
#include "timing.hpp"

#include <random>
#include <span>
#include <stdexcept>

namespace ch09 {

namespace {
std::size_t count(int sequences, int channels) { return static_cast<std::size_t>(sequences) * channels; }
}  // namespace

GpuInference::GpuInference(const GpuModel& model, int sequences) : model_(model), sequences_(sequences) {
  if (sequences < 1) throw std::invalid_argument("GpuInference: at least one sequence");
  const ModelConfig& c = model.config();
  const int S = sequences, E = c.d_inner();
  conv_state_ = common::DeviceBuffer<float>(count(S, c.layers * E * (c.conv_width - 1)));
  ssm_state_ = common::DeviceBuffer<float>(count(S, c.layers * E * c.d_state));
  residual_ = common::DeviceBuffer<float>(count(S, c.d_model));
  normed_ = common::DeviceBuffer<float>(count(S, c.d_model));
  rstd_ = common::DeviceBuffer<float>(count(S, 1));
  xz_ = common::DeviceBuffer<float>(count(S, 2 * E));
  xs_ = common::DeviceBuffer<float>(count(S, E));
  if (c.kind == SsmKind::selective) {
    dbc_ = common::DeviceBuffer<float>(count(S, c.x_proj_rows()));
    delta_raw_ = common::DeviceBuffer<float>(count(S, E));
  }
  out_z_ = common::DeviceBuffer<float>(count(S, E));
  logits_ = common::DeviceBuffer<float>(count(S, c.vocab));
  CUBLAS_CHECK(cublasCreate(&cublas_));
  reset();
}

GpuInference::~GpuInference() {
  if (cublas_) cublasDestroy(cublas_);
}

std::size_t GpuInference::state_floats_per_sequence() const {
  const ModelConfig& c = model_.config();
  return static_cast<std::size_t>(c.layers) * c.d_inner() * (c.conv_width - 1 + c.d_state);
}

void GpuInference::reset() {
  if (conv_state_.size() > 0) CUDA_CHECK(cudaMemsetAsync(conv_state_.data(), 0, conv_state_.bytes()));
  CUDA_CHECK(cudaMemsetAsync(ssm_state_.data(), 0, ssm_state_.bytes()));
}

// [snippet:inference_step]
void GpuInference::step(const int* device_tokens) {
  const ModelConfig& c = model_.config();
  const ParameterLayout& layout = model_.layout();
  const int S = sequences_, D = c.d_model, E = c.d_inner(), N = c.d_state, R = c.dt_rank, XR = c.x_proj_rows();
  const int W = c.conv_width;
  const float* w = model_.device_parameters();
  const gpu::Linear linear(cublas_);
  const bool selective = c.kind == SsmKind::selective;

  // One token per sequence is a (sequences, channels, 1) tensor: the parallel kernels with L = 1.
  gpu::embedding_forward(device_tokens, w + layout.embedding, residual_.data(), S, D, 1, c.vocab);
  for (int l = 0; l < c.layers; ++l) {
    const LayerOffsets& o = layout.layers[l];
    gpu::rms_norm_forward(residual_.data(), w + o.norm, normed_.data(), rstd_.data(), S, D, 1);
    linear.forward_tokens(w + o.in_proj, 2 * E, D, normed_.data(), D, xz_.data(), 2 * E, S);
    const long long conv_stride = static_cast<long long>(c.layers) * E * (W - 1);
    gpu::conv1d_silu_step(xz_.data(), 2 * E, conv_state_.data() + l * static_cast<long long>(E) * (W - 1), conv_stride,
                          w + o.conv_weight, w + o.conv_bias, xs_.data(), S, E, W);
    gpu::SsmStepArgs a{};
    if (selective) {
      linear.forward_tokens(w + o.x_proj, XR, E, xs_.data(), E, dbc_.data(), XR, S);
      linear.forward_tokens(w + o.dt_proj, E, R, dbc_.data(), XR, delta_raw_.data(), E, S);
      a.delta_raw = delta_raw_.data();
      a.B = dbc_.data() + R, a.C = dbc_.data() + R + N, a.bc_stride = XR;
    } else {
      a.delta_raw = nullptr;
      a.B = w + o.B, a.C = w + o.C, a.bc_stride = 0;
    }
    a.u = xs_.data(), a.z = xz_.data() + E, a.z_stride = 2 * E;
    a.dt_bias = w + o.dt_bias, a.A_log = w + o.A_log, a.D = w + o.D;
    a.h = ssm_state_.data() + l * static_cast<long long>(E) * N;
    a.state_stride = static_cast<long long>(c.layers) * E * N;
    a.out = out_z_.data(), a.sequences = S, a.channels = E, a.dstate = N;
    gpu::ssm_step(a);
    // The residual connection: r += out_proj · out_z.
    linear.forward_tokens(w + o.out_proj, D, E, out_z_.data(), E, residual_.data(), D, S, 1.0f);
  }
  gpu::rms_norm_forward(residual_.data(), w + layout.final_norm, normed_.data(), rstd_.data(), S, D, 1);
  linear.forward_tokens(w + layout.embedding, c.vocab, D, normed_.data(), D, logits_.data(), c.vocab, S);
}
// [/snippet:inference_step]

InferenceThroughput measure_inference_throughput(GpuModel& model, int sequences, int length, unsigned seed,
                                                 int repetitions) {
  const ModelConfig& c = model.config();
  std::mt19937_64 rng(seed);
  std::vector<int> tokens(count(sequences, length)), targets(tokens.size(), -1);
  for (int& t : tokens) t = static_cast<int>(rng() % static_cast<unsigned>(c.vocab));
  // Stepping reads column t of a (length, sequences) array: the tokens of one step contiguous.
  std::vector<int> by_step(tokens.size());
  for (int s = 0; s < sequences; ++s)
    for (int t = 0; t < length; ++t) by_step[count(t, sequences) + s] = tokens[count(s, length) + t];
  common::DeviceBuffer<int> d_tokens{std::span<const int>(tokens)}, d_targets{std::span<const int>(targets)};
  common::DeviceBuffer<int> d_by_step{std::span<const int>(by_step)};

  GpuInference inference(model, sequences);
  common::GpuTimer timer({3, repetitions, true});
  InferenceThroughput result;
  result.sequences = sequences, result.length = length;
  result.step_ms = timer.time([&] {
    inference.reset();
    for (int t = 0; t < length; ++t) inference.step(d_by_step.data() + count(t, sequences));
  });
  result.parallel_ms = timer.time([&] { model.forward(d_tokens.data(), d_targets.data(), sequences, length); });
  return result;
}

}  // namespace ch09
