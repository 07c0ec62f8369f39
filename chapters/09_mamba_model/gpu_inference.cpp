// gpu_inference.cpp: the recurrent step for a batch of sequences, the same launches as the
// parallel forward with L = 1 (a (sequences, channels) tensor is channels-first with one step)
// except for the two places where the past enters: the convolution and the scan, whose step is
// chapter 08's library's (selective_scan::step).
#include "gpu_inference.hpp"

#include "gpu_embedding.hpp"
#include "gpu_linear.hpp"
#include "gpu_recurrent_step.hpp"
#include "gpu_rms_norm.hpp"
#include "gpu_ssm_parameters.hpp"
#include "step.hpp"
#include "timing.hpp"

#include <random>
#include <span>
#include <stdexcept>

namespace ch09 {

namespace {
std::size_t count(int sequences, int channels) { return static_cast<std::size_t>(sequences) * channels; }
// cuBLAS's workspace, given rather than left to cuBLAS so that a graph records no allocation
// (NVIDIA's cuBLAS documentation asks for it under stream capture; 32 MiB is its size for Hopper).
constexpr std::size_t kCublasWorkspaceBytes = std::size_t(32) << 20;
}  // namespace

GpuInference::GpuInference(GpuModel& model, int sequences) : model_(model), sequences_(sequences) {
  if (sequences < 1) throw std::invalid_argument("GpuInference: at least one sequence");
  if (model.config().kind == SsmKind::mamba2)
    throw std::invalid_argument("GpuInference: no recurrent step on the GPU for Mamba-2 yet (recurrent_step has one)");
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
  decay_ = common::DeviceBuffer<float>(count(c.layers, E * c.d_state));
  if (c.kind != SsmKind::selective) {
    zero_steps_ = common::DeviceBuffer<float>(count(S, E));
    CUDA_CHECK(cudaMemset(zero_steps_.data(), 0, zero_steps_.bytes()));
  }
  tokens_ = common::DeviceBuffer<int>(count(S, 1));
  cublas_workspace_ = common::DeviceBuffer<unsigned char>(kCublasWorkspaceBytes);
  CUDA_CHECK(cudaStreamCreate(&stream_));  // blocking: ordered with the default stream
  CUBLAS_CHECK(cublasCreate(&cublas_));
  CUBLAS_CHECK(cublasSetStream(cublas_, stream_));
  CUBLAS_CHECK(cublasSetWorkspace(cublas_, cublas_workspace_.data(), cublas_workspace_.bytes()));
  reset();
}

GpuInference::~GpuInference() {
  if (graph_) cudaGraphExecDestroy(graph_);
  if (cublas_) cublasDestroy(cublas_);
  if (stream_) cudaStreamDestroy(stream_);
}

std::size_t GpuInference::state_floats_per_sequence() const {
  const ModelConfig& c = model_.config();
  return static_cast<std::size_t>(c.layers) * c.d_inner() * (c.conv_width - 1 + c.d_state);
}

void GpuInference::reset() {
  if (conv_state_.size() > 0) CUDA_CHECK(cudaMemsetAsync(conv_state_.data(), 0, conv_state_.bytes(), stream_));
  CUDA_CHECK(cudaMemsetAsync(ssm_state_.data(), 0, ssm_state_.bytes(), stream_));
}

// [snippet:inference_prefill]
void GpuInference::prefill(const int* device_prompt, int length) {
  const ModelConfig& c = model_.config();
  common::DeviceBuffer<int> no_targets(count(sequences_, length));
  CUDA_CHECK(cudaMemset(no_targets.data(), 0xff, no_targets.bytes()));  // -1: no loss anywhere
  model_.keep_last_states(true);
  try {
    model_.forward(device_prompt, no_targets.data(), sequences_, length);
  } catch (...) {  // a prompt too long for the model's buffers: later forwards keep nothing
    model_.keep_last_states(false);
    throw;
  }
  model_.keep_last_states(false);
  model_.copy_last_states(ssm_state_.data(), static_cast<long long>(c.layers) * c.d_inner() * c.d_state,
                          conv_state_.data(), static_cast<long long>(c.layers) * c.d_inner() * (c.conv_width - 1));
  // The logits of the last token: column length - 1 of the forward's (sequences, vocab, length).
  CUDA_CHECK(cudaMemcpy2DAsync(logits_.data(), sizeof(float), model_.device_logits() + (length - 1),
                               length * sizeof(float), sizeof(float), count(sequences_, c.vocab),
                               cudaMemcpyDeviceToDevice));
}
// [/snippet:inference_prefill]

// [snippet:inference_graph]
void GpuInference::step(const int* device_tokens) {
  CUDA_CHECK(cudaMemcpyAsync(tokens_.data(), device_tokens, tokens_.bytes(), cudaMemcpyDeviceToDevice, stream_));
  if (!graph_) {
    // Recorded, not run: between begin and end the launches only build the graph. ThreadLocal:
    // only this thread is barred from calls that cannot be recorded (a synchronous copy, say).
    cudaGraph_t recorded = nullptr;
    CUDA_CHECK(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal));
    try {
      enqueue_step();
    } catch (...) {  // end the capture, so that the stream is usable again, and pass the error on
      if (cudaStreamEndCapture(stream_, &recorded) == cudaSuccess && recorded) cudaGraphDestroy(recorded);
      throw;
    }
    CUDA_CHECK(cudaStreamEndCapture(stream_, &recorded));
    cudaGraphExec_t instance = nullptr;
    const cudaError_t instantiated = cudaGraphInstantiate(&instance, recorded, 0);
    CUDA_CHECK(cudaGraphDestroy(recorded));
    CUDA_CHECK(instantiated);
    graph_ = instance;
  }
  CUDA_CHECK(cudaGraphLaunch(graph_, stream_));
}
// [/snippet:inference_graph]

// [snippet:inference_scan_step]
void GpuInference::scan_step(int l) {
  const ModelConfig& c = model_.config();
  const LayerOffsets& o = model_.layout().layers[l];
  const std::int64_t S = sequences_, E = c.d_inner(), N = c.d_state, XR = c.x_proj_rows();
  const float* w = model_.device_parameters();
  const bool selective = c.kind == SsmKind::selective;
  selective_scan::StepParams p;
  // The selective model is Mamba-1's form: one head of E channels, B and C shared by all of them.
  // The LTI model's B and C belong to a channel each: E heads of one channel, a group a head, and
  // B and C the same for every sequence (batch stride 0).
  const std::int64_t heads = selective ? 1 : E, head_dim = E / heads;
  p.sizes = {S, heads, head_dim, int(N), int(selective ? 1 : E), 0};
  p.input_type = selective_scan::DataType::float32;
  p.dt_softplus = true;
  const auto channels = [&](const float* data, std::int64_t batch_stride) {
    return selective_scan::StepInput{data, p.input_type, batch_stride, head_dim, 1};
  };
  p.state = {ssm_state_.data() + l * E * N, p.input_type, c.layers * E * N, head_dim * N, N};
  p.x = channels(xs_.data(), E);
  p.dt = channels(selective ? delta_raw_.data() : zero_steps_.data(), E);
  p.A = {decay_.data() + l * E * N, head_dim * N, N, 1};
  if (selective) {
    p.B = {dbc_.data() + c.dt_rank, p.input_type, XR, 0, 1};
    p.C = {dbc_.data() + c.dt_rank + N, p.input_type, XR, 0, 1};
  } else {
    p.B = {w + o.B, p.input_type, 0, N, 1};
    p.C = {w + o.C, p.input_type, 0, N, 1};
  }
  p.D = {w + o.D, head_dim, 1};
  p.dt_bias = {w + o.dt_bias, head_dim, 1};
  p.z = channels(xz_.data() + E, 2 * E);
  p.out = {out_z_.data(), p.input_type, E, head_dim, 1};
  selective_scan::step(p, stream_);
}
// [/snippet:inference_scan_step]

// [snippet:inference_step]
void GpuInference::enqueue_step() {
  const ModelConfig& c = model_.config();
  const ParameterLayout& layout = model_.layout();
  const int S = sequences_, D = c.d_model, E = c.d_inner(), N = c.d_state, R = c.dt_rank, XR = c.x_proj_rows();
  const int W = c.conv_width;
  const float* w = model_.device_parameters();
  const gpu::Linear linear(cublas_);  // on stream_, the handle's stream
  const bool selective = c.kind == SsmKind::selective;

  // One token per sequence is a (sequences, channels, 1) tensor: the parallel kernels with L = 1.
  gpu::embedding_forward(tokens_.data(), w + layout.embedding, residual_.data(), S, D, 1, c.vocab, stream_);
  for (int l = 0; l < c.layers; ++l) {
    const LayerOffsets& o = layout.layers[l];
    gpu::rms_norm_forward(residual_.data(), w + o.norm, normed_.data(), rstd_.data(), S, D, 1, stream_);
    linear.forward_tokens(w + o.in_proj, 2 * E, D, normed_.data(), D, xz_.data(), 2 * E, S);
    const long long conv_stride = static_cast<long long>(c.layers) * E * (W - 1);
    gpu::conv1d_silu_step(xz_.data(), 2 * E, conv_state_.data() + l * static_cast<long long>(E) * (W - 1), conv_stride,
                          w + o.conv_weight, w + o.conv_bias, xs_.data(), S, E, W, stream_);
    if (selective) {
      linear.forward_tokens(w + o.x_proj, XR, E, xs_.data(), E, dbc_.data(), XR, S);
      linear.forward_tokens(w + o.dt_proj, E, R, dbc_.data(), XR, delta_raw_.data(), E, S);
    }
    // A from the parameters as they are now (training may have moved them), then the scan's step.
    gpu::decay_from_log(w + o.A_log, decay_.data() + l * static_cast<long long>(E) * N, E * N, stream_);
    scan_step(l);
    // The residual connection: r += out_proj · out_z.
    linear.forward_tokens(w + o.out_proj, D, E, out_z_.data(), E, residual_.data(), D, S, 1.0f);
  }
  gpu::rms_norm_forward(residual_.data(), w + layout.final_norm, normed_.data(), rstd_.data(), S, D, 1, stream_);
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
