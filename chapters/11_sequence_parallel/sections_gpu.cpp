// Chapter 11's GPU section: the sliced forward through NCCL on this machine's GPUs.
#include "multi_gpu.hpp"
#include "sections.hpp"
#include "slices.hpp"

#include "device_problem.hpp"

#include <fmt/format.h>

#include <vector>

namespace ch11 {

void section_gpus(common::Notebook& nb) {
  nb.section("The sliced forward on this machine's GPUs, through NCCL");
  nb.text(
      "Batch 2, 24 channels in 2 groups, 2 × 2048 + 37 steps, 16 states, every option; one thread and one NCCL "
      "communicator a GPU. Each rank runs sequence_parallel::forward on its slice; the ranks' outputs, put back in "
      "order, against the whole sequence's fp64 reference.");
  if (!nb.gpu()) return nb.gpu_skip("the multi-GPU forward");
  const int gpus = usable_gpus();
  if (gpus < 2) return nb.skip("the multi-GPU forward", fmt::format("{} GPU here; it needs at least 2", gpus));
  ch08::Problem shape;
  shape.batch = 2, shape.dim = 24, shape.seqlen = 2 * 2048 + 37, shape.dstate = 16, shape.groups = 2;
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = shape.has_initial_state = true;
  for (const selective_scan::DataType type : {selective_scan::DataType::float32, selective_scan::DataType::bfloat16}) {
    const ch08::Problem p = ch08::as_gpu_sees(ch08::make_official_test_problem(shape, 5), type);
    const ch08::ForwardResult whole = ch08::reference_forward(p);
    std::vector<std::vector<double>> out;
    for (const ch08::ForwardResult& r : run_sliced(p, type, gpus)) out.push_back(r.out_z);
    const common::Tolerance tol =
        type == selective_scan::DataType::float32 ? common::Tolerance{1e-4, 1e-3} : common::Tolerance{5e-2, 3e-2};
    nb.check(fmt::format("{} GPUs, {}: out_z", gpus, type == selective_scan::DataType::float32 ? "fp32" : "bf16"),
             common::compare(joined(out, p.batch * p.dim), whole.out_z, tol));
  }
}

}  // namespace ch11
