#include "scan_check.hpp"

#include "ch08_test_support.hpp"
#include "cuda_check.hpp"

#include <random>
#include <sstream>

namespace ch08::testing {

std::string describe(const Problem& p, selective_scan::DataType type, selective_scan::Kernel kernel) {
  std::ostringstream s;
  s << "kernel " << (kernel == selective_scan::Kernel::automatic ? std::string("auto") : std::to_string(int(kernel)))
    << ' ' << ch08_test::type_name(type) << " batch " << p.batch << " dim " << p.dim << " seqlen " << p.seqlen
    << " dstate " << p.dstate << " groups " << p.groups << (p.complex ? " complex" : " real") << " B "
    << (p.variable_B ? "variable" : "constant") << " C " << (p.variable_C ? "variable" : "constant") << " D " << p.has_D
    << " z " << p.has_z << " delta_bias " << p.has_delta_bias << " softplus " << p.delta_softplus << " h0 "
    << p.has_initial_state;
  if (!p.cu_seqlens.empty()) {
    s << " packed at";
    for (std::int64_t offset : p.cu_seqlens) s << ' ' << offset;
  }
  return s.str();
}

OutputGradients draw_output_gradients(const Problem& p, selective_scan::DataType type, unsigned seed,
                                      bool dlast_state) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> normal;
  OutputGradients g;
  g.dout.resize(std::size_t(p.sequence_elements()));
  for (double& x : g.dout) x = normal(rng);
  g.dout = round_to(g.dout, type);
  if (dlast_state)
    for (std::int64_t i = 0; i < p.sequences() * p.dim * p.dstate; ++i) {
      const double re = double(float(normal(rng)));
      g.dlast_state.emplace_back(re, p.complex ? double(float(normal(rng))) : 0.0);
    }
  return g;
}

Outcome judge(const Problem& p, selective_scan::DataType type, const ForwardResult& got, const ForwardResult& expected,
              const Gradients& got_grad, const Gradients& expected_grad) {
  Outcome outcome;
  // The program's checks judge by the same rule (verdict.hpp): dA with its rounding bound on top.
  for (const TensorVerdict& t : judge_run(p, official_tolerances(type, p), got, expected, got_grad, expected_grad)) {
    if (t.ok) continue;
    outcome.ok = false;
    outcome.report += t.name + ": " + t.detail + "\n";
  }
  return outcome;
}

Outcome run_and_compare(const Problem& drawn, selective_scan::DataType type, selective_scan::Kernel kernel,
                        bool deterministic, unsigned dout_seed, std::int64_t row_padding, bool keep_checkpoints,
                        bool dlast_state) {
  const Problem p = as_gpu_sees(drawn, type);
  const OutputGradients given = draw_output_gradients(p, type, dout_seed, dlast_state);
  const ForwardResult expected = reference_forward(p);
  const Gradients expected_grad = reference_backward(p, given.dout, given.dlast_state);

  DeviceProblem device(p, type, kernel, deterministic, row_padding, keep_checkpoints);
  device.forward();
  device.set_dout(given.dout);
  device.set_dlast_state(given.dlast_state);
  device.backward();
  CUDA_CHECK(cudaDeviceSynchronize());
  return judge(p, type, device.forward_result(), expected, device.gradients(), expected_grad);
}

}  // namespace ch08::testing
