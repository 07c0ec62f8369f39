#include "grid_problem.hpp"

#include "cuda_check.hpp"
#include "grid_fill.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstring>
#include <random>

namespace ch08::grid {
namespace {

using selective_scan::DataType;

std::vector<float> download_as_float(const common::DeviceBuffer<unsigned char>& bytes, DataType type) {
  std::vector<float> values;
  if (bytes.size() == 0) return values;
  const std::vector<unsigned char> raw = bytes.download();
  const std::size_t size = type == DataType::float32 ? 4 : 2;
  values.resize(raw.size() / size);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (type == DataType::float32) {
      std::memcpy(&values[i], &raw[4 * i], 4);
    } else if (type == DataType::bfloat16) {
      __nv_bfloat16 h;
      std::memcpy(&h, &raw[2 * i], 2);
      values[i] = __bfloat162float(h);
    } else {
      __half h;
      std::memcpy(&h, &raw[2 * i], 2);
      values[i] = __half2float(h);
    }
  }
  return values;
}

}  // namespace

GridProblem::GridProblem(const Shape& s, std::uint64_t seed)
    : shape_(s), input_size_(s.type == DataType::float32 ? 4 : 2) {
  const std::int64_t sequence = s.batch * s.dim * s.seqlen, projection = s.batch * s.groups * s.dstate * s.seqlen;
  const auto input = [&](std::int64_t count) { return Bytes(std::size_t(count) * input_size_); };
  u_ = input(sequence), delta_ = input(sequence), dout_ = input(sequence), out_ = input(sequence);
  du_ = input(sequence), ddelta_ = input(sequence);
  if (s.z) z_ = input(sequence), out_z_ = input(sequence), dz_ = input(sequence);
  B_ = input(projection), C_ = input(projection);
  fill_normal_input(u_.data(), sequence, s.type, seed + 1, 1.0f);
  fill_normal_input(delta_.data(), sequence, s.type, seed + 2, 0.5f);
  fill_normal_input(dout_.data(), sequence, s.type, seed + 3, 1.0f);
  if (s.z) fill_normal_input(z_.data(), sequence, s.type, seed + 4, 1.0f);
  fill_normal_input(B_.data(), projection, s.type, seed + 5, 1.0f);
  fill_normal_input(C_.data(), projection, s.type, seed + 6, 1.0f);

  // The small fp32 weights on the host.
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> uniform(0.0f, 1.0f);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> A(std::size_t(s.dim * s.dstate)), D(std::size_t(s.dim)), bias(std::size_t(s.dim));
  for (std::int64_t d = 0; d < s.dim; ++d)
    for (int n = 0; n < s.dstate; ++n) A[std::size_t(d * s.dstate + n)] = -float(n + 1) * (0.5f + uniform(rng));
  for (float& x : D) x = normal(rng);
  for (float& x : bias) {
    const double dt = std::exp(std::log(1e-3) + uniform(rng) * (std::log(0.1) - std::log(1e-3)));
    x = float(dt + std::log(-std::expm1(-dt)));  // softplus(x) = dt
  }
  A_ = common::DeviceBuffer<float>(std::span<const float>(A));
  if (s.D) D_ = common::DeviceBuffer<float>(std::span<const float>(D)), dD_ = common::DeviceBuffer<float>(D.size());
  if (s.delta_bias)
    delta_bias_ = common::DeviceBuffer<float>(std::span<const float>(bias)),
    ddelta_bias_ = common::DeviceBuffer<float>(bias.size());
  chunk_states_ = common::DeviceBuffer<float>(
      std::size_t(selective_scan::chunk_states_floats({s.batch, s.dim, s.seqlen, s.dstate, s.groups}, false)));
  dA_ = common::DeviceBuffer<float>(A.size());
  dB_ = common::DeviceBuffer<float>(std::size_t(projection));
  dC_ = common::DeviceBuffer<float>(std::size_t(projection));
  CUDA_CHECK(cudaDeviceSynchronize());
}

selective_scan::BackwardParams GridProblem::params(selective_scan::Kernel kernel, bool keep_states) {
  const Shape& s = shape_;
  const std::int64_t L = s.seqlen, DL = s.dim * L;
  const auto in = [&](const Bytes& b) { return selective_scan::Input{b.size() ? b.data() : nullptr, s.type, DL, L}; };
  const auto out = [&](Bytes& b) { return selective_scan::Output{b.size() ? b.data() : nullptr, s.type, DL, L}; };
  const auto orNull = [](common::DeviceBuffer<float>& b) { return b.size() ? b.data() : nullptr; };
  selective_scan::BackwardParams b;
  selective_scan::ForwardParams& f = b.forward;
  f.sizes = {s.batch, s.dim, s.seqlen, s.dstate, s.groups};
  f.input_type = s.type;
  f.flags.delta_softplus = true;
  f.kernel = kernel;
  f.u = in(u_), f.delta = in(delta_), f.z = in(z_);
  f.A = A_.data(), f.A_dim_stride = s.dstate;
  const std::int64_t group_stride = std::int64_t(s.dstate) * L;
  f.B = {true, B_.data(), s.type, s.groups * group_stride, group_stride, L, 0};
  f.C = {true, C_.data(), s.type, s.groups * group_stride, group_stride, L, 0};
  f.D = s.D ? D_.data() : nullptr;
  f.delta_bias = s.delta_bias ? delta_bias_.data() : nullptr;
  f.out = out(out_), f.out_z = out(out_z_);
  f.chunk_states = chunk_states_.data();
  const std::size_t forward_bytes = selective_scan::forward_workspace_bytes(f);
  if (forward_workspace_.size() < forward_bytes) forward_workspace_ = Bytes(forward_bytes);
  f.workspace = forward_bytes ? forward_workspace_.data() : nullptr;
  const std::int64_t kept = keep_states ? selective_scan::state_checkpoints_floats(f) : 0;
  if (std::int64_t(kept_states_.size()) < kept) kept_states_ = common::DeviceBuffer<float>(std::size_t(kept));
  f.state_checkpoints = kept ? kept_states_.data() : nullptr;

  b.dout = in(dout_);
  b.du = out(du_), b.ddelta = out(ddelta_), b.dz = out(dz_);
  b.dA = dA_.data(), b.dB = dB_.data(), b.dC = dC_.data();
  b.dD = orNull(dD_), b.ddelta_bias = orNull(ddelta_bias_);
  const std::size_t backward_bytes = selective_scan::backward_workspace_bytes(b);
  if (backward_workspace_.size() < backward_bytes) backward_workspace_ = Bytes(backward_bytes);
  b.workspace = backward_bytes ? backward_workspace_.data() : nullptr;
  return b;
}

void GridProblem::poison_outputs() {
  for (Bytes* b : {&out_, &out_z_, &du_, &ddelta_, &dz_}) b->poison();
  for (auto* b : {&dA_, &dB_, &dC_, &dD_, &ddelta_bias_}) b->poison();
}

std::vector<std::vector<float>> GridProblem::results() const {
  return {download_as_float(out_, shape_.type),
          download_as_float(out_z_, shape_.type),
          download_as_float(du_, shape_.type),
          download_as_float(ddelta_, shape_.type),
          download_as_float(dz_, shape_.type),
          dA_.download(),
          dB_.download(),
          dC_.download(),
          dD_.download(),
          ddelta_bias_.download()};
}

}  // namespace ch08::grid
