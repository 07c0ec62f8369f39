// Chapter 09's last section: the same model with Mamba-2's block, its SSD in chapter 10's library,
// checked against the fp64 reference, trained as the selective model is, and set beside it.
#include "sections.hpp"

#include "device_ssd.hpp"
#include "gpu_model.hpp"
#include "model_config.hpp"
#include "ssd.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

namespace ch09 {
namespace {

// The versions of chapter 10's library that run the layer's SSD here (asked of a call with no
// memory behind it: kernel_of reads no tensor): fp32, forward as automatic chooses, backward
// deterministic.
std::string ssd_versions(const Mamba2Sizes& m) {
  const ch10::Shape shape{1, 64, m.heads(), m.head_dim, 1, m.d_state};
  const ssd::ForwardParams f = ch10::sizes_only(shape, ssd::DataType::float32, ssd::Kernel::automatic);
  ssd::BackwardParams b = ch10::sizes_only_backward(shape, ssd::DataType::float32, ssd::Kernel::automatic);
  b.deterministic = true;
  const auto version = [](ssd::Kernel k) { return fmt::format("version {} ({})", int(k), ssd::name_of(k)); };
  return fmt::format("forward {}, backward {}", version(ssd::kernel_of(f)), version(ssd::kernel_of(b)));
}

}  // namespace

void section_mamba2(common::Notebook& nb, const ProgramOptions& o, const Trained& trained) {
  nb.section("Mamba-2: the same model with chapter 10's SSD");
  const ModelConfig c = gpu_model_config(SsmKind::mamba2);
  const Mamba2Sizes m = c.mamba2();
  const ReferenceTolerances tol = reference_tolerances(SsmKind::mamba2);
  nb.text(fmt::format(
      "Each layer's block becomes Mamba-2's (mamba2_block.hpp): in_proj gives z, x, B, C and a step a head;\n"
      "one convolution runs over x, B and C; the SSD has one A a head ({} heads of {} channels, N {}) and\n"
      "runs in chapter 10's library (fp32: {});\n"
      "the gate comes before a norm over the {} channels. The same task, optimizer, steps and seeds as the\n"
      "selective model's. Against fp64, ten times the selective model's tolerances (version 3 multiplies\n"
      "fp32 as bf16 pairs): "
      "logits atol {} + rtol {}·|ref|, every gradient block atol {} + rtol {}·|ref|.",
      m.heads(), m.head_dim, m.d_state, ssd_versions(m), m.d_inner, tol.logits.atol, tol.logits.rtol, tol.gradient.atol,
      tol.gradient.rtol));
  if (!nb.gpu()) return nb.gpu_skip("the Mamba-2 model on the GPU");
  check_gpu_against_reference(nb, SsmKind::mamba2);
  if (!o.load_dir.empty()) return nb.text("Loaded from " + o.load_dir + " (--load): the Mamba-2 model is not trained.");

  const int held_out_sequences = 1024;
  std::vector<TrainedModel> runs;
  for (unsigned seed : o.seeds) runs.push_back(train_gpu_model(nb, o, SsmKind::mamba2, seed, held_out_sequences));
  std::vector<std::vector<std::string>> rows;
  std::vector<const TrainedModel*> shown;
  for (const TrainedModel& run : trained.runs)
    if (run.config.kind == SsmKind::selective && !run.history.empty()) shown.push_back(&run);
  for (const TrainedModel& run : runs) shown.push_back(&run);
  for (const TrainedModel* run : shown)
    rows.push_back({to_string(run->config.kind), std::to_string(run->seed),
                    std::to_string(parameter_layout(run->config).total), fmt::format("{:.1f}", run->seconds),
                    fmt::format("{:.2f}", 1e3 * run->seconds / double(o.steps)),
                    fmt::format("{:.4f}", run->held_out.loss), percent(run->held_out.accuracy.fraction()),
                    percent(run->held_out.whole_sequences.fraction())});
  nb.table(
      {"model", "seed", "parameters", "train s", "ms a step", "held-out loss", "held-out accuracy", "copied whole"},
      rows);

  common::Figure accuracy{"mamba2_accuracy",
                          "Token accuracy at the copy positions, training batches: Mamba-2 and the selective model",
                          "step",
                          "accuracy (%)",
                          false,
                          false,
                          {},
                          {"set key inside bottom right", "set yrange [0:100]"}};
  for (const TrainedModel* run : shown) {
    common::Series a{fmt::format("{}, seed {}", to_string(run->config.kind), run->seed), {}, {}, "lines lw 2"};
    for (const TrainingPoint& p : run->history) {
      a.x.push_back(p.step);
      a.y.push_back(100.0 * p.accuracy);
    }
    accuracy.series.push_back(a);
  }
  nb.figure(accuracy);
}

}  // namespace ch09
