// A program outside the book that calls the selective-scan library: one small fp32 problem with
// variable B and C, a gate z, D, delta_bias and softplus; forward, then backward twice in
// deterministic mode, printing a few numbers. Every CUDA call is checked; the library throws
// selective_scan::Error on a bad call or a CUDA failure.
#include "selective_scan.hpp"

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

// A device array of floats that frees itself.
class DeviceFloats {
 public:
  explicit DeviceFloats(std::size_t count) : count_(count) {
    void* memory = nullptr;
    check(cudaMalloc(&memory, count * sizeof(float)), "cudaMalloc");
    data_ = static_cast<float*>(memory);
  }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  ~DeviceFloats() { cudaFree(data_); }

  float* get() const { return data_; }
  void upload(const std::vector<float>& host) {
    check(cudaMemcpy(data_, host.data(), count_ * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy to device");
  }
  std::vector<float> download() const {
    std::vector<float> host(count_);
    check(cudaMemcpy(host.data(), data_, count_ * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy to host");
    return host;
  }

 private:
  float* data_ = nullptr;
  std::size_t count_;
};

std::vector<float> normal(std::size_t count, float scale, std::mt19937& rng) {
  std::normal_distribution<float> draw(0.0f, scale);
  std::vector<float> values(count);
  for (float& v : values) v = draw(rng);
  return values;
}

// The CUDA runtime says "CUDA driver version is insufficient" also where there is no driver at
// all: tell the two apart before the first allocation.
void require_gpu() {
  int devices = 0;
  if (const cudaError_t status = cudaGetDeviceCount(&devices); status != cudaSuccess || devices == 0) {
    int driver = 0;
    cudaDriverGetVersion(&driver);
    if (driver == 0)
      std::fprintf(stderr, "no NVIDIA driver: libcuda.so.1 is not installed, so no GPU can be used\n");
    else if (status == cudaErrorInsufficientDriver)
      std::fprintf(stderr, "the NVIDIA driver is too old for this CUDA runtime: %s\n", cudaGetErrorString(status));
    else
      std::fprintf(stderr, "no CUDA-capable device: %s\n",
                   status == cudaSuccess ? "the driver sees no GPU" : cudaGetErrorString(status));
    std::exit(1);
  }
}

}  // namespace

int main() try {
  namespace ss = selective_scan;
  require_gpu();
  const std::int64_t batch = 2, dim = 4, seqlen = 300;
  const int dstate = 8;
  const std::size_t sequence = batch * dim * seqlen, projection = batch * dstate * seqlen;
  std::mt19937 rng(8);

  // [snippet:example_forward]
  DeviceFloats u(sequence), delta(sequence), z(sequence), out(sequence), out_z(sequence);
  DeviceFloats A(dim * dstate), B(projection), C(projection), D(dim), delta_bias(dim);
  DeviceFloats chunk_states(ss::chunk_states_floats({batch, dim, seqlen, dstate}, /*complex=*/false));
  u.upload(normal(sequence, 1.0f, rng));
  delta.upload(normal(sequence, 0.5f, rng));
  z.upload(normal(sequence, 1.0f, rng));
  B.upload(normal(projection, 1.0f, rng));
  C.upload(normal(projection, 1.0f, rng));
  D.upload(normal(dim, 1.0f, rng));
  std::vector<float> host_A(dim * dstate);
  for (std::size_t i = 0; i < host_A.size(); ++i) host_A[i] = -float(i % dstate + 1);  // -(n + 1)
  A.upload(host_A);
  // softplus(delta_bias) = 0.01: the step size where delta is 0
  delta_bias.upload(std::vector<float>(dim, std::log(std::expm1(0.01f))));

  // Every tensor is contiguous: (batch, dim, seqlen) has strides (dim * seqlen, seqlen, 1),
  // a variable B or C (batch, groups = 1, dstate, seqlen) has (dstate * seqlen, ., seqlen, 1).
  const auto sequence_in = [&](const DeviceFloats& t) {
    return ss::Input{t.get(), ss::DataType::float32, dim * seqlen, seqlen};
  };
  const auto sequence_out = [&](DeviceFloats& t) {
    return ss::Output{t.get(), ss::DataType::float32, dim * seqlen, seqlen};
  };
  const auto variable = [&](const DeviceFloats& t) {
    ss::StateProjection<const void*> p;
    p.data = t.get();
    p.batch_stride = dstate * seqlen, p.group_stride = dstate * seqlen, p.state_stride = seqlen;
    return p;
  };

  ss::ForwardParams forward;
  forward.sizes = {batch, dim, seqlen, dstate, /*groups=*/1};
  forward.flags.delta_softplus = true;
  forward.u = sequence_in(u), forward.delta = sequence_in(delta), forward.z = sequence_in(z);
  forward.A = A.get(), forward.A_dim_stride = dstate;
  forward.B = variable(B), forward.C = variable(C);
  forward.D = D.get(), forward.delta_bias = delta_bias.get();
  forward.out = sequence_out(out), forward.out_z = sequence_out(out_z);
  forward.chunk_states = chunk_states.get();
  ss::forward(forward);  // asynchronous on the default stream
  // [/snippet:example_forward]

  // [snippet:example_backward]
  DeviceFloats dout(sequence), du(sequence), ddelta(sequence), dz(sequence);
  DeviceFloats dA(dim * dstate), dB(projection), dC(projection), dD(dim), ddelta_bias(dim);
  dout.upload(std::vector<float>(sequence, 1.0f));  // the loss is the sum of out_z

  ss::BackwardParams backward;
  backward.forward = forward;
  backward.dout = sequence_in(dout);
  backward.deterministic = true;
  backward.du = sequence_out(du), backward.ddelta = sequence_out(ddelta);
  backward.dz = sequence_out(dz);
  backward.dA = dA.get(), backward.dB = dB.get(), backward.dC = dC.get();
  backward.dD = dD.get(), backward.ddelta_bias = ddelta_bias.get();
  void* workspace = nullptr;
  check(cudaMalloc(&workspace, ss::backward_workspace_bytes(backward)), "cudaMalloc workspace");
  backward.workspace = workspace;
  ss::backward(backward);
  // [/snippet:example_backward]
  // [snippet:example_plan]
  // Kernel::automatic (the default) chose a version for each direction; plan_of() says which.
  const ss::Plan plan = ss::plan_of(backward);
  std::printf("plan: %s (%s)\n", plan.summary().c_str(), plan.why.c_str());
  // [/snippet:example_plan]

  const std::vector<float> first_dA = dA.download();  // cudaMemcpy waits for the kernels
  ss::backward(backward);
  const std::vector<float> second_dA = dA.download();
  check(cudaFree(workspace), "cudaFree workspace");

  const std::vector<float> y = out_z.download(), gradient_D = dD.download();
  const auto print4 = [](const char* what, const std::vector<float>& v) {
    std::printf("%-26s %9.5f %9.5f %9.5f %9.5f\n", what, v[0], v[1], v[2], v[3]);
  };
  print4("out_z[b=0, d=0, t=0..3]:", y);
  print4("dA[d=0, n=0..3]:", first_dA);
  print4("dD[d=0..3]:", gradient_D);
  const bool identical = std::memcmp(first_dA.data(), second_dA.data(), first_dA.size() * sizeof(float)) == 0;
  std::printf("two deterministic backward runs: %s dA\n", identical ? "bit-identical" : "DIFFERENT");

  // [snippet:example_validate]
  ss::ForwardParams bad = forward;
  bad.sizes.groups = 3;  // dim 4 is not divisible by 3
  std::printf("validate() of a bad call: %s\n", ss::validate(bad).c_str());
  // [/snippet:example_validate]
  return identical ? 0 : 1;
} catch (const selective_scan::Error& e) {
  std::fprintf(stderr, "%s\n", e.what());
  return 1;
}
