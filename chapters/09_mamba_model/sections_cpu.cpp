// The sections of chapter 09 that run on the CPU: the task, the two models, the fp64 reference
// against finite differences, inference as a recurrence, and training a tiny model without a GPU.
#include "sections.hpp"

#include "check_problems.hpp"
#include "cpu_training.hpp"
#include "recurrent_inference.hpp"
#include "reference_model.hpp"
#include "selective_copying.hpp"
#include "weights_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <future>
#include <random>
#include <string>

namespace ch09 {
namespace {

using common::Figure;
using common::Notebook;
using common::Series;
using common::Tolerance;

// A sequence in characters: '.' noise, '|' a marker, 'a', 'b', ... the data symbols.
std::string show(const std::vector<int>& tokens, std::size_t begin, std::size_t end) {
  std::string s;
  for (std::size_t i = begin; i < end; ++i)
    s += tokens[i] == kNoiseToken ? '.' : tokens[i] == kMarkerToken ? '|' : char('a' + tokens[i] - kFirstDataToken);
  return s;
}

}  // namespace

// ---- the task ----------------------------------------------------------------------------------
void section_task(Notebook& nb, const ProgramOptions& o) {
  nb.section("The task: selective copying");
  std::mt19937_64 rng(nb.options().seed);
  const int body = 48, n_data = 6;
  const Batch b = make_selective_copying(1, body, n_data, 16, rng);
  std::string targets;
  for (int t = body; t < body + n_data; ++t) targets += char('a' + b.targets[t] - kFirstDataToken);
  nb.text(fmt::format(
      "A short example (body {}, {} data tokens; '.' noise, '|' the marker, letters the data):\n"
      "  input   {}{}\n"
      "  target  {}{}",
      body, n_data, show(b.tokens, 0, body), show(b.tokens, body, body + n_data), std::string(body, ' '), targets));
  nb.text(
      "The data tokens sit at random positions: to copy them the model has to notice each one as it\n"
      "passes, keep it through the noise that follows, and give them back in order at the markers.");
  nb.table({"setting", "Mamba paper (§4.1.1, App. E.1)", "this chapter (GPU)"},
           {{"body length", "4096", std::to_string(o.body_length)},
            {"data tokens", "16", std::to_string(o.data_tokens)},
            {"vocabulary", "16", "16 (noise, marker, 14 data symbols)"},
            {"layers, width D", "2, 64", "2, 64"},
            {"state size N", "16", "16"},
            {"training", "400K steps, batch 64, lr 1e-4",
             fmt::format("{} steps, batch {}, lr {} (cosine)", o.steps, o.batch, o.lr)}});
}

// ---- the two models ----------------------------------------------------------------------------
void section_models(Notebook& nb) {
  nb.section("The Mamba block and its LTI twin");
  const ModelConfig sel = gpu_model_config(SsmKind::selective), lti = gpu_model_config(SsmKind::lti);
  const int D = sel.d_model, E = sel.d_inner(), N = sel.d_state, R = sel.dt_rank, W = sel.conv_width;
  auto row = [](std::string name, std::string shape, long selective, long lti_count) {
    return std::vector<std::string>{std::move(name), std::move(shape), selective ? std::to_string(selective) : "-",
                                    lti_count ? std::to_string(lti_count) : "-"};
  };
  std::vector<std::vector<std::string>> rows{
      row("embedding (= LM head)", fmt::format("({}, {})", sel.vocab, D), sel.vocab * D, lti.vocab * D),
      row("per layer: RMSNorm weight", fmt::format("({})", D), D, D),
      row("  in_proj (x and z)", fmt::format("({}, {})", 2 * E, D), 2 * E * D, 2 * E * D),
      row("  conv1d taps + bias", fmt::format("({}, {}) + ({})", E, W, E), E * W + E, E * W + E),
      row("  x_proj (Δ low rank, B, C)", fmt::format("({}, {})", R + 2 * N, E), (R + 2 * N) * E, 0),
      row("  dt_proj", fmt::format("({}, {})", E, R), E * R, 0),
      row("  dt_bias", fmt::format("({})", E), E, E),
      row("  A_log, D", fmt::format("({}, {}) + ({})", E, N, E), E * N + E, E * N + E),
      row("  B, C (constant)", fmt::format("2 × ({}, {})", E, N), 0, 2 * E * N),
      row("  out_proj", fmt::format("({}, {})", D, E), D * E, D * E),
      row("final RMSNorm weight", fmt::format("({})", D), D, D),
      row("total (flat array, padded to 16 bytes a block)", "", long(parameter_layout(sel).total),
          long(parameter_layout(lti).total))};
  nb.table({"parameters", "shape", "selective", "LTI"}, rows);
  nb.text(
      "Same network, same sizes: only where Δ, B and C come from differs. The selective model\n"
      "computes them at every step from the token's features (x_proj, dt_proj); the LTI model learns\n"
      "one Δ (dt_bias), one B and one C per channel and uses them at every step.");
}

// ---- the reference against finite differences ------------------------------------------------
void section_finite_differences(Notebook& nb) {
  nb.section("The fp64 reference of the whole model against finite differences");
  // A central difference (L(p+h) − L(p−h)) / 2h in fp64: truncation ~h² times a third
  // derivative, rounding ~1e-16·|L| / h; with h = 1e-5 both stay far below the tolerance.
  const double h = 1e-5;
  const Tolerance tol{1e-8, 1e-6};
  std::vector<std::vector<std::string>> rows;
  for (SsmKind kind : {SsmKind::selective, SsmKind::lti}) {
    const ModelConfig c = tiny_config(kind);
    std::vector<double> p = tiny_parameters(c, unsigned(nb.options().seed));
    const Batch b = random_batch(c.vocab, 2, 9, unsigned(nb.options().seed) + 1);
    const std::vector<double> gradient = model_backward(c, p, b, model_forward(c, p, b));
    std::vector<double> analytic, numeric;
    for (const ParameterBlock& block : parameter_blocks(c))
      for (std::size_t i : {std::size_t(0), block.count / 2, block.count - 1}) {
        double& v = p[block.offset + i];
        const double saved = v;
        v = saved + h;
        const double up = model_forward(c, p, b).loss;
        v = saved - h;
        const double down = model_forward(c, p, b).loss;
        v = saved;
        analytic.push_back(gradient[block.offset + i]);
        numeric.push_back((up - down) / (2 * h));
        if (kind == SsmKind::selective && i == 0)
          rows.push_back(
              {block.name, fmt::format("{:+.10f}", analytic.back()), fmt::format("{:+.10f}", numeric.back())});
      }
    if (kind == SsmKind::selective) {
      nb.text(
          fmt::format("A tiny model ({}), two random sequences of 9 tokens; the first element of each\n"
                      "parameter block of the selective model:",
                      to_string(c)));
      nb.table({"block", "backward", "central difference"}, rows);
    }
    nb.check(
        fmt::format("{} model: every block's gradient (first, middle and last element) against central differences",
                    to_string(kind)),
        common::compare(analytic, numeric, tol));
  }
}

// ---- inference as a recurrence -----------------------------------------------------------------
void section_recurrence(Notebook& nb) {
  nb.section("Inference is a recurrence: one token at a time, the same logits");
  for (SsmKind kind : {SsmKind::selective, SsmKind::lti}) {
    const ModelConfig c = tiny_config(kind);
    const std::vector<double> p = tiny_parameters(c, unsigned(nb.options().seed) + 2);
    Batch b = random_batch(c.vocab, 1, 41, unsigned(nb.options().seed) + 3);
    const ModelForward parallel = model_forward(c, p, b);
    nb.check(fmt::format("{} model: recurrent_step token by token gives the parallel forward's logits (41 tokens)",
                         to_string(kind)),
             common::compare(recurrent_logits(c, p, b.tokens), parallel.logits, {1e-12, 1e-10}));
  }
  const ModelConfig c = tiny_config(SsmKind::selective);
  nb.text(
      fmt::format("What the recurrence keeps per sequence: per layer, the convolution's last {} inputs and the\n"
                  "scan's state, {} numbers in all for this tiny model ({} layers × {} channels × ({} + {})),\n"
                  "however long the sequence.",
                  c.conv_width - 1, recurrent_state_size(c), c.layers, c.d_inner(), c.conv_width - 1, c.d_state));
}

// ---- training on the CPU -----------------------------------------------------------------------
namespace {

// The default run trains the tiny models on batches of 4 sequences, so that it takes seconds on a
// laptop; --bench on tiny_cpu_training's 8. Both models train at once, one thread each. Measured
// (seeds 1, 2, 3, selective against LTI held-out accuracy): batches of 4, 88.2/50.3%, 84.4/40.9%,
// 87.1/41.7%; of 8, 94.7/53.2%, 99.5/57.4%, 98.8/68.0%. Fewer steps of 8 learned less: 1000 steps
// gave 84.1/31.9%, 60.9/43.0%, 69.1/46.0%.
constexpr int kQuickCpuBatch = 4;

std::vector<TrainedModel> train_tiny_models(Notebook& nb, Figure& f, std::vector<std::vector<std::string>>& rows) {
  std::vector<CpuTrainingSettings> settings;
  std::vector<std::future<CpuTrainingResult>> results;
  for (SsmKind kind : {SsmKind::selective, SsmKind::lti}) {
    CpuTrainingSettings s = tiny_cpu_training(kind);
    s.seed = unsigned(nb.options().seed);
    if (!nb.options().bench) s.batch = kQuickCpuBatch;
    settings.push_back(s);
    results.push_back(std::async(std::launch::async, [s] { return train_on_cpu(s); }));
  }
  const CpuTrainingSettings& s = settings.front();
  nb.text(
      fmt::format("Both kinds: d_model {}, {} layers, N {}; body {} with {} data tokens, batch {}{}, {} steps,\n"
                  "AdamW lr {} (cosine), no weight decay; the scan in plain fp64 (real_scan.cpp, checked against\n"
                  "chapter 08's reference by the tests). Held-out accuracy on {} sequences of another stream.",
                  s.model.d_model, s.model.layers, s.model.d_state, s.body_length, s.n_data, s.batch,
                  nb.options().bench ? "" : fmt::format(" (--bench: {})", tiny_cpu_training(SsmKind::selective).batch),
                  s.steps, s.optimizer.lr, s.eval_sequences));
  std::vector<TrainedModel> trained;
  for (std::size_t k = 0; k < settings.size(); ++k) {
    const CpuTrainingSettings& run_settings = settings[k];
    const CpuTrainingResult r = results[k].get();
    TrainedModel run{run_settings.model, run_settings.seed, {}, to_float(r.parameters), r.curve, r.seconds, {}};
    run.held_out.loss = r.eval_loss;
    run.held_out.accuracy = r.eval_accuracy;
    save_weights(weights_path(nb.out_dir(), run.config.kind, TrainedOn::cpu), run.config, run.parameters);
    const std::string kind = to_string(run.config.kind);
    rows.push_back({kind, std::to_string(parameter_layout(run.config).total), fmt::format("{:.1f}", r.seconds),
                    fmt::format("{:.4f}", r.eval_loss), fmt::format("{:.1f}%", 100 * r.eval_accuracy.fraction())});
    Series series{kind + " model", {}, {}, "lines lw 2"};
    for (std::size_t i = 49; i < r.curve.size(); i += 50) {
      double sum = 0;
      for (std::size_t j = i - 49; j <= i; ++j) sum += r.curve[j].accuracy;
      series.x.push_back(r.curve[i].step);
      series.y.push_back(100 * sum / 50);
    }
    f.series.push_back(series);
    trained.push_back(std::move(run));
  }
  return trained;
}

std::vector<TrainedModel> evaluate_loaded_models(Notebook& nb, const ProgramOptions& o,
                                                 std::vector<std::vector<std::string>>& rows) {
  std::vector<TrainedModel> loaded;
  for (const Weights& w : o.loaded.cpu) {
    const CpuTrainingSettings s = tiny_cpu_training(w.config.kind);
    TrainedModel run{w.config, unsigned(nb.options().seed), {}, w.parameters, {}, 0, {}};
    run.held_out = evaluate(w.config, to_double(w.parameters), s.body_length, s.n_data, s.eval_sequences, run.seed);
    rows.push_back({to_string(w.config.kind), std::to_string(w.parameters.size()), "loaded",
                    fmt::format("{:.4f}", run.held_out.loss),
                    fmt::format("{:.1f}%", 100 * run.held_out.accuracy.fraction())});
    loaded.push_back(std::move(run));
  }
  const CpuTrainingSettings s = tiny_cpu_training(SsmKind::selective);
  nb.text(
      fmt::format("Loaded from {} (--load): cpu_selective.weights and cpu_lti.weights, no training. The fp64\n"
                  "reference runs them on {} held-out sequences (body {}, {} data tokens) of seed {}'s other stream.",
                  o.load_dir, s.eval_sequences, s.body_length, s.n_data, nb.options().seed));
  return loaded;
}

}  // namespace

void section_cpu_training(Notebook& nb, const ProgramOptions& o, Trained& trained) {
  nb.section("Training without a GPU: a tiny model on the fp64 reference");
  std::vector<std::vector<std::string>> rows;
  Figure f{"cpu_training_accuracy",
           "Tiny models on the CPU: token accuracy of the training batches (mean of 50 steps)",
           "step",
           "accuracy (%)",
           false,
           false,
           {},
           {"set key inside bottom right", "set yrange [0:100]"}};
  const bool load = !o.loaded.cpu.empty();
  trained.cpu = load ? evaluate_loaded_models(nb, o, rows) : train_tiny_models(nb, f, rows);
  nb.table({"model", "parameters", "seconds", "held-out loss", "held-out accuracy"}, rows);
  if (!load) nb.figure(f);
  const double selective = trained.cpu[0].held_out.accuracy.fraction(),
               lti = trained.cpu[1].held_out.accuracy.fraction();
  nb.check(
      fmt::format("{}at this scale too the selective model copies far better than the LTI one (by 25 points or more)",
                  load ? "the loaded models: " : ""),
      selective >= lti + 0.25, fmt::format("selective {:.1f}%, LTI {:.1f}%", 100 * selective, 100 * lti));
  if (!load)
    nb.text(
        "Both trained models are saved in the output directory (cpu_selective.weights, cpu_lti.weights):\n"
        "`--load DIR` evaluates them again without training.");
}

// ---- a curriculum, at small scale -------------------------------------------------------------
void section_curriculum(Notebook& nb) {
  nb.section("Finding the transition sooner: a curriculum, at small scale (CPU)");
  if (!nb.options().bench) {
    nb.text("Runs with --bench: ten tiny training runs on the CPU, in parallel (about a minute on 16 cores).");
    return;
  }
  // The tiny model of the CPU training section at a body of 32, where its transition becomes a
  // matter of luck: five seeds without a curriculum and five with bodies growing from 8.
  const int seeds = 5, body = 32, from = 8;
  struct Run {
    int curriculum_from;
    unsigned seed;
    std::future<CpuTrainingResult> result;
  };
  std::vector<Run> runs;
  for (int with : {0, from})
    for (unsigned seed = 1; seed <= unsigned(seeds); ++seed) {
      CpuTrainingSettings s = tiny_cpu_training(SsmKind::selective);
      s.body_length = body;
      s.curriculum_from = with;
      s.seed = seed;
      runs.push_back({with, seed, std::async(std::launch::async, [s] { return train_on_cpu(s); })});
    }
  std::vector<std::vector<std::string>> rows;
  int learned[2] = {0, 0};
  for (Run& run : runs) {
    const CpuTrainingResult r = run.result.get();
    const double accuracy = r.eval_accuracy.fraction();
    if (accuracy >= 0.95) ++learned[run.curriculum_from > 0 ? 1 : 0];
    rows.push_back({run.curriculum_from > 0 ? fmt::format("bodies {} -> {}", run.curriculum_from, body) : "none",
                    std::to_string(run.seed), fmt::format("{:.1f}%", 100 * accuracy)});
  }
  nb.text(fmt::format(
      "The selective model of section [5] at a body of {} ({} data tokens, {} steps), five seeds\n"
      "without a curriculum and five with training bodies growing from {} over the first half.",
      body, tiny_cpu_training(SsmKind::selective).n_data, tiny_cpu_training(SsmKind::selective).steps, from));
  nb.table({"curriculum", "seed", "held-out accuracy"}, rows);
  nb.check("the curriculum makes more seeds learn the task (95% or more) than training on full bodies",
           learned[1] > learned[0],
           fmt::format("{} of {} with it, {} of {} without", learned[1], seeds, learned[0], seeds));
}

}  // namespace ch09
