// The sliced scan on the GPUs of this machine through NCCL (sequence_parallel.hpp), one thread
// and one communicator a GPU, against chapter 08's fp64 reference on the whole sequence: 2 ranks
// and every GPU there is, slices of unequal length, fp32 and bf16, every option on and off.
#include "check_close.hpp"
#include "device_problem.hpp"
#include "gpu_test.hpp"
#include "multi_gpu.hpp"
#include "slices.hpp"

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <vector>

TEST_CASE("the sliced forward on several GPUs equals the whole sequence's fp64 reference", "[gpu]") {
  REQUIRE_GPU();
  const int gpus = ch11::usable_gpus();
  if (gpus < 2) {
    std::printf("SKIPPED: %d GPU(s); the sliced scan needs at least 2\n", gpus);
    std::fflush(stdout);
    std::_Exit(77);
  }
  int c = 0;
  for (const selective_scan::DataType type : {selective_scan::DataType::float32, selective_scan::DataType::bfloat16})
    for (int ranks : {2, gpus}) {
      ch08::Problem shape;
      shape.batch = 2, shape.dim = 24, shape.seqlen = 2 * 2048 + 37, shape.dstate = 16, shape.groups = 2;
      shape.has_D = c & 1, shape.has_z = c & 2, shape.has_delta_bias = shape.delta_softplus = c & 1;
      shape.has_initial_state = c & 2;
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
