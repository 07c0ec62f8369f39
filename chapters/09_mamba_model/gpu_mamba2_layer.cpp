#include "gpu_mamba2_layer.hpp"

#include "cuda_check.hpp"
#include "gpu_conv1d.hpp"
#include "gpu_mamba2_ops.hpp"
#include "gpu_rms_norm.hpp"
#include "gpu_ssm_parameters.hpp"
#include "selective_scan.hpp"  // chapter 08's, which version 1 of chapter 10's library runs
#include "ssd.hpp"             // chapter 10's library

#include <cstddef>

namespace ch09 {
namespace {

std::size_t floats(int batch, int rows, int seqlen) { return std::size_t(batch) * std::size_t(rows) * seqlen; }

// Floats per position the layer keeps (forward) and reuses (backward); see the constructor.
double forward_floats(const Mamba2Sizes& s) {
  const double E = s.d_inner, N = s.d_state, H = s.heads(), K = s.conv_channels(), R = s.in_proj_rows();
  return R + 2 * K + 3 * E + 1 + (E + 2 * N + H + E);
}
double backward_floats(const Mamba2Sizes& s) {
  const double E = s.d_inner, N = s.d_state, H = s.heads(), K = s.conv_channels(), R = s.in_proj_rows();
  return R + 2 * K + 3 * E + (E + E + H + 2 * N);
}

}  // namespace

GpuMamba2Layer::GpuMamba2Layer(const Mamba2Sizes& sizes, int conv_width, int max_batch, int max_seqlen)
    : s_(sizes), W_(conv_width) {
  const int B = max_batch, L = max_seqlen, E = s_.d_inner, N = s_.d_state, H = s_.heads();
  const int K = s_.conv_channels(), R = s_.in_proj_rows();
  zxbcdt_ = Buffer<float>(floats(B, R, L));
  xc_ = Buffer<float>(floats(B, K, L));
  xs_ = Buffer<float>(floats(B, K, L));
  y_ = Buffer<float>(floats(B, E, L));
  gated_ = Buffer<float>(floats(B, E, L));
  normed_ = Buffer<float>(floats(B, E, L));
  rstd_ = Buffer<float>(floats(B, 1, L));
  x_t_ = Buffer<float>(floats(B, E, L));
  B_t_ = Buffer<float>(floats(B, N, L));
  C_t_ = Buffer<float>(floats(B, N, L));
  dt_t_ = Buffer<float>(floats(B, H, L));
  y_t_ = Buffer<float>(floats(B, E, L));
  A_ = Buffer<float>(std::size_t(H));
  d_zxbcdt_ = Buffer<float>(floats(B, R, L));
  d_xc_ = Buffer<float>(floats(B, K, L));
  d_xs_ = Buffer<float>(floats(B, K, L));
  d_y_ = Buffer<float>(floats(B, E, L));
  d_gated_ = Buffer<float>(floats(B, E, L));
  d_normed_ = Buffer<float>(floats(B, E, L));
  dy_t_ = Buffer<float>(floats(B, E, L));
  dx_t_ = Buffer<float>(floats(B, E, L));
  ddt_t_ = Buffer<float>(floats(B, H, L));
  dB_t_ = Buffer<float>(floats(B, N, L));
  dC_t_ = Buffer<float>(floats(B, N, L));
  dA_ = Buffer<float>(std::size_t(H));
}

double GpuMamba2Layer::device_bytes(const Mamba2Sizes& s, int max_batch, int max_seqlen) {
  return 4.0 * (double(max_batch) * double(max_seqlen) * (forward_floats(s) + backward_floats(s)) + 2.0 * s.heads());
}

double GpuMamba2Layer::ssd_scratch_bytes(const Mamba2Sizes& s, int max_batch, int max_seqlen) {
  // The larger of the versions that may run: version 1 in fp32 (the deterministic backward, and the
  // forward where version 3 refuses it) lays the call out as chapter 08's: x, Δ, y and their
  // gradients (6 E), B, C and theirs (4 N) and dt' by head (H) a position, A and its gradient per
  // channel and state, and chapter 08's chunk states; its backward's own workspace is small beside
  // them, and version 3's forward takes less.
  const double E = s.d_inner, N = s.d_state, H = s.heads();
  const double chunk_states =
      double(selective_scan::chunk_states_floats({max_batch, s.d_inner, max_seqlen, s.d_state, 1}, /*complex=*/false));
  return 4.0 * (double(max_batch) * double(max_seqlen) * (6 * E + 4 * N + H) + 2 * E * N + chunk_states);
}

void GpuMamba2Layer::poison() {
  for (Buffer<float>* buffer :
       {&zxbcdt_,   &xc_,   &xs_,   &y_,   &gated_,   &normed_,   &rstd_, &x_t_,  &B_t_,   &C_t_,  &dt_t_, &y_t_, &A_,
        &d_zxbcdt_, &d_xc_, &d_xs_, &d_y_, &d_gated_, &d_normed_, &dy_t_, &dx_t_, &ddt_t_, &dB_t_, &dC_t_, &dA_})
    buffer->poison();
}

namespace {

// Chapter 10's call for the layer's SSD: time-major x, dt, B and C, one group, A, D and dt_bias a
// head, softplus on, no gate (the layer gates before its norm), fp32.
ssd::ForwardParams ssd_call(const Mamba2Sizes& s, int batch, int seqlen, const float* x, const float* dt,
                            const float* A, const float* B, const float* C, const float* D, const float* dt_bias,
                            float* y) {
  ssd::ForwardParams f;
  f.sizes = {batch, seqlen, s.heads(), s.head_dim, 1, s.d_state};
  f.input_type = ssd::DataType::float32;
  f.x = x, f.dt = dt, f.A = A, f.B = B, f.C = C, f.D = D, f.dt_bias = dt_bias;
  f.dt_softplus = true;
  f.y = y;
  return f;
}

}  // namespace

void GpuMamba2Layer::forward(const gpu::Linear& linear, const Mamba2Blocks<const float>& w, const float* n,
                             float* r_out, int batch, int seqlen) {
  const int B = batch, L = seqlen, D = s_.d_model, E = s_.d_inner, N = s_.d_state, H = s_.heads();
  const int K = s_.conv_channels(), R = s_.in_proj_rows();
  const long long seq_R = static_cast<long long>(R) * L, seq_K = static_cast<long long>(K) * L;
  const long long seq_E = static_cast<long long>(E) * L, seq_D = static_cast<long long>(D) * L;
  float* const z = zxbcdt_.data();  // rows: z [0, E), x B C [E, E + K), dt [E + K, R)
  float* const xbc = z + seq_E;
  float* const dt = xbc + seq_K;

  linear.forward(w.in_proj, R, D, {n, seq_D}, {z, seq_R}, B, L);
  gpu::conv1d_silu_forward(xbc, seq_R, w.conv_weight, w.conv_bias, xc_.data(), xs_.data(), B, K, L, W_);
  gpu::rows_to_time_major(xs_.data(), seq_K, x_t_.data(), B, E, L);
  gpu::rows_to_time_major(xs_.data() + seq_E, seq_K, B_t_.data(), B, N, L);
  gpu::rows_to_time_major(xs_.data() + seq_E + static_cast<long long>(N) * L, seq_K, C_t_.data(), B, N, L);
  gpu::rows_to_time_major(dt, seq_R, dt_t_.data(), B, H, L);
  gpu::decay_from_log(w.A_log, A_.data(), H);
  ssd::forward(
      ssd_call(s_, B, L, x_t_.data(), dt_t_.data(), A_.data(), B_t_.data(), C_t_.data(), w.D, w.dt_bias, y_t_.data()));
  gpu::time_major_to_rows(y_t_.data(), y_.data(), seq_E, false, B, E, L);
  gpu::gate_forward(y_.data(), z, seq_R, gated_.data(), B, E, L);
  gpu::rms_norm_forward(gated_.data(), w.norm, normed_.data(), rstd_.data(), B, E, L);
  linear.forward(w.out_proj, D, E, {normed_.data(), seq_E}, {r_out, seq_D}, B, L, 1.0f);
}

void GpuMamba2Layer::backward(const gpu::Linear& linear, const Mamba2Blocks<const float>& w,
                              const Mamba2Blocks<float>& g, const float* n, const float* dout, float* dn,
                              float* per_sequence, const float* ones, int batch, int seqlen) {
  const int B = batch, L = seqlen, D = s_.d_model, E = s_.d_inner, N = s_.d_state, H = s_.heads();
  const int K = s_.conv_channels(), R = s_.in_proj_rows();
  const long long seq_R = static_cast<long long>(R) * L, seq_K = static_cast<long long>(K) * L;
  const long long seq_E = static_cast<long long>(E) * L, seq_D = static_cast<long long>(D) * L;
  const long long seq_N = static_cast<long long>(N) * L;
  const float* const z = zxbcdt_.data();
  float* const dz = d_zxbcdt_.data();
  float* const dxbc = dz + seq_E;
  float* const ddt = dxbc + seq_K;

  // out_proj, the norm, the gate.
  linear.backward_weight({dout, seq_D}, {normed_.data(), seq_E}, g.out_proj, D, E, B, L, per_sequence, ones);
  linear.backward_input(w.out_proj, D, E, {dout, seq_D}, {d_normed_.data(), seq_E}, B, L);
  gpu::rms_norm_backward(d_normed_.data(), gated_.data(), rstd_.data(), w.norm, d_gated_.data(), false, g.norm, B, E,
                         L);
  gpu::gate_backward(d_gated_.data(), y_.data(), z, seq_R, d_y_.data(), dz, seq_R, B, E, L);

  // The SSD's backward in chapter 10's library, deterministic (no float atomics: a seed repeats
  // its training run bit for bit); D's and dt_bias's gradients go straight to their blocks.
  gpu::rows_to_time_major(d_y_.data(), seq_E, dy_t_.data(), B, E, L);
  ssd::BackwardParams b;
  b.forward =
      ssd_call(s_, B, L, x_t_.data(), dt_t_.data(), A_.data(), B_t_.data(), C_t_.data(), w.D, w.dt_bias, y_t_.data());
  b.dy = dy_t_.data();
  b.deterministic = true;
  b.dx = dx_t_.data(), b.ddt = ddt_t_.data(), b.dA = dA_.data(), b.dB = dB_t_.data(), b.dC = dC_t_.data();
  b.dD = g.D, b.ddt_bias = g.dt_bias;
  ssd::backward(b);
  gpu::decay_log_gradient(dA_.data(), A_.data(), g.A_log, H);

  // Back to the rows of x, B and C (the convolution's output) and of dt (in_proj's output).
  gpu::time_major_to_rows(dx_t_.data(), d_xs_.data(), seq_K, false, B, E, L);
  gpu::time_major_to_rows(dB_t_.data(), d_xs_.data() + seq_E, seq_K, false, B, N, L);
  gpu::time_major_to_rows(dC_t_.data(), d_xs_.data() + seq_E + seq_N, seq_K, false, B, N, L);
  gpu::time_major_to_rows(ddt_t_.data(), ddt, seq_R, false, B, H, L);
  gpu::conv1d_silu_backward(d_xs_.data(), xc_.data(), z + seq_E, seq_R, w.conv_weight, d_xc_.data(), dxbc, seq_R,
                            g.conv_weight, g.conv_bias, B, K, L, W_);

  // in_proj.
  linear.backward_weight({dz, seq_R}, {n, seq_D}, g.in_proj, R, D, B, L, per_sequence, ones);
  linear.backward_input(w.in_proj, R, D, {dz, seq_R}, {dn, seq_D}, B, L);
}

}  // namespace ch09
