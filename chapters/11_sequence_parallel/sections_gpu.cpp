// Chapter 11's GPU sections: the sliced forward through NCCL on this machine's GPUs, exact and timed.
#include "multi_gpu.hpp"
#include "scaling.hpp"
#include "sections.hpp"
#include "slices.hpp"

#include "device_problem.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <exception>
#include <string>
#include <vector>

namespace ch11 {

void section_gpus(common::Notebook& nb) {
  nb.section("The sliced forward and backward on this machine's GPUs, through NCCL");
  nb.text(
      "Batch 2, 24 channels in 2 groups, 2 × 2048 + 37 steps, 16 states, every option; one thread and one NCCL "
      "communicator a GPU. Each rank runs sequence_parallel::forward on its slice, then sequence_parallel::backward "
      "with dout drawn from N(0, 1); the ranks' outputs and per-step gradients, put back in order, and the weights' "
      "gradients (summed over the ranks), against the whole sequence's fp64 reference.");
  if (!nb.gpu()) return nb.gpu_skip("the multi-GPU forward and backward");
  const int gpus = usable_gpus();
  if (gpus < 2)
    return nb.skip("the multi-GPU forward and backward", fmt::format("{} GPU here; it needs at least 2", gpus));
  ch08::Problem shape;
  shape.batch = 2, shape.dim = 24, shape.seqlen = 2 * 2048 + 37, shape.dstate = 16, shape.groups = 2;
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = shape.has_initial_state = true;
  for (const selective_scan::DataType type : {selective_scan::DataType::float32, selective_scan::DataType::bfloat16}) {
    const ch08::Problem p = ch08::as_gpu_sees(ch08::make_official_test_problem(shape, 5), type);
    const ch08::ForwardResult whole = ch08::reference_forward(p);
    std::vector<std::vector<double>> out;
    for (const ch08::ForwardResult& r : run_sliced(p, type, gpus)) out.push_back(r.out_z);
    const common::Tolerance tol = sliced_tolerance(type);
    const char* name = type == selective_scan::DataType::float32 ? "fp32" : "bf16";
    nb.check(fmt::format("{} GPUs, {}: out_z", gpus, name),
             common::compare(joined(out, p.batch * p.dim), whole.out_z, tol));

    const std::vector<double> dout = ch08::round_to(ch08::make_official_test_problem(shape, 6).u, type);
    const ch08::Gradients expected = ch08::reference_backward(p, dout);
    const std::vector<SlicedRun> runs = run_sliced_backward(p, type, gpus, dout, {});
    std::vector<std::vector<double>> du, ddelta;
    for (const SlicedRun& r : runs) du.push_back(r.gradients.du), ddelta.push_back(r.gradients.ddelta);
    const auto check_gradient = [&](const std::string& what, const std::vector<double>& got,
                                    const std::vector<double>& ref) {
      nb.check(fmt::format("{} GPUs, {}: {}", gpus, name, what),
               common::compare(got, ref, sliced_gradient_tolerance(type, ref)));
    };
    check_gradient("du", joined(du, p.batch * p.dim), expected.du);
    check_gradient("ddelta", joined(ddelta, p.batch * p.dim), expected.ddelta);
    check_gradient("dA (summed over the ranks)", real_parts(runs.front().gradients.dA), real_parts(expected.dA));
    check_gradient("dinitial_state (rank 0)", real_parts(runs.front().gradients.dinitial_state),
                   real_parts(expected.dinitial_state));
  }
}

// [snippet:scaling]
void section_scaling(common::Notebook& nb) {
  nb.section("One long sequence on 1, 2, 4 ... GPUs");
  const bool bench = nb.options().bench;
  nb.text(fmt::format(
      "Batch 1, 1536 channels, 16 states, bf16, softplus, D and the gate on; data made on the GPUs. 1 GPU: chapter "
      "08's forward (and backward) on the whole sequence; more: sequence_parallel::forward (and backward), every "
      "rank started together, the slowest rank's median of {} calls, the sequence cut evenly, and for the forward "
      "also with rank 0's slice twice the others' (split_for_forward: rank 0 scans once, the others twice). The "
      "all-gather is timed alone on the same summaries.",
      bench ? 10 : 5));
  if (!nb.gpu()) return nb.gpu_skip("the scaling");
  const int gpus = usable_gpus();
  std::vector<int> counts;
  for (int g = 1; g <= gpus; g *= 2) counts.push_back(g);
  std::vector<std::vector<std::string>> rows;
  common::Figure figure;
  figure.name = "scaling";
  figure.title = "The sliced forward against the GPUs (batch 1, 1536 channels, bf16)";
  figure.x_label = "GPUs";
  figure.y_label = "forward, ms";
  figure.log_y = true;
  // GPUs 1, 2, 4, 8 evenly apart; the key below in two columns (inside, it hid the points at 4
  // GPUs; on the right, it took half the plot's width), the axis label lifted clear of it.
  figure.height = 540;
  figure.settings = {"set logscale x 2", "set xtics (1, 2, 4, 8)", "set format x '%g'", "set key below maxrows 3",
                     "set xlabel offset 0,0.7"};
  const auto ms = [](double v) { return v > 0 ? fmt::format("{:.3f}", v) : std::string("does not fit"); };
  const auto times = [](double one, double v) { return one > 0 && v > 0 ? fmt::format("{:.2f}×", one / v) : "-"; };
  for (const std::int64_t L :
       bench ? std::vector<std::int64_t>{1 << 20, 1 << 22} : std::vector<std::int64_t>{1 << 16}) {
    double one = 0, one_both = 0;
    common::Series even{fmt::format("{} steps, even", L), {}, {}, "linespoints lw 2"};
    common::Series balanced{fmt::format("{} steps, rank 0 ×2", L), {}, {}, "linespoints lw 2"};
    common::Series ideal{fmt::format("{} steps, 1 GPU ÷ GPUs", L), {}, {}, "lines dt 2 lw 1"};
    for (const int ranks : counts) {
      ScalingShape shape;
      shape.seqlen = L;
      ScalingTime t, b;
      try {
        t = time_scaling(shape, ranks, bench ? 10 : 5);
        shape.balance_forward = true;
        if (ranks > 1) b = time_scaling(shape, ranks, bench ? 10 : 5);
      } catch (const std::exception& e) {
        rows.push_back(
            {fmt::format("{}", L), fmt::format("{}", ranks), "does not fit", "", "", "", "", "", "", e.what()});
        continue;
      }
      if (ranks == 1) one = t.forward_ms, one_both = t.forward_backward_ms;
      even.x.push_back(ranks), even.y.push_back(t.forward_ms);
      if (ranks > 1) balanced.x.push_back(ranks), balanced.y.push_back(b.forward_ms);
      if (one > 0) ideal.x.push_back(ranks), ideal.y.push_back(one / ranks);
      rows.push_back({fmt::format("{}", L), fmt::format("{}", ranks), ms(t.forward_ms), times(one, t.forward_ms),
                      ranks > 1 ? ms(b.forward_ms) : "-", ranks > 1 ? times(one, b.forward_ms) : "-",
                      ms(t.forward_backward_ms), times(one_both, t.forward_backward_ms),
                      ranks > 1 ? fmt::format("{:.3f} ({:.1f}%)", t.gather_ms, 100 * t.gather_ms / t.forward_ms) : "-",
                      fmt::format("{:.1f}", t.gpu_bytes / 1e9)});
    }
    for (const common::Series* series : {&even, &balanced, &ideal})
      if (!series->x.empty()) figure.series.push_back(*series);
  }
  nb.table({"L", "GPUs", "fwd ms, even", "speedup", "fwd ms, rank 0 ×2", "speedup", "f+b ms, even", "speedup",
            "all-gather ms (share)", "GB a GPU"},
           rows);
  if (!figure.series.empty()) nb.figure(figure);
}
// [/snippet:scaling]

}  // namespace ch11
