// gpu_model.cpp: the model's forward and backward as a sequence of launches on one stream.
#include "gpu_model.hpp"

#include "gpu_adamw.hpp"
#include "gpu_conv1d.hpp"
#include "gpu_embedding.hpp"
#include "gpu_linear.hpp"
#include "gpu_rms_norm.hpp"
#include "gpu_ssm_parameters.hpp"
#include "selective_scan.hpp"
#include "softplus.hpp"

#include <algorithm>
#include <cmath>
#include <span>
#include <stdexcept>
#include <string>

namespace ch09 {

namespace {

using selective_scan::DataType;

std::size_t sequence_floats(int batch, int rows, int seqlen) { return static_cast<std::size_t>(batch) * rows * seqlen; }

std::size_t chunk_floats(const ModelConfig& c, int batch, int seqlen) {
  return static_cast<std::size_t>(
      selective_scan::chunk_states_floats({batch, c.d_inner(), seqlen, c.d_state, 1}, /*complex=*/false));
}

selective_scan::Input sequence_in(const float* data, long long batch_stride, int seqlen) {
  return {data, DataType::float32, batch_stride, seqlen};
}
selective_scan::Output sequence_out(float* data, long long batch_stride, int seqlen) {
  return {data, DataType::float32, batch_stride, seqlen};
}

}  // namespace

ReferenceTolerances reference_tolerances(SsmKind kind) {
  if (kind == SsmKind::mamba2) return {{1e-4, 1e-3}, {2e-5, 2e-3}};
  return {{1e-5, 1e-4}, {2e-6, 2e-4}};
}

// Where layer `l`'s activations of the current (batch, seqlen) live: each tensor kind has one
// capacity-sized slot per layer, and the tensor is contiguous at the start of its slot.
struct GpuModel::Pointers {
  float *r_in, *r_out, *normed, *rstd, *xz, *xc, *xs, *dbc, *delta_raw, *A, *y, *out_z, *chunk_states;
};

GpuModel::Pointers GpuModel::pointers(int l) const {
  const int Bm = max_batch_, Lm = max_seqlen_, D = config_.d_model, E = config_.d_inner();
  const std::size_t slot_D = sequence_floats(Bm, D, Lm), slot_E = sequence_floats(Bm, E, Lm);
  auto at = [](const Buffer<float>& buffer, std::size_t offset) { return const_cast<float*>(buffer.data()) + offset; };
  const bool selective = config_.kind == SsmKind::selective;
  if (config_.kind == SsmKind::mamba2)  // the block's own activations live in its GpuMamba2Layer
    return {at(residual_, l * slot_D),
            at(residual_, (l + 1) * slot_D),
            at(normed_, l * slot_D),
            at(rstd_, l * sequence_floats(Bm, 1, Lm)),
            nullptr,
            nullptr,
            nullptr,
            nullptr,
            nullptr,
            nullptr,
            nullptr,
            nullptr,
            nullptr};
  return {at(residual_, l * slot_D),
          at(residual_, (l + 1) * slot_D),
          at(normed_, l * slot_D),
          at(rstd_, l * sequence_floats(Bm, 1, Lm)),
          at(xz_, l * 2 * slot_E),
          at(xc_, l * slot_E),
          at(xs_, l * slot_E),
          selective ? at(dbc_, l * sequence_floats(Bm, config_.x_proj_rows(), Lm)) : nullptr,
          selective ? at(delta_raw_, l * slot_E) : at(zero_delta_, 0),
          at(A_, l * static_cast<std::size_t>(E) * config_.d_state),
          at(y_, l * slot_E),
          at(out_z_, l * slot_E),
          at(chunk_states_, l * chunk_floats(config_, Bm, Lm))};
}

GpuModel::GpuModel(const ModelConfig& config, int max_batch, int max_seqlen)
    : config_(config), max_batch_(max_batch), max_seqlen_(max_seqlen) {
  if (const std::string problem = config.validate(); !problem.empty())
    throw std::invalid_argument("GpuModel: " + problem);
  if (max_batch < 1 || max_seqlen < 1)
    throw std::invalid_argument("GpuModel: max_batch and max_seqlen must be at least 1");
  // The Mamba-2 layer's SSD backward in fp32 is chapter 10's version 1 (chapter 08's scan), which
  // takes at most 256 states.
  if (config.kind == SsmKind::mamba2 && config.d_state > selective_scan::kMaxStates)
    throw std::invalid_argument("GpuModel: the Mamba-2 model's SSD takes at most " +
                                std::to_string(selective_scan::kMaxStates) + " states, not " +
                                std::to_string(config.d_state));
  layout_ = parameter_layout(config);
  const int Bm = max_batch, Lm = max_seqlen, D = config.d_model, E = config.d_inner(), N = config.d_state;
  const int layers = config.layers, XR = config.x_proj_rows(), V = config.vocab;
  const bool selective = config.kind == SsmKind::selective, mamba2 = config.kind == SsmKind::mamba2;
  const std::size_t slot_D = sequence_floats(Bm, D, Lm), slot_E = sequence_floats(Bm, E, Lm);

  parameters_ = Buffer<float>(layout_.total);
  gradients_ = Buffer<float>(layout_.total);
  adam_m_ = Buffer<float>(layout_.total);
  adam_v_ = Buffer<float>(layout_.total);
  const std::vector<float> mask = weight_decay_mask(config);
  decay_mask_ = Buffer<float>(std::span<const float>(mask));
  gradient_norm_ = Buffer<float>(1);
  tokens_ = Buffer<int>(sequence_floats(Bm, 1, Lm));
  targets_ = Buffer<int>(sequence_floats(Bm, 1, Lm));

  residual_ = Buffer<float>((layers + 1) * slot_D);
  normed_ = Buffer<float>(layers * slot_D);
  rstd_ = Buffer<float>((layers + 1) * sequence_floats(Bm, 1, Lm));
  final_normed_ = Buffer<float>(slot_D);
  logits_ = Buffer<float>(sequence_floats(Bm, V, Lm));
  position_loss_ = Buffer<float>(sequence_floats(Bm, 1, Lm));
  logsumexp_ = Buffer<float>(sequence_floats(Bm, 1, Lm));
  position_correct_ = Buffer<int>(sequence_floats(Bm, 1, Lm));
  metrics_ = Buffer<gpu::LossMetrics>(1);
  dlogits_ = Buffer<float>(sequence_floats(Bm, V, Lm));
  d_model_scratch_ = Buffer<float>(slot_D);
  d_residual_ = Buffer<float>(slot_D);
  const std::vector<float> ones(Bm, 1.0f);
  ones_ = Buffer<float>(std::span<const float>(ones));
  // The padding between parameter blocks has no gradient: zero once, never written again.
  CUDA_CHECK(cudaMemset(gradients_.data(), 0, gradients_.bytes()));
  if (mamba2) {
    for (int l = 0; l < layers; ++l)
      mamba2_layers_.push_back(std::make_unique<GpuMamba2Layer>(config.mamba2(), config.conv_width, Bm, Lm));
    // The largest weight of a linear map: in_proj (in_proj_rows, D), out_proj (D, E), the head (V, D).
    weight_scratch_ = Buffer<float>(
        Bm * std::max(static_cast<std::size_t>(config.mamba2().in_proj_rows()) * D, static_cast<std::size_t>(V) * D));
    CUBLAS_CHECK(cublasCreate(&cublas_));  // last: nothing after it throws, so the destructor frees it
    return;
  }
  xz_ = Buffer<float>(layers * 2 * slot_E);
  xc_ = Buffer<float>(layers * slot_E);
  xs_ = Buffer<float>(layers * slot_E);
  if (selective) {
    dbc_ = Buffer<float>(layers * sequence_floats(Bm, XR, Lm));
    delta_raw_ = Buffer<float>(layers * slot_E);
  } else {
    // The LTI model's Δ is softplus(dt_bias) at every step: the scan's delta input is all zeros.
    zero_delta_ = Buffer<float>(slot_E);
    CUDA_CHECK(cudaMemset(zero_delta_.data(), 0, zero_delta_.bytes()));
  }
  A_ = Buffer<float>(static_cast<std::size_t>(layers) * E * N);
  y_ = Buffer<float>(layers * slot_E);
  out_z_ = Buffer<float>(layers * slot_E);
  chunk_states_ = Buffer<float>(layers * chunk_floats(config, Bm, Lm));
  d_out_z_ = Buffer<float>(slot_E);
  d_xs_ = Buffer<float>(slot_E);
  d_delta_ = Buffer<float>(slot_E);
  d_xz_ = Buffer<float>(2 * slot_E);
  d_xc_ = Buffer<float>(slot_E);
  if (selective) {
    d_dbc_ = Buffer<float>(sequence_floats(Bm, XR, Lm));
    dB_ = Buffer<float>(sequence_floats(Bm, N, Lm));
    dC_ = Buffer<float>(sequence_floats(Bm, N, Lm));
  }
  dA_ = Buffer<float>(static_cast<std::size_t>(E) * N);
  // The largest weight of a linear map: in_proj (2E, D), x_proj (XR, E), out_proj (D, E), the head (V, D).
  const std::size_t largest_weight = std::max(
      {2 * static_cast<std::size_t>(E) * D, static_cast<std::size_t>(XR) * E, static_cast<std::size_t>(V) * D});
  weight_scratch_ = Buffer<float>(Bm * largest_weight);

  const selective_scan::BackwardParams largest = scan_params(0, Bm, Lm);
  scan_workspace_ = Buffer<unsigned char>(selective_scan::backward_workspace_bytes(largest));
  CUBLAS_CHECK(cublasCreate(&cublas_));
}

double GpuModel::device_bytes(const ModelConfig& c, int max_batch, int max_seqlen) {
  const double D = c.d_model, E = c.d_inner(), N = c.d_state, XR = c.x_proj_rows(), V = c.vocab, layers = c.layers;
  const bool selective = c.kind == SsmKind::selective;
  if (c.kind == SsmKind::mamba2) {
    // The residual stream, its norms and the head as below, and each layer's own buffers.
    const double positions = double(max_batch) * double(max_seqlen);
    const double shared = (layers + 1) * (D + 1) + layers * D + D + V + 5 + V + 2 * D;
    const double weight_scratch = max_batch * std::max(double(c.mamba2().in_proj_rows()) * D, V * D);
    const double parameters = 5.0 * double(parameter_layout(c).total);
    return 4.0 * (positions * shared + weight_scratch + parameters) +
           layers * GpuMamba2Layer::device_bytes(c.mamba2(), max_batch, max_seqlen) +
           GpuMamba2Layer::ssd_scratch_bytes(c.mamba2(), max_batch, max_seqlen);
  }
  // Floats per position, as the constructor allocates them: the forward's activations (residual,
  // normed, rstd, xz, xc, xs, y, out_z, Δ and x_proj's output or the LTI's zero Δ; final norm,
  // logits, loss, tokens) and the backward's scratch (dlogits, two D-sized, d_xz and four
  // E-sized, d_dbc, dB, dC).
  const double forward =
      (layers + 1) * (D + 1) + layers * (D + 6 * E + (selective ? E + XR : 0)) + (selective ? 0 : E) + D + V + 5;
  const double backward = V + 2 * D + 6 * E + (selective ? XR + 2 * N : 0);
  const double positions = double(max_batch) * double(max_seqlen);
  const double chunk_states = layers * double(selective_scan::chunk_states_floats(
                                           {max_batch, c.d_inner(), max_seqlen, c.d_state, 1}, /*complex=*/false));
  const double weight_scratch = max_batch * std::max({2 * E * D, XR * E, V * D});
  const double parameters = 5.0 * double(parameter_layout(c).total);  // weights, gradients, moments, decay mask
  return 4.0 * (positions * (forward + backward) + chunk_states + weight_scratch + parameters + E * N * (layers + 1));
}

void GpuModel::poison_outputs() {
  for (Buffer<float>* buffer : {&residual_,
                                &normed_,
                                &rstd_,
                                &xz_,
                                &xc_,
                                &xs_,
                                &dbc_,
                                &delta_raw_,
                                &A_,
                                &y_,
                                &out_z_,
                                &chunk_states_,
                                &final_normed_,
                                &logits_,
                                &position_loss_,
                                &logsumexp_,
                                &dlogits_,
                                &d_model_scratch_,
                                &d_residual_,
                                &d_out_z_,
                                &d_xs_,
                                &d_delta_,
                                &d_xz_,
                                &d_xc_,
                                &d_dbc_,
                                &dB_,
                                &dC_,
                                &dA_,
                                &weight_scratch_})
    buffer->poison();
  for (const auto& layer : mamba2_layers_) layer->poison();
  for (const ParameterBlock& block : parameter_blocks(config_))
    CUDA_CHECK(cudaMemset(gradients_.data() + block.offset, 0xFF, block.count * sizeof(float)));
  metrics_.poison();
}

GpuModel::~GpuModel() {
  if (cublas_) cublasDestroy(cublas_);
}

void GpuModel::check_size(int batch, int seqlen) const {
  if (batch < 1 || batch > max_batch_ || seqlen < 1 || seqlen > max_seqlen_)
    throw std::invalid_argument("GpuModel: batch " + std::to_string(batch) + " x seqlen " + std::to_string(seqlen) +
                                " outside the model's buffers (" + std::to_string(max_batch_) + " x " +
                                std::to_string(max_seqlen_) + ")");
}

// [snippet:scan_params]
selective_scan::BackwardParams GpuModel::scan_params(int l, int batch, int seqlen) const {
  const Pointers p = pointers(l);
  const LayerOffsets& o = layout_.layers[l];
  const int E = config_.d_inner(), N = config_.d_state, R = config_.dt_rank, XR = config_.x_proj_rows();
  const long long L = seqlen, seq_E = static_cast<long long>(E) * L;
  const float* parameters = parameters_.data();
  float* gradients = const_cast<float*>(gradients_.data());
  const bool selective = config_.kind == SsmKind::selective;

  selective_scan::BackwardParams b;
  selective_scan::ForwardParams& f = b.forward;
  f.sizes = {batch, E, seqlen, N, 1};
  f.input_type = DataType::float32;
  f.flags.delta_softplus = true;
  f.kernel = selective_scan::Kernel::automatic;  // the library picks the version per call (plan_of)
  f.u = sequence_in(p.xs, seq_E, seqlen);
  f.delta = sequence_in(p.delta_raw, selective ? seq_E : 0, seqlen);  // LTI: zeros, Δ = softplus(dt_bias)
  f.z = sequence_in(p.xz + seq_E, 2 * seq_E, seqlen);                 // the z half of in_proj's output
  f.A = p.A;
  f.A_dim_stride = N;
  if (selective) {  // B and C: rows [R, R + N) and [R + N, R + 2N) of x_proj's output, read in place
    f.B = {true, p.dbc + R * L, DataType::float32, XR * L, N * L, L, 0};
    f.C = {true, p.dbc + (R + N) * L, DataType::float32, XR * L, N * L, L, 0};
  } else {  // learned (d_inner, N) matrices, the same at every step
    f.B = {false, parameters + o.B, DataType::float32, 0, 0, 0, N};
    f.C = {false, parameters + o.C, DataType::float32, 0, 0, 0, N};
  }
  f.D = parameters + o.D;
  f.delta_bias = parameters + o.dt_bias;
  f.out = sequence_out(p.y, seq_E, seqlen);
  f.out_z = sequence_out(p.out_z, seq_E, seqlen);
  f.chunk_states = p.chunk_states;

  // Without float atomics (version 2's backward, which sums dB, dC, dA, dD and ddelta_bias in a
  // fixed order): a seed gives the same training run bit for bit. With atomics, last-bit
  // differences grow over thousands of steps into different runs, and whether a run finds the
  // task's sharp transition would be a matter of luck a reader could not reproduce.
  b.deterministic = true;
  b.dout = sequence_in(d_out_z_.data(), seq_E, seqlen);
  b.du = sequence_out(const_cast<float*>(d_xs_.data()), seq_E, seqlen);
  b.ddelta = sequence_out(const_cast<float*>(d_delta_.data()), seq_E, seqlen);
  b.dz = sequence_out(const_cast<float*>(d_xz_.data()) + seq_E, 2 * seq_E, seqlen);
  b.dA = const_cast<float*>(dA_.data());
  b.dB = selective ? const_cast<float*>(dB_.data()) : gradients + o.B;
  b.dC = selective ? const_cast<float*>(dC_.data()) : gradients + o.C;
  b.dD = gradients + o.D;
  b.ddelta_bias = gradients + o.dt_bias;
  b.workspace = const_cast<unsigned char*>(scan_workspace_.data());
  return b;
}
// [/snippet:scan_params]

void GpuModel::load_parameters(const std::vector<float>& parameters) {
  if (parameters.size() != layout_.total)
    throw std::invalid_argument("GpuModel::load_parameters: " + std::to_string(parameters.size()) +
                                " floats, the model has " + std::to_string(layout_.total));
  parameters_.upload(parameters);
  CUDA_CHECK(cudaMemset(adam_m_.data(), 0, adam_m_.bytes()));
  CUDA_CHECK(cudaMemset(adam_v_.data(), 0, adam_v_.bytes()));
}

std::vector<float> GpuModel::download_parameters() const { return parameters_.download(); }
std::vector<float> GpuModel::download_gradients() const { return gradients_.download(); }

void GpuModel::forward(const int* device_tokens, const int* device_targets, int batch, int seqlen) {
  check_size(batch, seqlen);
  batch_ = batch, seqlen_ = seqlen;
  const std::size_t bytes = sequence_floats(batch, 1, seqlen) * sizeof(int);
  CUDA_CHECK(cudaMemcpyAsync(tokens_.data(), device_tokens, bytes, cudaMemcpyDeviceToDevice));
  CUDA_CHECK(cudaMemcpyAsync(targets_.data(), device_targets, bytes, cudaMemcpyDeviceToDevice));
  run_forward();
}

void GpuModel::forward(const std::vector<int>& tokens, const std::vector<int>& targets, int batch, int seqlen) {
  check_size(batch, seqlen);
  const std::size_t count = sequence_floats(batch, 1, seqlen);
  if (tokens.size() != count || targets.size() != count)
    throw std::invalid_argument("GpuModel::forward: tokens and targets must hold batch * seqlen values");
  batch_ = batch, seqlen_ = seqlen;
  CUDA_CHECK(cudaMemcpy(tokens_.data(), tokens.data(), count * sizeof(int), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(targets_.data(), targets.data(), count * sizeof(int), cudaMemcpyHostToDevice));
  run_forward();
}

// [snippet:model_forward]
void GpuModel::run_forward() {
  const int B = batch_, L = seqlen_, D = config_.d_model, E = config_.d_inner(), N = config_.d_state;
  const int R = config_.dt_rank, XR = config_.x_proj_rows(), V = config_.vocab;
  const long long seq_D = static_cast<long long>(D) * L, seq_E = static_cast<long long>(E) * L;
  const float* w = parameters_.data();
  const gpu::Linear linear(cublas_);
  kept_last_states_ = keep_last_states_;

  gpu::embedding_forward(tokens_.data(), w + layout_.embedding, residual_.data(), B, D, L, V);
  for (int l = 0; l < config_.layers; ++l) {
    const Pointers p = pointers(l);
    const LayerOffsets& o = layout_.layers[l];
    gpu::rms_norm_forward(p.r_in, w + o.norm, p.normed, p.rstd, B, D, L);
    if (config_.kind == SsmKind::mamba2) {  // r_out = r_in + the block's output
      CUDA_CHECK(cudaMemcpyAsync(p.r_out, p.r_in, B * seq_D * sizeof(float), cudaMemcpyDeviceToDevice));
      mamba2_layers_[l]->forward(linear, mamba2_blocks(w, o), p.normed, p.r_out, B, L);
      continue;
    }
    linear.forward(w + o.in_proj, 2 * E, D, {p.normed, seq_D}, {p.xz, 2 * seq_E}, B, L);
    gpu::conv1d_silu_forward(p.xz, 2 * seq_E, w + o.conv_weight, w + o.conv_bias, p.xc, p.xs, B, E, L,
                             config_.conv_width);
    if (config_.kind == SsmKind::selective) {
      linear.forward(w + o.x_proj, XR, E, {p.xs, seq_E}, {p.dbc, XR * static_cast<long long>(L)}, B, L);
      linear.forward(w + o.dt_proj, E, R, {p.dbc, XR * static_cast<long long>(L)}, {p.delta_raw, seq_E}, B, L);
    }
    gpu::decay_from_log(w + o.A_log, p.A, E * N);
    selective_scan::ForwardParams scan = scan_params(l, B, L).forward;
    if (keep_last_states_) scan.last_state = last_states_.data() + static_cast<std::size_t>(l) * B * E * N;
    selective_scan::forward(scan);
    // The residual connection: r_out = r_in + out_proj · out_z (a copy, then a GEMM with beta = 1).
    CUDA_CHECK(cudaMemcpyAsync(p.r_out, p.r_in, B * seq_D * sizeof(float), cudaMemcpyDeviceToDevice));
    linear.forward(w + o.out_proj, D, E, {p.out_z, seq_E}, {p.r_out, seq_D}, B, L, 1.0f);
  }
  float* last = pointers(config_.layers - 1).r_out;
  float* last_rstd = rstd_.data() + config_.layers * sequence_floats(max_batch_, 1, max_seqlen_);
  gpu::rms_norm_forward(last, w + layout_.final_norm, final_normed_.data(), last_rstd, B, D, L);
  // The tied head: logits = E · f.
  linear.forward(w + layout_.embedding, V, D, {final_normed_.data(), seq_D},
                 {logits_.data(), V * static_cast<long long>(L)}, B, L);
  gpu::cross_entropy_forward(logits_.data(), targets_.data(), position_loss_.data(), logsumexp_.data(),
                             position_correct_.data(), metrics_.data(), B, V, L);
}
// [/snippet:model_forward]

// [snippet:model_backward]
void GpuModel::backward() {
  if (batch_ == 0) throw std::logic_error("GpuModel::backward: no forward to differentiate");
  const int B = batch_, L = seqlen_, D = config_.d_model, E = config_.d_inner(), N = config_.d_state;
  const int R = config_.dt_rank, XR = config_.x_proj_rows(), V = config_.vocab;
  const long long seq_D = static_cast<long long>(D) * L, seq_E = static_cast<long long>(E) * L;
  const long long seq_XR = static_cast<long long>(XR) * L, seq_V = static_cast<long long>(V) * L;
  const float* w = parameters_.data();
  float* g = gradients_.data();
  float* scratch = weight_scratch_.data();
  const float* ones = ones_.data();
  const gpu::Linear linear(cublas_);

  gpu::cross_entropy_backward(logits_.data(), targets_.data(), logsumexp_.data(), metrics_.data(), dlogits_.data(), B,
                              V, L);
  linear.backward_weight({dlogits_.data(), seq_V}, {final_normed_.data(), seq_D}, g + layout_.embedding, V, D, B, L,
                         scratch, ones);
  linear.backward_input(w + layout_.embedding, V, D, {dlogits_.data(), seq_V}, {d_model_scratch_.data(), seq_D}, B, L);
  const float* last_rstd = rstd_.data() + config_.layers * sequence_floats(max_batch_, 1, max_seqlen_);
  gpu::rms_norm_backward(d_model_scratch_.data(), pointers(config_.layers - 1).r_out, last_rstd, w + layout_.final_norm,
                         d_residual_.data(), false, g + layout_.final_norm, B, D, L);

  for (int l = config_.layers - 1; l >= 0; --l) {
    // d_residual_ holds dLoss/dr_out of this layer, which is also the gradient of the block's output.
    const Pointers p = pointers(l);
    const LayerOffsets& o = layout_.layers[l];
    if (config_.kind == SsmKind::mamba2) {  // the block back to its normed input, then the norm
      mamba2_layers_[l]->backward(linear, mamba2_blocks(w, o), mamba2_blocks(g, o), p.normed, d_residual_.data(),
                                  d_model_scratch_.data(), scratch, ones, B, L);
      gpu::rms_norm_backward(d_model_scratch_.data(), p.r_in, p.rstd, w + o.norm, d_residual_.data(), true, g + o.norm,
                             B, D, L);
      continue;
    }
    linear.backward_weight({d_residual_.data(), seq_D}, {p.out_z, seq_E}, g + o.out_proj, D, E, B, L, scratch, ones);
    linear.backward_input(w + o.out_proj, D, E, {d_residual_.data(), seq_D}, {d_out_z_.data(), seq_E}, B, L);

    const selective_scan::BackwardParams scan = scan_params(l, B, L);
    if (selective_scan::backward_workspace_bytes(scan) > scan_workspace_.bytes())
      throw std::logic_error("GpuModel::backward: the scan's workspace outgrew its buffer");
    selective_scan::backward(scan);  // du -> d_xs_, ddelta -> d_delta_, dz -> z half of d_xz_
    gpu::decay_log_gradient(dA_.data(), p.A, g + o.A_log, E * N);

    if (config_.kind == SsmKind::selective) {
      // The scan's dB and dC are contiguous (batch, N, L): copy them into their rows of d_dbc.
      const std::size_t row_bytes = static_cast<std::size_t>(N) * L * sizeof(float);
      CUDA_CHECK(cudaMemcpy2DAsync(d_dbc_.data() + R * static_cast<long long>(L), seq_XR * sizeof(float), dB_.data(),
                                   row_bytes, row_bytes, B, cudaMemcpyDeviceToDevice));
      CUDA_CHECK(cudaMemcpy2DAsync(d_dbc_.data() + (R + N) * static_cast<long long>(L), seq_XR * sizeof(float),
                                   dC_.data(), row_bytes, row_bytes, B, cudaMemcpyDeviceToDevice));
      linear.backward_weight({d_delta_.data(), seq_E}, {p.dbc, seq_XR}, g + o.dt_proj, E, R, B, L, scratch, ones);
      linear.backward_input(w + o.dt_proj, E, R, {d_delta_.data(), seq_E}, {d_dbc_.data(), seq_XR}, B, L);
      linear.backward_weight({d_dbc_.data(), seq_XR}, {p.xs, seq_E}, g + o.x_proj, XR, E, B, L, scratch, ones);
      // xs feeds the scan (as u) and x_proj: its gradient is the sum of both paths.
      linear.backward_input(w + o.x_proj, XR, E, {d_dbc_.data(), seq_XR}, {d_xs_.data(), seq_E}, B, L, 1.0f);
    }
    gpu::conv1d_silu_backward(d_xs_.data(), p.xc, p.xz, 2 * seq_E, w + o.conv_weight, d_xc_.data(), d_xz_.data(),
                              2 * seq_E, g + o.conv_weight, g + o.conv_bias, B, E, L, config_.conv_width);
    linear.backward_weight({d_xz_.data(), 2 * seq_E}, {p.normed, seq_D}, g + o.in_proj, 2 * E, D, B, L, scratch, ones);
    linear.backward_input(w + o.in_proj, 2 * E, D, {d_xz_.data(), 2 * seq_E}, {d_model_scratch_.data(), seq_D}, B, L);
    gpu::rms_norm_backward(d_model_scratch_.data(), p.r_in, p.rstd, w + o.norm, d_residual_.data(), true, g + o.norm, B,
                           D, L);
  }
  // The embedding's gradient: the head's part (written above) plus the lookup's.
  gpu::embedding_backward(tokens_.data(), d_residual_.data(), g + layout_.embedding, B, D, L, V);
}
// [/snippet:model_backward]

void GpuModel::adamw_step(float lr, int step, const AdamWSettings& settings) {
  gpu::gradient_norm(gradients_.data(), layout_.total, gradient_norm_.data());
  gpu::adamw_step(parameters_.data(), gradients_.data(), adam_m_.data(), adam_v_.data(), decay_mask_.data(),
                  layout_.total, settings, lr, step, gradient_norm_.data());
}

void GpuModel::adamw_step(float lr, int step) { adamw_step(lr, step, AdamWSettings{}); }

float GpuModel::gradient_norm() const { return gradient_norm_.download()[0]; }

gpu::LossMetrics GpuModel::metrics() const { return metrics_.download()[0]; }

void GpuModel::keep_last_states(bool keep) {
  if (keep && config_.kind == SsmKind::mamba2)
    throw std::logic_error("GpuModel::keep_last_states: no recurrent inference on the GPU for Mamba-2 yet");
  keep_last_states_ = keep;
  if (keep && last_states_.size() == 0)
    last_states_ =
        Buffer<float>(static_cast<std::size_t>(config_.layers) * max_batch_ * config_.d_inner() * config_.d_state);
}

void GpuModel::copy_last_states(float* ssm, long long ssm_sequence_stride, float* conv,
                                long long conv_sequence_stride) const {
  const int W1 = config_.conv_width - 1;
  if (!kept_last_states_) throw std::logic_error("GpuModel::copy_last_states: the last forward kept no states");
  if (seqlen_ < W1)
    throw std::logic_error("GpuModel::copy_last_states: the last forward had fewer than conv_width - 1 tokens");
  const std::size_t E = config_.d_inner(), N = config_.d_state, L = seqlen_;
  for (int l = 0; l < config_.layers; ++l) {
    // The scan's states: batch rows of E·N floats, one a sequence.
    CUDA_CHECK(cudaMemcpy2DAsync(ssm + l * E * N, ssm_sequence_stride * sizeof(float),
                                 last_states_.data() + l * batch_ * E * N, E * N * sizeof(float), E * N * sizeof(float),
                                 batch_, cudaMemcpyDeviceToDevice));
    // The convolution's inputs: x, the first d_inner rows of in_proj's output (batch, 2 d_inner,
    // L), its last W - 1 columns.
    const float* xz = pointers(l).xz;
    if (W1 > 0)
      for (int b = 0; b < batch_; ++b)
        CUDA_CHECK(cudaMemcpy2DAsync(conv + b * conv_sequence_stride + l * E * W1, W1 * sizeof(float),
                                     xz + b * 2 * E * L + (L - W1), L * sizeof(float), W1 * sizeof(float), E,
                                     cudaMemcpyDeviceToDevice));
  }
}

std::vector<float> GpuModel::download_logits() const {
  std::vector<float> logits(sequence_floats(batch_, config_.vocab, seqlen_));
  if (!logits.empty())
    CUDA_CHECK(cudaMemcpy(logits.data(), logits_.data(), logits.size() * sizeof(float), cudaMemcpyDeviceToHost));
  return logits;
}

std::vector<float> GpuModel::download_delta(int layer) const {
  if (layer < 0 || layer >= config_.layers) throw std::out_of_range("GpuModel::download_delta: no such layer");
  if (config_.kind == SsmKind::mamba2)
    throw std::logic_error("GpuModel::download_delta: a Mamba-2 layer's step sizes are one a head (not kept)");
  const int E = config_.d_inner();
  const std::vector<float> parameters = parameters_.download();
  const float* dt_bias = parameters.data() + layout_.layers[layer].dt_bias;
  std::vector<float> delta(sequence_floats(batch_, E, seqlen_), 0.0f);
  if (config_.kind == SsmKind::selective && !delta.empty())
    CUDA_CHECK(
        cudaMemcpy(delta.data(), pointers(layer).delta_raw, delta.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < delta.size(); ++i) {
    const double x = static_cast<double>(delta[i]) + dt_bias[(i / seqlen_) % E];
    delta[i] = static_cast<float>(common::softplus(x));
  }
  return delta;
}

}  // namespace ch09
