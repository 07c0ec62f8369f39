#include "device_problem.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace ch08 {
namespace {

using selective_scan::DataType;

std::size_t size_of(DataType type) { return type == DataType::float32 ? 4 : 2; }

// One number to and from its bytes in the input type (round to nearest even, as the GPU's
// conversions do).
void encode(double x, DataType type, unsigned char* out) {
  switch (type) {
    case DataType::float32: {
      const float f = float(x);
      std::memcpy(out, &f, 4);
      return;
    }
    case DataType::float16: {
      const __half h = __float2half_rn(float(x));
      std::memcpy(out, &h, 2);
      return;
    }
    case DataType::bfloat16: {
      const __nv_bfloat16 h = __float2bfloat16_rn(float(x));
      std::memcpy(out, &h, 2);
      return;
    }
  }
}
double decode(const unsigned char* in, DataType type) {
  switch (type) {
    case DataType::float32: {
      float f;
      std::memcpy(&f, in, 4);
      return f;
    }
    case DataType::float16: {
      __half h;
      std::memcpy(&h, in, 2);
      return __half2float(h);
    }
    case DataType::bfloat16: {
      __nv_bfloat16 h;
      std::memcpy(&h, in, 2);
      return __bfloat162float(h);
    }
  }
  return 0;
}
double rounded(double x, DataType type) {
  unsigned char bytes[4];
  encode(x, type, bytes);
  return decode(bytes, type);
}
Complex rounded(Complex x, DataType type) { return {rounded(x.real(), type), rounded(x.imag(), type)}; }

template <class T>
std::vector<T> rounded_all(const std::vector<T>& values, DataType type) {
  std::vector<T> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) out[i] = rounded(values[i], type);
  return out;
}

std::vector<double> real_parts(const std::vector<Complex>& values) {
  std::vector<double> real(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) real[i] = values[i].real();
  return real;
}

}  // namespace

std::vector<double> round_to(const std::vector<double>& values, DataType type) { return rounded_all(values, type); }

std::vector<unsigned char> encoded(const std::vector<double>& values, DataType type) {
  std::vector<unsigned char> bytes(values.size() * size_of(type));
  for (std::size_t i = 0; i < values.size(); ++i) encode(values[i], type, &bytes[i * size_of(type)]);
  return bytes;
}
std::vector<double> decoded(const std::vector<unsigned char>& bytes, DataType type) {
  std::vector<double> values(bytes.size() / size_of(type));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = decode(&bytes[i * size_of(type)], type);
  return values;
}

std::vector<double> pad_rows(const std::vector<double>& rows, std::int64_t length, std::int64_t pitch) {
  const std::int64_t count = length > 0 ? std::int64_t(rows.size()) / length : 0;
  std::vector<double> padded(std::size_t(count * pitch), std::numeric_limits<double>::quiet_NaN());
  for (std::int64_t r = 0; r < count; ++r) std::copy_n(rows.begin() + r * length, length, padded.begin() + r * pitch);
  return padded;
}

std::vector<double> unpad_rows(const std::vector<double>& padded, std::int64_t length, std::int64_t pitch) {
  const std::int64_t count = pitch > 0 ? std::int64_t(padded.size()) / pitch : 0;
  std::vector<double> rows(std::size_t(count * length));
  for (std::int64_t r = 0; r < count; ++r) {
    std::copy_n(padded.begin() + r * pitch, length, rows.begin() + r * length);
    for (std::int64_t t = length; t < pitch; ++t)
      if (!std::isnan(padded[std::size_t(r * pitch + t)]))
        throw std::runtime_error("a row's padding was written: something wrote past the end of a row");
  }
  return rows;
}

Problem as_gpu_sees(const Problem& p, DataType type) {
  Problem q = p;
  q.u = rounded_all(p.u, type);
  q.delta = rounded_all(p.delta, type);
  q.z = rounded_all(p.z, type);
  q.A = rounded_all(p.A, DataType::float32);
  q.B = rounded_all(p.B, p.variable_B ? type : DataType::float32);
  q.C = rounded_all(p.C, p.variable_C ? type : DataType::float32);
  q.D = rounded_all(p.D, DataType::float32);
  q.delta_bias = rounded_all(p.delta_bias, DataType::float32);
  q.initial_state = rounded_all(p.initial_state, DataType::float32);
  return q;
}

DeviceProblem::Bytes DeviceProblem::upload_input(const std::vector<double>& values) {
  const std::vector<unsigned char> bytes = encoded(values, type_);
  return Bytes(std::span<const unsigned char>(bytes));
}
DeviceProblem::Bytes DeviceProblem::upload_projection(const std::vector<Complex>& values) {
  if (!problem_.complex) return upload_rows(real_parts(values));
  std::vector<double> pairs(2 * values.size());
  for (std::size_t i = 0; i < values.size(); ++i) pairs[2 * i] = values[i].real(), pairs[2 * i + 1] = values[i].imag();
  return upload_input(pairs);
}
DeviceProblem::Bytes DeviceProblem::upload_weight(const std::vector<double>& values) {
  const std::vector<float> f(values.begin(), values.end());
  return Bytes(std::span<const unsigned char>(reinterpret_cast<const unsigned char*>(f.data()), f.size() * 4));
}
DeviceProblem::Bytes DeviceProblem::upload_weight(const std::vector<Complex>& values) {
  std::vector<double> flat;
  for (const Complex& v : values) {
    flat.push_back(v.real());
    if (problem_.complex) flat.push_back(v.imag());
  }
  return upload_weight(flat);
}
// Unpadded rows go up and come back as they are: the benchmark's tensors are hundreds of MB,
// and a copy of each on every check adds up.
DeviceProblem::Bytes DeviceProblem::upload_rows(const std::vector<double>& values) {
  if (pitch_ == problem_.seqlen) return upload_input(values);
  return upload_input(pad_rows(values, problem_.seqlen, pitch_));
}

std::vector<double> DeviceProblem::download_rows(const Bytes& buffer) const {
  std::vector<double> values = download_input(buffer);
  if (pitch_ == problem_.seqlen) return values;
  return unpad_rows(values, problem_.seqlen, pitch_);
}

DeviceProblem::Bytes DeviceProblem::output_input_type(std::size_t count) { return Bytes(count * input_size_); }
std::vector<double> DeviceProblem::download_input(const Bytes& buffer) const {
  return decoded(buffer.download(), type_);
}
std::vector<double> DeviceProblem::download_weight(const Bytes& buffer) const {
  const std::vector<unsigned char> bytes = buffer.download();
  std::vector<double> out(bytes.size() / 4);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = decode(&bytes[i * 4], DataType::float32);
  return out;
}
std::vector<Complex> DeviceProblem::download_states(const Bytes& buffer) const {
  const std::vector<double> flat = download_weight(buffer);
  const std::size_t parts = problem_.complex ? 2 : 1;
  std::vector<Complex> out(flat.size() / parts);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = {flat[parts * i], problem_.complex ? flat[parts * i + 1] : 0.0};
  return out;
}

DeviceProblem::DeviceProblem(const Problem& p, DataType type, selective_scan::Kernel kernel, bool deterministic,
                             std::int64_t row_padding, bool keep_checkpoints)
    : problem_(p), type_(type), input_size_(size_of(type)), pitch_(p.seqlen + row_padding) {
  if (row_padding < 0 || (row_padding > 0 && p.complex))
    throw std::invalid_argument("DeviceProblem: row_padding must be >= 0, and 0 with complex A");
  const std::int64_t pitch = pitch_, N = p.dstate, G = p.groups;  // pitch: a time row in memory
  const std::int64_t sequence = p.batch * p.dim * pitch;
  const std::int64_t parts = p.complex ? 2 : 1;
  selective_scan::ForwardParams& f = params_.forward;
  f.sizes = {p.batch, p.dim, p.seqlen, p.dstate, p.groups};
  f.input_type = type;
  f.flags = {p.complex, p.delta_softplus};
  f.kernel = kernel;

  const auto sequence_tensor = [&](const Bytes& buffer) {
    return selective_scan::Input{buffer.data(), type, p.dim * pitch, pitch};
  };
  const auto output_tensor = [&](Bytes& buffer) {
    return selective_scan::Output{buffer.data(), type, p.dim * pitch, pitch};
  };
  u_ = upload_rows(p.u);
  delta_ = upload_rows(p.delta);
  f.u = sequence_tensor(u_);
  f.delta = sequence_tensor(delta_);
  if (p.has_z) {
    z_ = upload_rows(p.z);
    f.z = sequence_tensor(z_);
  }
  A_ = upload_weight(p.A);
  f.A = reinterpret_cast<const float*>(A_.data());
  f.A_dim_stride = N;
  const auto projection = [&](Bytes& buffer, const std::vector<Complex>& values, bool variable) {
    selective_scan::StateProjection<const void*> s;
    s.variable = variable;
    if (variable) {
      buffer = upload_projection(values);
      s.type = type;
      s.state_stride = pitch * parts;  // in input-type numbers
      s.group_stride = N * s.state_stride;
      s.batch_stride = G * s.group_stride;
    } else {
      buffer = upload_weight(values);
      s.type = DataType::float32;
      s.dim_stride = N;  // in (complex) elements
    }
    s.data = buffer.data();
    return s;
  };
  f.B = projection(B_, p.B, p.variable_B);
  f.C = projection(C_, p.C, p.variable_C);
  if (p.has_D) {
    D_ = upload_weight(p.D);
    f.D = reinterpret_cast<const float*>(D_.data());
  }
  if (p.has_delta_bias) {
    delta_bias_ = upload_weight(p.delta_bias);
    f.delta_bias = reinterpret_cast<const float*>(delta_bias_.data());
  }
  if (p.has_initial_state) {
    initial_state_ = upload_weight(p.initial_state);
    f.initial_state = reinterpret_cast<const float*>(initial_state_.data());
  }
  if (!p.cu_seqlens.empty()) {  // packed sequences: their offsets as the library takes them, int32
    const std::vector<std::int32_t> offsets(p.cu_seqlens.begin(), p.cu_seqlens.end());
    cu_seqlens_ = Bytes(std::span<const unsigned char>(reinterpret_cast<const unsigned char*>(offsets.data()),
                                                       offsets.size() * sizeof(std::int32_t)));
    f.cu_seqlens = reinterpret_cast<const std::int32_t*>(cu_seqlens_.data());
    f.sequences = p.sequences();
  }
  const std::int64_t state_floats = p.sequences() * p.dim * N * parts;  // a state of every sequence
  out_ = output_input_type(sequence);
  f.out = output_tensor(out_);
  if (p.has_z) {
    out_z_ = output_input_type(sequence);
    f.out_z = output_tensor(out_z_);
  }
  chunk_states_ = Bytes(selective_scan::chunk_states_floats(f.sizes, p.complex) * 4);
  f.chunk_states = reinterpret_cast<float*>(chunk_states_.data());
  last_state_ = Bytes(state_floats * 4);
  f.last_state = reinterpret_cast<float*>(last_state_.data());
  if (keep_checkpoints) {
    state_checkpoints_ = Bytes(std::size_t(selective_scan::state_checkpoints_floats(f)) * 4);
    f.state_checkpoints = reinterpret_cast<float*>(state_checkpoints_.data());  // null where none are kept
  }
  forward_workspace_ = Bytes(selective_scan::forward_workspace_bytes(f));
  f.workspace = forward_workspace_.data();

  params_.deterministic = deterministic;
  du_ = output_input_type(sequence);
  ddelta_ = output_input_type(sequence);
  params_.du = output_tensor(du_);
  params_.ddelta = output_tensor(ddelta_);
  if (p.has_z) {
    dz_ = output_input_type(sequence);
    params_.dz = output_tensor(dz_);
  }
  dA_ = Bytes(p.dim * N * parts * 4);
  params_.dA = reinterpret_cast<float*>(dA_.data());
  dB_ = Bytes(p.B.size() * parts * 4);
  dC_ = Bytes(p.C.size() * parts * 4);
  params_.dB = reinterpret_cast<float*>(dB_.data());
  params_.dC = reinterpret_cast<float*>(dC_.data());
  if (p.has_D) {
    dD_ = Bytes(p.dim * 4);
    params_.dD = reinterpret_cast<float*>(dD_.data());
  }
  if (p.has_delta_bias) {
    ddelta_bias_ = Bytes(p.dim * 4);
    params_.ddelta_bias = reinterpret_cast<float*>(ddelta_bias_.data());
  }
  if (p.has_initial_state) {
    dinitial_state_ = Bytes(state_floats * 4);
    params_.dinitial_state = reinterpret_cast<float*>(dinitial_state_.data());
  }
  dout_ = output_input_type(sequence);  // filled by set_dout
  params_.dout = sequence_tensor(dout_);
  workspace_ = Bytes(selective_scan::backward_workspace_bytes(params_));
  params_.workspace = workspace_.data();
  outputs_ = {
      &out_, &out_z_, &chunk_states_, &last_state_,  &state_checkpoints_, &du_,        &ddelta_,           &dz_, &dA_,
      &dB_,  &dC_,    &dD_,           &ddelta_bias_, &dinitial_state_,    &workspace_, &forward_workspace_};
  poison_outputs();
}

void DeviceProblem::poison_outputs() {
  for (Bytes* b : outputs_) b->poison();
}

void DeviceProblem::forward(cudaStream_t stream) { selective_scan::forward(params_.forward, stream); }

void DeviceProblem::set_dout(const std::vector<double>& dout) {
  if (std::int64_t(dout.size()) != problem_.sequence_elements())
    throw std::invalid_argument("DeviceProblem::set_dout: dout must have batch * dim * seqlen elements");
  const Bytes uploaded = upload_rows(dout);
  CUDA_CHECK(cudaMemcpy(dout_.data(), uploaded.data(), uploaded.bytes(), cudaMemcpyDeviceToDevice));
}

void DeviceProblem::set_dlast_state(const std::vector<Complex>& dlast_state) {
  if (!dlast_state.empty() && std::int64_t(dlast_state.size()) != problem_.sequences() * problem_.dim * problem_.dstate)
    throw std::invalid_argument(
        "DeviceProblem::set_dlast_state: dlast_state must have sequences * dim * dstate elements");
  dlast_state_ = dlast_state.empty() ? Bytes() : upload_weight(dlast_state);
  params_.dlast_state = dlast_state.empty() ? nullptr : reinterpret_cast<const float*>(dlast_state_.data());
}

void DeviceProblem::backward(cudaStream_t stream) { selective_scan::backward(params_, stream); }

ForwardResult DeviceProblem::forward_result() const {
  ForwardResult r;
  r.out = download_rows(out_);
  if (problem_.has_z) r.out_z = download_rows(out_z_);
  r.last_state = download_states(last_state_);
  return r;
}

std::vector<Complex> DeviceProblem::chunk_states() const { return download_states(chunk_states_); }

Gradients DeviceProblem::gradients() const {
  Gradients g;
  g.du = download_rows(du_);
  g.ddelta = download_rows(ddelta_);
  if (problem_.has_z) g.dz = download_rows(dz_);
  g.dA = download_states(dA_);
  g.dB = download_states(dB_);
  g.dC = download_states(dC_);
  if (problem_.has_D) g.dD = download_weight(dD_);
  if (problem_.has_delta_bias) g.ddelta_bias = download_weight(ddelta_bias_);
  if (problem_.has_initial_state) g.dinitial_state = download_states(dinitial_state_);
  return g;
}

}  // namespace ch08
