#include "step_bench_problem.hpp"

#include "compare.hpp"
#include "device_problem.hpp"

#include <cmath>
#include <random>
#include <span>

namespace ch08::step_bench {
namespace {

using selective_scan::DataType;

// Each value `repeat` times over: a per-head value expanded as the Mamba2 module expands it.
std::vector<double> expanded(const std::vector<double>& values, std::int64_t repeat) {
  std::vector<double> out;
  out.reserve(values.size() * std::size_t(repeat));
  for (double v : values) out.insert(out.end(), std::size_t(repeat), v);
  return out;
}

std::vector<float> as_floats(const std::vector<double>& values) { return {values.begin(), values.end()}; }

common::DeviceBuffer<unsigned char> upload(const std::vector<double>& values, DataType type) {
  const std::vector<unsigned char> bytes = ch08::encoded(values, type);
  return common::DeviceBuffer<unsigned char>(std::span<const unsigned char>(bytes));
}

// The kernel computes in fp32 and rounds once to the state's or out's type: that type's rounding
// (relative) on top of fp32's error, which is absolute where terms of up to about 50 (dt B x, with
// dt a softplus of N(0, 1) + bias) cancel, and in out a sum of up to 256 of them, gated by silu(z).
common::Tolerance tolerance(DataType type, bool output) {
  const double atol = output ? 2e-3 : 2e-4;
  switch (type) {
    case DataType::float32: return {atol, output ? 1e-4 : 1e-5};
    case DataType::float16: return {atol, 1e-3};
    case DataType::bfloat16: return {atol, 8e-3};
  }
  return {};
}

}  // namespace

StepBenchProblem::StepBenchProblem(const Shape& s, std::uint64_t seed) : shape_(s) {
  const DataType type = s.type;
  const std::int64_t H = s.heads, P = s.head_dim, N = s.dstate, G = s.groups, channels = s.batch * H * P;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0, 1);
  std::uniform_real_distribution<double> uniform(0, 1);
  const auto draw = [&](std::int64_t count, auto value) {
    std::vector<double> v(static_cast<std::size_t>(count));
    for (double& e : v) e = value();
    return v;
  };
  const auto gaussian = [&] { return normal(rng); };
  const auto dt_bias_value = [&] {  // softplus(bias) = dt, dt log-uniform in [1e-3, 0.1]
    const double dt = std::exp(std::log(1e-3) + uniform(rng) * (std::log(0.1) - std::log(1e-3)));
    return dt + std::log(-std::expm1(-dt));
  };

  ch08_step::StepProblem& p = drawn_;
  p.batch = s.batch, p.heads = H, p.head_dim = P, p.slots = s.batch, p.dstate = s.dstate, p.groups = s.groups;
  p.softplus = true;
  p.state = draw(s.states(), gaussian);
  p.x = ch08::round_to(draw(channels, gaussian), type);
  p.z = ch08::round_to(draw(channels, gaussian), type);
  p.B = ch08::round_to(draw(s.batch * G * N, gaussian), type);
  p.C = ch08::round_to(draw(s.batch * G * N, gaussian), type);
  // What the GPU reads: dense in Mamba-1's form, one value a head (and sequence, for dt) in Mamba-2's.
  std::vector<double> dt, A, D, dt_bias;
  if (s.form == Form::mamba1) {
    dt = p.dt = ch08::round_to(draw(channels, gaussian), type);
    A = p.A = ch08::round_to(draw(P * N, [&] { return -(4 * uniform(rng) + 0.5); }), DataType::float32);
    D = p.D = ch08::round_to(draw(P, gaussian), DataType::float32);
    dt_bias = p.dt_bias = ch08::round_to(draw(P, dt_bias_value), DataType::float32);
  } else {
    dt = ch08::round_to(draw(s.batch * H, gaussian), type);
    A = ch08::round_to(draw(H, [&] { return -(1 + 15 * uniform(rng)); }), DataType::float32);
    D = ch08::round_to(draw(H, gaussian), DataType::float32);
    dt_bias = ch08::round_to(draw(H, dt_bias_value), DataType::float32);
    p.dt = expanded(dt, P), p.A = expanded(A, P * N), p.D = expanded(D, P), p.dt_bias = expanded(dt_bias, P);
  }

  x_ = upload(p.x, type), z_ = upload(p.z, type), B_ = upload(p.B, type), C_ = upload(p.C, type);
  dt_ = upload(dt, type);
  out_ = Bytes(std::size_t(channels) * (type == DataType::float32 ? 4 : 2));
  const std::vector<float> A_floats = as_floats(A), D_floats = as_floats(D), bias_floats = as_floats(dt_bias);
  A_ = common::DeviceBuffer<float>(std::span<const float>(A_floats));
  D_ = common::DeviceBuffer<float>(std::span<const float>(D_floats));
  dt_bias_ = common::DeviceBuffer<float>(std::span<const float>(bias_floats));

  // Mamba-1 is the head form with one head of `dim` channels; its dense strides are the head
  // form's with H = 1. Mamba-2's per-head tensors take zero strides over what they repeat along.
  selective_scan::StepParams& q = params_;
  q.sizes = {s.batch, H, P, s.dstate, s.groups, 0};
  q.input_type = type;
  q.dt_softplus = true;
  const auto channel_input = [&](const Bytes& b) { return selective_scan::StepInput{b.data(), type, H * P, P, 1}; };
  q.x = channel_input(x_), q.z = channel_input(z_);
  q.out = {out_.data(), type, H * P, P, 1};
  q.B = {B_.data(), type, G * N, N, 1};
  q.C = {C_.data(), type, G * N, N, 1};
  if (s.form == Form::mamba1) {
    q.dt = channel_input(dt_);
    q.A = {A_.data(), P * N, N, 1};
    q.D = {D_.data(), P, 1};
    q.dt_bias = {dt_bias_.data(), P, 1};
  } else {
    q.dt = {dt_.data(), type, H, 1, 0};
    q.A = {A_.data(), 1, 0, 0};
    q.D = {D_.data(), 1, 0};
    q.dt_bias = {dt_bias_.data(), 1, 0};
  }
}

void StepBenchProblem::use_state(DataType state_type) {
  std::vector<double> drawn_state = std::move(drawn_.state);
  drawn_.state = ch08::round_to(drawn_state, state_type);
  expected_ = ch08_step::reference_step(drawn_);
  initial_state_ = ch08::encoded(drawn_.state, state_type);
  drawn_.state = std::move(drawn_state);
  state_ = Bytes(std::span<const unsigned char>(initial_state_));
  const std::int64_t H = shape_.heads, P = shape_.head_dim, N = shape_.dstate;
  params_.state = {state_.data(), state_type, H * P * N, P * N, N};
}

CheckOutcome StepBenchProblem::check() {
  state_.upload(std::span<const unsigned char>(initial_state_));
  out_.poison();
  selective_scan::step(params_);
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::vector<double> state = ch08::decoded(state_.download(), params_.state.type);
  const std::vector<double> out = ch08::decoded(out_.download(), shape_.type);
  const common::Comparison s = common::compare(state, expected_.state, tolerance(params_.state.type, false));
  const common::Comparison o = common::compare(out, expected_.out, tolerance(shape_.type, true));
  return {s.ok && o.ok, s.max_abs_error, o.max_abs_error, "state: " + s.summary() + "; out: " + o.summary()};
}

}  // namespace ch08::step_bench
