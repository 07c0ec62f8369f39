// The SSD library on the GPU against the fp64 recurrence: version 1 (chapter 08's scan with one
// A a head) forward and backward, version 2 (the chunked algorithm, cuBLAS's products) forward,
// on every input type, lengths past chapter 08's chunk of 2048 and chunks that do not divide the
// length, one head and many, groups, 1 and 128 states, D per head and per channel, the gate,
// softplus, dt_bias, an active clamp, initial states; version 2 also on packed sequences. Outputs
// are poisoned (NaN) before each call.
#include "ch10_test_support.hpp"
#include "device_buffer.hpp"
#include "device_problem.hpp"
#include "gpu_test.hpp"
#include "ssd.hpp"
#include "ssd_backward.hpp"
#include "ssd_reference.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using ch10::DForm;
using ch10::Problem;
using ch10::ProblemSpec;

namespace {

using Bytes = common::DeviceBuffer<unsigned char>;
using Floats = common::DeviceBuffer<float>;

const char* name_of(ssd::DataType t) {
  return t == ssd::DataType::float32 ? "fp32" : t == ssd::DataType::float16 ? "fp16" : "bf16";
}

// The inputs as the GPU holds them: the input-type tensors rounded to `type`, the rest to fp32.
Problem as_gpu_sees(Problem p, ssd::DataType type) {
  const auto in_type = [&](std::vector<double>& v) { v = ch08::round_to(v, type); };
  const auto in_fp32 = [&](std::vector<double>& v) { v = ch08::round_to(v, selective_scan::DataType::float32); };
  for (auto* v : {&p.x, &p.dt, &p.B, &p.C, &p.z}) in_type(*v);
  for (auto* v : {&p.A, &p.D, &p.dt_bias, &p.initial_states}) in_fp32(*v);
  p.dt_limit.lo = float(p.dt_limit.lo), p.dt_limit.hi = float(p.dt_limit.hi);
  return p;
}

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

// Each type's bounds, the absolute part relative to the tensor's largest reference value: version
// 1 rounds dt' to the input type before chapter 08's kernel reads it, and the gradients it sums
// over a head's channels and states (dA, ddt) are long sums of fp32 terms.
common::Tolerance tolerance(ssd::DataType type, const std::vector<double>& ref) {
  double scale = 0;
  for (double v : ref) scale = std::max(scale, std::abs(v));
  switch (type) {
    case ssd::DataType::float32: return {1e-4 * scale, 1e-3};
    case ssd::DataType::float16: return {1e-2 * scale, 2e-2};
    default: return {3e-2 * scale, 5e-2};
  }
}

void check_tensor(const char* what, const std::vector<double>& got, const std::vector<double>& ref,
                  ssd::DataType type) {
  CHECK_CLOSE(what, common::compare(got, ref, tolerance(type, ref)));
}

// The problem's tensors on the GPU and the library's parameters over them.
struct DeviceSsd {
  Problem p;
  ssd::DataType type;
  Bytes x, dt, B, C, z, dy;
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
    const ch10::Shape& s = p.shape;
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

ProblemSpec spec_of(std::int64_t batch, std::int64_t seqlen, int heads, int groups, int head_dim, int dstate) {
  ProblemSpec spec;
  spec.shape = {batch, seqlen, heads, head_dim, groups, dstate};
  return spec;
}

// The options of case c: each on in half the cases, D alternating between per head and per channel.
ProblemSpec with_options(ProblemSpec spec, int c) {
  spec.D = c % 3 == 0 ? DForm::none : c % 3 == 1 ? DForm::per_head : DForm::per_channel;
  spec.z = c & 1, spec.dt_softplus = c & 2, spec.dt_bias = c & 4, spec.initial_states = c & 8;
  if (c % 5 == 4) spec.dt_limit = {0.004, 0.05};  // holds part of the drawn range [1e-3, 0.1]
  return spec;
}

std::vector<ProblemSpec> shapes() {
  return {spec_of(2, 37, 4, 2, 6, 5),     spec_of(1, 1, 1, 1, 1, 1),     spec_of(3, 300, 6, 3, 8, 16),
          spec_of(1, 2049, 2, 1, 4, 128), spec_of(2, 4100, 3, 3, 2, 64), spec_of(1, 64, 8, 1, 64, 32)};
}

constexpr ssd::DataType kTypes[] = {ssd::DataType::float32, ssd::DataType::float16, ssd::DataType::bfloat16};

}  // namespace

// One forward on the GPU against the fp64 recurrence of the same (rounded) inputs.
void check_forward(const ProblemSpec& spec, ssd::DataType type, ssd::Kernel kernel, std::int64_t chunk_size,
                   unsigned seed) {
  INFO(name_of(type) << ", " << ssd::name_of(kernel) << ", chunk " << chunk_size << ", " << ch10_test::describe(spec)
                     << ", seed " << seed);
  DeviceSsd d(as_gpu_sees(ch10::make_problem(spec, seed), type), type);
  Bytes y = poisoned_bytes(d.p.x.size(), type);
  Floats final_states = poisoned_floats(ch10::Index{d.p.shape}.state_size());
  d.forward.kernel = kernel;
  d.forward.chunk_size = chunk_size;
  d.forward.y = y.data(), d.forward.final_states = final_states.data();
  ssd::forward(d.forward);
  const ch10::Forward ref = ch10::ssd_recurrence(d.p);
  check_tensor("y", download(y, type), ch08::round_to(ref.y, type), type);
  check_tensor("final states", download(final_states), ref.final_states, type);
}

TEST_CASE("version 1 (chapter 08's scan): the forward matches the fp64 recurrence", "[gpu]") {
  REQUIRE_GPU();
  int c = 0;
  for (const ssd::DataType type : kTypes)
    for (const ProblemSpec& shape : shapes()) {
      check_forward(with_options(shape, c), type, ssd::Kernel::recurrence, 256, unsigned(c));
      ++c;
    }
}

TEST_CASE("version 2 (chunked): the forward matches the fp64 recurrence, chunks that do not divide the length",
          "[gpu]") {
  REQUIRE_GPU();
  int c = 0;
  for (const ssd::DataType type : kTypes)
    for (const ProblemSpec& shape : shapes()) {
      const std::int64_t chunk = std::int64_t(1) << (c % 4 * 2 + 1);  // 2, 8, 32, 128
      check_forward(with_options(shape, c), type, ssd::Kernel::chunked, chunk, unsigned(c));
      ++c;
    }
  // One chunk a position, and one chunk longer than the sequence.
  check_forward(with_options(spec_of(2, 37, 4, 2, 6, 5), 15), ssd::DataType::float32, ssd::Kernel::chunked, 1, 7);
  check_forward(with_options(spec_of(2, 37, 4, 2, 6, 5), 14), ssd::DataType::float32, ssd::Kernel::chunked, 64, 8);
}

TEST_CASE("version 2 (chunked): packed sequences of 1, 7 and 300 positions, and 300 states", "[gpu]") {
  REQUIRE_GPU();
  int c = 0;
  for (const ssd::DataType type : kTypes)
    for (const std::int64_t chunk : {4, 64, 256}) {
      ProblemSpec spec = with_options(spec_of(2, 308, 4, 2, 8, 16), c);
      spec.packing = {{1, 7, 300}, {300, 7, 1}};
      check_forward(spec, type, ssd::Kernel::chunked, chunk, unsigned(c));
      ++c;
    }
  // Past chapter 08's 256 states, which only version 2 takes: automatic chooses it.
  check_forward(with_options(spec_of(1, 70, 2, 1, 3, 300), 9), ssd::DataType::float32, ssd::Kernel::automatic, 32, 9);
}

TEST_CASE("version 1 (chapter 08's scan): every gradient matches the fp64 adjoint", "[gpu]") {
  REQUIRE_GPU();
  int c = 0;
  for (const ssd::DataType type : kTypes)
    for (const ProblemSpec& shape : shapes()) {
      const ProblemSpec spec = with_options(shape, c);
      INFO(name_of(type) << ", " << ch10_test::describe(spec) << ", seed " << c);
      DeviceSsd d(as_gpu_sees(ch10::make_problem(spec, unsigned(c)), type), type);
      const std::vector<double> dy = ch08::round_to(ch10_test::normals(d.p.x.size(), 1000u + unsigned(c)), type);
      ++c;
      const ch10::Index at{d.p.shape};
      Bytes dy_gpu = upload(dy, type), dx = poisoned_bytes(at.x_size(), type), ddt = poisoned_bytes(at.dt_size(), type),
            dz = poisoned_bytes(d.p.z.size(), type), y = poisoned_bytes(at.x_size(), type);
      Floats dA = poisoned_floats(std::size_t(d.p.shape.heads)), dB = poisoned_floats(at.bc_size()),
             dC = poisoned_floats(at.bc_size()), dD = poisoned_floats(d.p.D.size()),
             ddt_bias = poisoned_floats(d.p.dt_bias.size()), dinitial = poisoned_floats(d.p.initial_states.size());
      ssd::BackwardParams b;
      d.forward.y = y.data();
      b.forward = d.forward;
      b.dy = dy_gpu.data(), b.dx = dx.data(), b.ddt = ddt.data(), b.dA = dA.data(), b.dB = dB.data(), b.dC = dC.data();
      b.dD = dD.size() ? dD.data() : nullptr;
      b.dz = dz.size() ? dz.data() : nullptr;
      b.ddt_bias = ddt_bias.size() ? ddt_bias.data() : nullptr;
      b.dinitial_states = dinitial.size() ? dinitial.data() : nullptr;
      ssd::backward(b);

      const ch10::Gradients ref = ch10::ssd_backward(d.p, dy);
      check_tensor("dx", download(dx, type), ref.dx, type);
      check_tensor("ddt", download(ddt, type), ref.ddt, type);
      check_tensor("dA", download(dA), ref.dA, type);
      check_tensor("dB", download(dB), ref.dB, type);
      check_tensor("dC", download(dC), ref.dC, type);
      if (dD.size()) check_tensor("dD", download(dD), ref.dD, type);
      if (dz.size()) check_tensor("dz", download(dz, type), ref.dz, type);
      if (ddt_bias.size()) check_tensor("ddt_bias", download(ddt_bias), ref.ddt_bias, type);
      if (dinitial.size()) check_tensor("dinitial_states", download(dinitial), ref.dinitial_states, type);
    }
}

TEST_CASE("the library refuses what no version takes, in one line, before any work") {
  // Validation reads only the sizes and which pointers are set: no GPU is needed, and none is touched.
  static float never_read[1];
  ssd::ForwardParams f;
  f.sizes = {1, 16, 2, 4, 1, 8};
  f.x = f.dt = f.B = f.C = never_read;
  f.A = never_read;
  f.y = never_read;
  std::int32_t seq_idx[16] = {};
  f.seq_idx = seq_idx;
  f.kernel = ssd::Kernel::recurrence;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("takes no seq_idx"));
  f.kernel = ssd::Kernel::automatic;  // version 2 takes packed sequences forward, no version backward
  CHECK(ssd::validate(f).empty());
  CHECK(ssd::kernel_of(f) == ssd::Kernel::chunked);
  ssd::BackwardParams packed;
  packed.forward = f;
  packed.dy = packed.dx = packed.ddt = never_read;
  packed.dA = packed.dB = packed.dC = never_read;
  CHECK_THROWS_WITH(ssd::backward(packed), Catch::Contains("the backward: version 1"));
  f.seq_idx = nullptr;
  CHECK(ssd::kernel_of(f) == ssd::Kernel::recurrence);
  f.sizes.groups = 3;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("multiple of groups"));
  f.sizes.groups = 1;
  f.dt_min = 0.1f, f.dt_max = 0.01f;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("dt_min must not exceed dt_max"));
  f.dt_min = 0.f, f.dt_max = 1.f;
  f.sizes.dstate = 257;
  CHECK(ssd::kernel_of(f) == ssd::Kernel::chunked);
  f.kernel = ssd::Kernel::recurrence;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("at most 256 states"));
  f.kernel = ssd::Kernel::chunked;
  f.chunk_size = 0;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("chunk_size must be at least 1"));
  f.kernel = ssd::Kernel::automatic;
  f.chunk_size = 256;
  f.sizes.dstate = 8;
  f.y = nullptr;
  CHECK_THROWS_WITH(ssd::forward(f), Catch::Contains("are required"));
  f.y = never_read;
  ssd::BackwardParams b;
  b.forward = f;
  b.forward.z = never_read;
  b.dy = b.dx = b.ddt = never_read;
  b.dA = b.dB = b.dC = never_read;
  CHECK_THROWS_WITH(ssd::backward(b), Catch::Contains("dz is required when z is given"));
  CHECK(ssd::validate(f).empty());
}
