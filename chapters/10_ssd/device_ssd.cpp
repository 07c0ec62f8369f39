#include "device_ssd.hpp"

#include "device_buffer.hpp"
#include "device_problem.hpp"
#include "grid_fill.hpp"
#include "kernel_timer.hpp"
#include "sequence_states.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <utility>

namespace ch10 {
namespace {

using Bytes = common::DeviceBuffer<unsigned char>;
using Floats = common::DeviceBuffer<float>;

constexpr unsigned kBenchSeed = 11;

Bytes upload(const std::vector<double>& v, ssd::DataType type) {
  if (v.empty()) return Bytes();
  const std::vector<unsigned char> bytes = ch08::encoded(v, type);
  return Bytes(std::span<const unsigned char>(bytes));
}
Floats upload(const std::vector<double>& v) {
  std::vector<float> f(v.begin(), v.end());
  return f.empty() ? Floats() : Floats(std::span<const float>(f));
}
// `count` numbers of `type`, in bytes.
std::size_t bytes_of(std::size_t count, ssd::DataType type) { return count * (type == ssd::DataType::float32 ? 4 : 2); }
Bytes poisoned_bytes(std::size_t count, ssd::DataType type) {
  Bytes b(bytes_of(count, type));
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
  Shape shape;
  ssd::DataType type;
  Bytes x, dt, B, C, z;
  Floats A, D, dt_bias, initial_states;
  common::DeviceBuffer<std::int32_t> seq_idx;
  ssd::ForwardParams forward;

  // Every tensor of `p` uploaded.
  DeviceSsd(const Problem& p, ssd::DataType t)
      : DeviceSsd(p, t, upload(p.x, t), upload(p.dt, t), upload(p.B, t), upload(p.C, t), upload(p.z, t)) {}

  // x, dt, B, C and z already on the GPU; the shape, the per-head parameters, the options and
  // seq_idx from `p`.
  DeviceSsd(const Problem& p, ssd::DataType t, Bytes x_gpu, Bytes dt_gpu, Bytes B_gpu, Bytes C_gpu, Bytes z_gpu)
      : shape(p.shape),
        type(t),
        x(std::move(x_gpu)),
        dt(std::move(dt_gpu)),
        B(std::move(B_gpu)),
        C(std::move(C_gpu)),
        z(std::move(z_gpu)),
        A(upload(p.A)),
        D(upload(p.D)),
        dt_bias(upload(p.dt_bias)),
        initial_states(upload(p.initial_states)),
        seq_idx(std::vector<std::int32_t>(p.seq_idx.begin(), p.seq_idx.end())) {
    // [snippet:example_params]
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
    // [/snippet:example_params]
  }

  std::size_t z_size() const { return z.size() ? Index{shape}.x_size() : 0; }
};

// `count` values of N(0, 1) in `type`, drawn on the GPU (chapter 08's grid's generator).
Bytes normals_on_gpu(std::size_t count, ssd::DataType type, std::uint64_t stream) {
  Bytes b(bytes_of(count, type));
  ch08::grid::fill_normal_input(b.data(), std::int64_t(count), type, stream, 1.0f);
  return b;
}

// The benchmark's inputs: x, dt, B, C and z drawn on the GPU from N(0, 1), as triton_bench.py draws
// the official kernels' (the largest shape's x holds 671 M elements: drawn in fp64 on the host and
// converted, one shape took minutes); A, D and dt_bias as make_problem draws them.
DeviceSsd drawn_on_gpu(const ProblemSpec& spec, ssd::DataType t, unsigned seed) {
  if (!spec.packing.empty() || spec.initial_states)
    throw std::invalid_argument("drawn_on_gpu: packed sequences and initial states are drawn on the host only");
  ProblemSpec one_step = spec;
  one_step.shape.batch = 1, one_step.shape.seqlen = 1;
  Problem params = make_problem(one_step, seed);
  params.shape = spec.shape;
  const Index at{spec.shape};
  const std::uint64_t stream = std::uint64_t(seed) * 8;
  return DeviceSsd(params, t, normals_on_gpu(at.x_size(), t, stream + 1), normals_on_gpu(at.dt_size(), t, stream + 2),
                   normals_on_gpu(at.bc_size(), t, stream + 3), normals_on_gpu(at.bc_size(), t, stream + 4),
                   spec.z ? normals_on_gpu(at.x_size(), t, stream + 5) : Bytes());
}

}  // namespace

Problem as_gpu_sees(Problem p, ssd::DataType type) {
  const auto in_type = [&](std::vector<double>& v) { v = ch08::round_to(v, type); };
  const auto in_fp32 = [&](std::vector<double>& v) { v = ch08::round_to(v, selective_scan::DataType::float32); };
  for (auto* v : {&p.x, &p.dt, &p.B, &p.C, &p.z}) in_type(*v);
  for (auto* v : {&p.A, &p.D, &p.dt_bias, &p.initial_states}) in_fp32(*v);
  p.dt_limit.lo = float(p.dt_limit.lo), p.dt_limit.hi = float(p.dt_limit.hi);
  return p;
}

// [snippet:example_forward]
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
// [/snippet:example_forward]

Forward gpu_forward_saving(const Problem& p, ssd::DataType type) {
  DeviceSsd d(p, type);
  Bytes y = poisoned_bytes(p.x.size(), type);
  Floats final_states = poisoned_floats(Index{p.shape}.state_size());
  d.forward.kernel = ssd::Kernel::fused;
  d.forward.y = y.data(), d.forward.final_states = final_states.data();
  Bytes saved(ssd::saved_bytes(d.forward));
  saved.poison();
  d.forward.saved = saved.data();
  ssd::forward(d.forward);
  return {download(y, type), download(final_states)};
}

std::vector<double> gpu_sequence_final_states(const Problem& p, ssd::DataType type, std::int64_t chunk_size) {
  const std::vector<std::int64_t> starts = sequence_starts(p);
  DeviceSsd d(p, type);
  Bytes y = poisoned_bytes(p.x.size(), type);
  const common::DeviceBuffer<std::int32_t> cu_seqlens(std::vector<std::int32_t>(starts.begin(), starts.end()));
  const std::int64_t sequences = std::int64_t(starts.size()) - 1;
  Floats out = poisoned_floats(std::size_t(sequences) * p.shape.heads * p.shape.head_dim * p.shape.dstate);
  d.forward.kernel = ssd::Kernel::chunked;
  d.forward.chunk_size = chunk_size;
  d.forward.y = y.data();
  d.forward.sequences = sequences, d.forward.cu_seqlens = cu_seqlens.data(),
  d.forward.sequence_final_states = out.data();
  ssd::forward(d.forward);
  return download(out);
}

Gradients gpu_backward(const Problem& p, ssd::DataType type, const std::vector<double>& dy, ssd::Kernel kernel,
                       bool from_saved) {
  DeviceSsd d(p, type);
  const Index at{p.shape};
  Bytes dy_gpu = upload(dy, type), dx = poisoned_bytes(at.x_size(), type), ddt = poisoned_bytes(at.dt_size(), type),
        dz = poisoned_bytes(p.z.size(), type), y = poisoned_bytes(at.x_size(), type);
  Floats dA = poisoned_floats(std::size_t(p.shape.heads)), dB = poisoned_floats(at.bc_size()),
         dC = poisoned_floats(at.bc_size()), dD = poisoned_floats(p.D.size()),
         ddt_bias = poisoned_floats(p.dt_bias.size()), dinitial = poisoned_floats(p.initial_states.size());
  ssd::BackwardParams b;
  d.forward.y = y.data();
  d.forward.kernel = kernel;
  Bytes saved;  // poisoned: the forward must fill every byte the backward reads
  if (from_saved) {
    saved = Bytes(ssd::saved_bytes(d.forward));
    saved.poison();
    d.forward.saved = saved.data();
    ssd::forward(d.forward);
  }
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

template <class Timer>
common::TimingStats time_gpu_forward(const ProblemSpec& spec, ssd::DataType type, ssd::Kernel kernel,
                                     std::int64_t chunk_size, Timer& timer) {
  DeviceSsd d = drawn_on_gpu(spec, type, kBenchSeed);
  Bytes y = poisoned_bytes(Index{spec.shape}.x_size(), type);
  d.forward.kernel = kernel;
  d.forward.chunk_size = chunk_size;
  d.forward.y = y.data();
  return timer.time([&forward = d.forward] { ssd::forward(forward); });
}

template <class Timer>
common::TimingStats time_gpu_forward_backward(const ProblemSpec& spec, ssd::DataType type, ssd::Kernel kernel,
                                              Timer& timer) {
  DeviceSsd d = drawn_on_gpu(spec, type, kBenchSeed);
  const Index at{spec.shape};
  Bytes dy = normals_on_gpu(at.x_size(), type, 8 * kBenchSeed + 6), y = poisoned_bytes(at.x_size(), type),
        dx = poisoned_bytes(at.x_size(), type), ddt = poisoned_bytes(at.dt_size(), type),
        dz = poisoned_bytes(d.z_size(), type);
  Floats dA(std::size_t(spec.shape.heads)), dB(at.bc_size()), dC(at.bc_size()), dD(d.D.size()),
      ddt_bias(d.dt_bias.size());
  d.forward.kernel = kernel;
  d.forward.y = y.data();
  Bytes saved;  // version 3's forward keeps what its backward reads, as a training step has it do
  if (ssd::kernel_of(d.forward) == ssd::Kernel::fused) {
    saved = Bytes(ssd::saved_bytes(d.forward));
    d.forward.saved = saved.data();
  }
  ssd::BackwardParams b;
  b.forward = d.forward;
  b.dy = dy.data(), b.dx = dx.data(), b.ddt = ddt.data(), b.dA = dA.data(), b.dB = dB.data(), b.dC = dC.data();
  b.dD = dD.size() ? dD.data() : nullptr;
  b.dz = dz.size() ? dz.data() : nullptr;
  b.ddt_bias = ddt_bias.size() ? ddt_bias.data() : nullptr;
  return timer.time([&forward = d.forward, &b] {
    ssd::forward(forward);
    ssd::backward(b);
  });
}

template common::TimingStats time_gpu_forward(const ProblemSpec&, ssd::DataType, ssd::Kernel, std::int64_t,
                                              common::GpuTimer&);
template common::TimingStats time_gpu_forward(const ProblemSpec&, ssd::DataType, ssd::Kernel, std::int64_t,
                                              KernelTimer&);
template common::TimingStats time_gpu_forward_backward(const ProblemSpec&, ssd::DataType, ssd::Kernel,
                                                       common::GpuTimer&);
template common::TimingStats time_gpu_forward_backward(const ProblemSpec&, ssd::DataType, ssd::Kernel, KernelTimer&);

namespace {

// The k-th placeholder tensor: 2^40 bytes (a TiB) from the next, and far above what a host or GPU
// allocation takes, so that no two of a call meet and none meets a real tensor a caller adds.
const void* placeholder(int k) { return reinterpret_cast<const void*>((std::uintptr_t(0x100) + k) << 40); }
void* placeholder_out(int k) { return const_cast<void*>(placeholder(k)); }
float* placeholder_floats(int k) { return static_cast<float*>(placeholder_out(k)); }

}  // namespace

ssd::ForwardParams sizes_only(const Shape& shape, ssd::DataType type, ssd::Kernel kernel) {
  ssd::ForwardParams f;
  f.sizes = {shape.batch, shape.seqlen, shape.heads, shape.head_dim, shape.groups, shape.dstate};
  f.input_type = type, f.kernel = kernel;
  f.x = placeholder(0), f.dt = placeholder(1), f.B = placeholder(2), f.C = placeholder(3);
  f.A = placeholder_floats(4);
  f.y = placeholder_out(5);
  return f;
}

ssd::BackwardParams sizes_only_backward(const Shape& shape, ssd::DataType type, ssd::Kernel kernel) {
  ssd::BackwardParams b;
  b.forward = sizes_only(shape, type, kernel);
  b.dy = placeholder(6), b.dx = placeholder_out(7), b.ddt = placeholder_out(8);
  b.dA = placeholder_floats(9), b.dB = placeholder_floats(10), b.dC = placeholder_floats(11);
  return b;
}

std::string gpu_refusal(const Shape& shape, ssd::DataType type, ssd::Kernel kernel) {
  return ssd::validate(sizes_only(shape, type, kernel));
}

std::string gpu_backward_refusal(const Shape& shape, ssd::DataType type, ssd::Kernel kernel) {
  return ssd::validate(sizes_only_backward(shape, type, kernel));
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
