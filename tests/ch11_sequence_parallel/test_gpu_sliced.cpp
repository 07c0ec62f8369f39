// The sliced scan on the GPUs of this machine through NCCL (sequence_parallel.hpp), one thread
// and one communicator a GPU, against chapter 08's fp64 reference on the whole sequence: 2 ranks
// and every GPU there is, slices of unequal length, fp32 and bf16, every option on and off;
// forward, and forward and backward.
#include "check_close.hpp"
#include "device_problem.hpp"
#include "gpu_test.hpp"
#include "multi_gpu.hpp"
#include "slices.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

// Every GPU the CUDA runtime shows; with fewer than 2, the test reports itself skipped (77).
int gpus_or_skip() {
  const int gpus = ch11::usable_gpus();
  if (gpus < 2) {
    std::printf("SKIPPED: %d GPU(s); the sliced scan needs at least 2\n", gpus);
    std::fflush(stdout);
    std::_Exit(77);
  }
  return gpus;
}

// Case c's shape: 2 × 2048 + 37 steps (slices of unequal length), the options on and off with c.
ch08::Problem sliced_shape(int c) {
  ch08::Problem shape;
  shape.batch = 2, shape.dim = 24, shape.seqlen = 2 * 2048 + 37, shape.dstate = 16, shape.groups = 2;
  shape.has_D = c & 1, shape.has_z = c & 2, shape.has_delta_bias = shape.delta_softplus = c & 1;
  shape.has_initial_state = c & 2;
  return shape;
}

}  // namespace

TEST_CASE("the sliced forward on several GPUs equals the whole sequence's fp64 reference", "[gpu]") {
  REQUIRE_GPU();
  const int gpus = gpus_or_skip();
  int c = 0;
  for (const selective_scan::DataType type : {selective_scan::DataType::float32, selective_scan::DataType::bfloat16})
    for (int ranks : {2, gpus}) {
      const ch08::Problem shape = sliced_shape(c);
      const ch08::Problem p = ch08::as_gpu_sees(ch08::make_official_test_problem(shape, unsigned(c)), type);
      INFO((type == selective_scan::DataType::float32 ? "fp32" : "bf16") << ", " << ranks << " ranks, case " << c);
      ++c;
      const std::vector<ch08::ForwardResult> sliced = ch11::run_sliced(p, type, ranks);
      const ch08::ForwardResult whole = ch08::reference_forward(p);
      std::vector<std::vector<double>> out;
      for (const ch08::ForwardResult& r : sliced) out.push_back(p.has_z ? r.out_z : r.out);
      const common::Tolerance tol = ch11::sliced_tolerance(type);
      CHECK_CLOSE("out", common::compare(ch11::joined(out, p.batch * p.dim), p.has_z ? whole.out_z : whole.out, tol));
      CHECK_CLOSE("last state",
                  common::compare(ch11::real_parts(sliced.back().last_state), ch11::real_parts(whole.last_state), tol));
    }
}

TEST_CASE("the sliced backward on several GPUs gives the whole sequence's fp64 gradients", "[gpu]") {
  REQUIRE_GPU();
  const int gpus = gpus_or_skip();
  int c = 0;
  for (const selective_scan::DataType type : {selective_scan::DataType::float32, selective_scan::DataType::bfloat16})
    for (int ranks : {2, gpus})
      for (bool with_dlast : {false, true}) {
        const ch08::Problem shape = sliced_shape(c);
        const ch08::Problem p = ch08::as_gpu_sees(ch08::make_official_test_problem(shape, unsigned(100 + c)), type);
        // dout and dlast: N(0, 1), dout in the input type, dlast in fp32 (as the GPU holds them).
        ch08::Problem draws = shape;
        draws.has_initial_state = true;
        const ch08::Problem drawn = ch08::make_official_test_problem(draws, unsigned(200 + c));
        const std::vector<double> dout = ch08::round_to(drawn.u, type);
        std::vector<ch08::Complex> dlast;
        if (with_dlast)
          for (const ch08::Complex& v : drawn.initial_state) dlast.emplace_back(double(float(v.real())), 0.0);
        INFO((type == selective_scan::DataType::float32 ? "fp32" : "bf16")
             << ", " << ranks << " ranks, case " << c << (with_dlast ? ", with dlast_state" : ""));
        ++c;
        const std::vector<ch11::SlicedRun> sliced = ch11::run_sliced_backward(p, type, ranks, dout, dlast);
        const ch08::Gradients whole = ch08::reference_backward(p, dout, dlast);
        const auto compare = [&](const std::vector<double>& got, const std::vector<double>& ref) {
          return common::compare(got, ref, ch11::sliced_gradient_tolerance(type, ref));
        };
        const auto per_step = [&](auto field, std::int64_t rows) {
          std::vector<std::vector<double>> pieces;
          for (const ch11::SlicedRun& r : sliced) pieces.push_back(field(r.gradients));
          return ch11::joined(pieces, rows);
        };
        const std::int64_t rows = p.batch * p.dim, projections = p.batch * p.groups * p.dstate;
        CHECK_CLOSE("du", compare(per_step([](const ch08::Gradients& g) { return g.du; }, rows), whole.du));
        CHECK_CLOSE("ddelta", compare(per_step([](const ch08::Gradients& g) { return g.ddelta; }, rows), whole.ddelta));
        if (p.has_z)
          CHECK_CLOSE("dz", compare(per_step([](const ch08::Gradients& g) { return g.dz; }, rows), whole.dz));
        CHECK_CLOSE("dB",
                    compare(per_step([](const ch08::Gradients& g) { return ch11::real_parts(g.dB); }, projections),
                            ch11::real_parts(whole.dB)));
        CHECK_CLOSE("dC",
                    compare(per_step([](const ch08::Gradients& g) { return ch11::real_parts(g.dC); }, projections),
                            ch11::real_parts(whole.dC)));
        // The weights' gradients are summed over the ranks: every rank holds the whole sequence's.
        for (const ch11::SlicedRun& r : sliced) {
          CHECK_CLOSE("dA", compare(ch11::real_parts(r.gradients.dA), ch11::real_parts(whole.dA)));
          if (p.has_D) CHECK_CLOSE("dD", compare(r.gradients.dD, whole.dD));
          if (p.has_delta_bias) CHECK_CLOSE("ddelta_bias", compare(r.gradients.ddelta_bias, whole.ddelta_bias));
        }
        if (p.has_initial_state)
          CHECK_CLOSE("dinitial_state", compare(ch11::real_parts(sliced.front().gradients.dinitial_state),
                                                ch11::real_parts(whole.dinitial_state)));
      }
}
