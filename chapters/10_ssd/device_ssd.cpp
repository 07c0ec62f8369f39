#include "device_ssd.hpp"

#include "device_buffer.hpp"
#include "device_problem.hpp"

#include <algorithm>
#include <cmath>
#include <span>

namespace ch10 {
namespace {

using Bytes = common::DeviceBuffer<unsigned char>;
using Floats = common::DeviceBuffer<float>;

Bytes upload(const std::vector<double>& v, ssd::DataType type) {
  if (v.empty()) return Bytes();
  const std::vector<unsigned char> bytes = ch08::encoded(v, type);
  return Bytes(std::span<const unsigned char>(bytes));
}
Floats upload(const std::vector<double>& v) {
  std::vector<float> f(v.begin(), v.end());
  return f.empty() ? Floats() : Floats(std::span<const float>(f));
}
Bytes poisoned_bytes(std::size_t count, ssd::DataType type) {
  Bytes b(count * (type == ssd::DataType::float32 ? 4 : 2));
  b.poison();
  return b;
}
Floats poisoned_floats(std::size_t count) {
  Floats f(count);
  f.poison();
  return f;
}
std::vector<double> download(const Bytes& b, ssd::DataType type) { return ch08::decoded(b.download(), type); }
std::vector<double> download(const Floats& f) {
  const std::vector<float> v = f.download();
  return {v.begin(), v.end()};
}

// The problem's tensors on the GPU and the library's parameters over them.
struct DeviceSsd {
  Problem p;
  ssd::DataType type;
  Bytes x, dt, B, C, z;
  Floats A, D, dt_bias, initial_states;
  common::DeviceBuffer<std::int32_t> seq_idx;
  ssd::ForwardParams forward;

  DeviceSsd(const Problem& problem, ssd::DataType t)
      : p(problem),
        type(t),
        x(upload(p.x, t)),
        dt(upload(p.dt, t)),
        B(upload(p.B, t)),
        C(upload(p.C, t)),
        z(upload(p.z, t)),
        A(upload(p.A)),
        D(upload(p.D)),
        dt_bias(upload(p.dt_bias)),
        initial_states(upload(p.initial_states)),
        seq_idx(std::vector<std::int32_t>(p.seq_idx.begin(), p.seq_idx.end())) {
    const Shape& s = p.shape;
    forward.sizes = {s.batch, s.seqlen, s.heads, s.head_dim, s.groups, s.dstate};
    forward.input_type = t;
    forward.kernel = ssd::Kernel::recurrence;
    forward.x = x.data(), forward.dt = dt.data(), forward.A = A.data(), forward.B = B.data(), forward.C = C.data();
    forward.D = D.size() ? D.data() : nullptr;
    forward.D_per_channel = D.size() == std::size_t(s.heads) * std::size_t(s.head_dim) && s.head_dim > 1;
    forward.z = z.size() ? z.data() : nullptr;
    forward.dt_bias = dt_bias.size() ? dt_bias.data() : nullptr;
    forward.dt_softplus = p.dt_softplus;
    forward.dt_min = float(p.dt_limit.lo), forward.dt_max = float(p.dt_limit.hi);
    forward.initial_states = initial_states.size() ? initial_states.data() : nullptr;
    forward.seq_idx = seq_idx.size() ? seq_idx.data() : nullptr;
  }
};

}  // namespace

Problem as_gpu_sees(Problem p, ssd::DataType type) {
  const auto in_type = [&](std::vector<double>& v) { v = ch08::round_to(v, type); };
  const auto in_fp32 = [&](std::vector<double>& v) { v = ch08::round_to(v, selective_scan::DataType::float32); };
  for (auto* v : {&p.x, &p.dt, &p.B, &p.C, &p.z}) in_type(*v);
  for (auto* v : {&p.A, &p.D, &p.dt_bias, &p.initial_states}) in_fp32(*v);
  p.dt_limit.lo = float(p.dt_limit.lo), p.dt_limit.hi = float(p.dt_limit.hi);
  return p;
}

Forward gpu_forward(const Problem& p, ssd::DataType type, ssd::Kernel kernel, std::int64_t chunk_size) {
  DeviceSsd d(p, type);
  Bytes y = poisoned_bytes(p.x.size(), type);
  Floats final_states = poisoned_floats(Index{p.shape}.state_size());
  d.forward.kernel = kernel;
  d.forward.chunk_size = chunk_size;
  d.forward.y = y.data(), d.forward.final_states = final_states.data();
  ssd::forward(d.forward);
  return {download(y, type), download(final_states)};
}

Gradients gpu_backward(const Problem& p, ssd::DataType type, const std::vector<double>& dy) {
  DeviceSsd d(p, type);
  const Index at{p.shape};
  Bytes dy_gpu = upload(dy, type), dx = poisoned_bytes(at.x_size(), type), ddt = poisoned_bytes(at.dt_size(), type),
        dz = poisoned_bytes(p.z.size(), type), y = poisoned_bytes(at.x_size(), type);
  Floats dA = poisoned_floats(std::size_t(p.shape.heads)), dB = poisoned_floats(at.bc_size()),
         dC = poisoned_floats(at.bc_size()), dD = poisoned_floats(p.D.size()),
         ddt_bias = poisoned_floats(p.dt_bias.size()), dinitial = poisoned_floats(p.initial_states.size());
  ssd::BackwardParams b;
  d.forward.y = y.data();
  b.forward = d.forward;
  b.dy = dy_gpu.data(), b.dx = dx.data(), b.ddt = ddt.data(), b.dA = dA.data(), b.dB = dB.data(), b.dC = dC.data();
  b.dD = dD.size() ? dD.data() : nullptr;
  b.dz = dz.size() ? dz.data() : nullptr;
  b.ddt_bias = ddt_bias.size() ? ddt_bias.data() : nullptr;
  b.dinitial_states = dinitial.size() ? dinitial.data() : nullptr;
  ssd::backward(b);
  Gradients g;
  g.dx = download(dx, type), g.ddt = download(ddt, type), g.dA = download(dA), g.dB = download(dB), g.dC = download(dC);
  if (dD.size()) g.dD = download(dD);
  if (dz.size()) g.dz = download(dz, type);
  if (ddt_bias.size()) g.ddt_bias = download(ddt_bias);
  if (dinitial.size()) g.dinitial_states = download(dinitial);
  return g;
}

common::TimingStats time_gpu_forward(const Problem& p, ssd::DataType type, ssd::Kernel kernel, std::int64_t chunk_size,
                                     common::GpuTimer& timer) {
  DeviceSsd d(p, type);
  Bytes y = poisoned_bytes(p.x.size(), type);
  d.forward.kernel = kernel;
  d.forward.chunk_size = chunk_size;
  d.forward.y = y.data();
  return timer.time([&] { ssd::forward(d.forward); });
}

common::TimingStats time_gpu_forward_backward(const Problem& p, ssd::DataType type, common::GpuTimer& timer) {
  DeviceSsd d(p, type);
  const Index at{p.shape};
  std::vector<double> ones(at.x_size(), 1.0);
  Bytes dy = upload(ones, type), y = poisoned_bytes(at.x_size(), type), dx = poisoned_bytes(at.x_size(), type),
        ddt = poisoned_bytes(at.dt_size(), type), dz = poisoned_bytes(p.z.size(), type);
  Floats dA(std::size_t(p.shape.heads)), dB(at.bc_size()), dC(at.bc_size()), dD(p.D.size()), ddt_bias(p.dt_bias.size());
  d.forward.kernel = ssd::Kernel::recurrence;
  d.forward.y = y.data();
  ssd::BackwardParams b;
  b.forward = d.forward;
  b.dy = dy.data(), b.dx = dx.data(), b.ddt = ddt.data(), b.dA = dA.data(), b.dB = dB.data(), b.dC = dC.data();
  b.dD = dD.size() ? dD.data() : nullptr;
  b.dz = dz.size() ? dz.data() : nullptr;
  b.ddt_bias = ddt_bias.size() ? ddt_bias.data() : nullptr;
  return timer.time([&] {
    ssd::forward(d.forward);
    ssd::backward(b);
  });
}

common::Tolerance gpu_tolerance(ssd::DataType type, const std::vector<double>& ref) {
  double scale = 0;
  for (double v : ref) scale = std::max(scale, std::abs(v));
  switch (type) {
    case ssd::DataType::float32: return {1e-4 * scale, 1e-3};
    case ssd::DataType::float16: return {1e-2 * scale, 2e-2};
    default: return {3e-2 * scale, 5e-2};
  }
}

}  // namespace ch10
