// The training sections of chapter 09: both models trained on the GPU, then looked inside.
#include "sections.hpp"

#include "gpu.hpp"
#include "gpu_model.hpp"
#include "gpu_training.hpp"
#include "progress_line.hpp"
#include "selective_copying.hpp"
#include "weights_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>

namespace ch09 {

std::string percent(double fraction) { return fmt::format("{:.1f}%", 100.0 * fraction); }

namespace {

using common::Figure;
using common::Notebook;
using common::Series;

// Per channel of one layer, on one sequence: the mean of Δ on data tokens over its mean on noise.
// delta is (1, d_inner, L) as the model computed it; only the body (no markers) is counted.
std::vector<double> data_over_noise(const std::vector<float>& delta, int d_inner, int seqlen, const Batch& b,
                                    int body_length) {
  std::vector<double> ratio(std::size_t(d_inner), 0.0);
  for (int c = 0; c < d_inner; ++c) {
    double on_data = 0, on_noise = 0;
    int data = 0, noise = 0;
    for (int t = 0; t < body_length; ++t) {
      const double v = delta[std::size_t(c) * seqlen + t];
      if (b.tokens[t] == kNoiseToken)
        on_noise += v, ++noise;
      else
        on_data += v, ++data;
    }
    ratio[c] = (on_data / data) / (on_noise / noise);
  }
  return ratio;
}

// A channel "selects" when its step on data tokens is at least twice, or at most half, its step
// on noise: its Δ depends on what the token is. An LTI channel's ratio is 1 by construction.
constexpr double kSelectiveFactor = 2.0;

}  // namespace

void finish_options(ProgramOptions& o, const common::CommonOptions& common) {
  o.seeds = {unsigned(common.seed)};
  if (common.bench) o.seeds.push_back(unsigned(common.seed) + 1);
}

AdamWSettings ProgramOptions::optimizer() const {
  AdamWSettings a;
  a.lr = lr;
  a.weight_decay = weight_decay;
  a.warmup_steps = std::min(200, steps / 10);
  return a;
}

ModelConfig gpu_model_config(SsmKind kind) {
  ModelConfig c;  // vocab 16, d_model 64, 2 layers, N = 16, expand 2, conv 4, dt_rank 4
  c.kind = kind;
  return c;
}

const TrainedModel* Trained::find(SsmKind kind) const {
  for (const TrainedModel& run : runs)
    if (run.config.kind == kind) return &run;
  return nullptr;
}

void check_gpu_memory(Notebook& nb, const ProgramOptions& o) {
  if (!nb.gpu()) return;
  std::vector<ModelConfig> configs;
  for (const Weights& w : o.loaded.gpu) configs.push_back(w.config);
  if (configs.empty())
    configs = {gpu_model_config(SsmKind::selective), gpu_model_config(SsmKind::lti),
               gpu_model_config(SsmKind::mamba2)};  // the last section trains a Mamba-2 model too
  const int seqlen = o.task().seqlen();
  double training = 0, generating = 0, longest = 0;
  for (const ModelConfig& c : configs) {
    training = std::max(training, GpuModel::device_bytes(c, o.batch, seqlen));
    // Generation keeps its model and the timed one of 64 sequences at once.
    generating = std::max(
        generating, GpuModel::device_bytes(c, std::max(8, o.batch), seqlen) + GpuModel::device_bytes(c, 64, seqlen));
    for (int factor : {1, 2, 4, 16})  // as section_generalization sizes them
      longest = std::max(longest, GpuModel::device_bytes(c, std::max(1, std::min(o.batch, 64 / factor)),
                                                         o.body_length * factor + o.data_tokens));
  }
  common::require_device_memory(std::size_t(training), "training: --batch × (--body-length + --data-tokens)");
  common::require_device_memory(std::size_t(generating), "generation: --batch × (--body-length + --data-tokens)");
  common::require_device_memory(std::size_t(longest), "lengths 2-16 times the training's: --body-length");
}

// ---- training ----------------------------------------------------------------------------------
TrainedModel train_gpu_model(Notebook& nb, const ProgramOptions& o, SsmKind kind, unsigned seed,
                             int held_out_sequences) {
  const TaskShape task = o.task();
  TrainedModel run{gpu_model_config(kind), seed, {}, {}, {}, 0, {}};
  run.initial = initial_parameters(run.config, seed);
  GpuModel model(run.config, o.batch, task.seqlen());
  model.load_parameters(run.initial);
  GpuTrainingSettings settings;
  settings.task = task;
  settings.steps = o.steps;
  settings.batch = o.batch;
  settings.seed = seed;
  settings.curriculum_from = o.curriculum_from;
  settings.optimizer = o.optimizer();
  ProgressLine progress(nb.options().quiet, fmt::format("{} seed {}", to_string(kind), seed));
  const auto start = std::chrono::steady_clock::now();
  run.history = train_on_gpu(model, settings, [&](const TrainingPoint& p) { progress(p, o.steps); });
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.parameters = model.download_parameters();
  run.held_out = evaluate_on_gpu(model, task, held_out_sequences, seed);
  // The first seed's models are the ones the later sections use, and the ones --load reads.
  if (seed == o.seeds.front())
    save_weights(weights_path(nb.out_dir(), kind, TrainedOn::gpu), run.config, run.parameters);
  if (seed != o.seeds.front()) run.initial.clear();
  return run;
}

void section_gpu_training(Notebook& nb, const ProgramOptions& o, Trained& trained) {
  nb.section("Training on the GPU: the selective model against the LTI model");
  if (!nb.gpu()) return nb.gpu_skip("the training runs (the CPU's tiny run above stands in for them)");
  const TaskShape task = o.task();
  const int held_out_sequences = 1024;
  if (!o.load_dir.empty()) {
    for (const Weights& w : o.loaded.gpu) {  // read and checked with the options
      TrainedModel run{w.config, unsigned(nb.options().seed), {}, w.parameters, {}, 0, {}};
      GpuModel model(run.config, o.batch, task.seqlen());
      model.load_parameters(run.parameters);
      run.held_out = evaluate_on_gpu(model, task, held_out_sequences, run.seed);
      trained.runs.push_back(std::move(run));
    }
    nb.text("Loaded from " + o.load_dir + " (--load): no training in this run.");
  } else {
    const AdamWSettings a = o.optimizer();
    nb.text(
        fmt::format("Both models: {} steps of {} sequences of {} tokens (body {} + {} markers). AdamW: peak learning\n"
                    "rate {} (linear warm-up over {} steps, then a cosine decay to a tenth), betas ({}, {}), weight\n"
                    "decay {} on the matrices, the gradient's norm clipped at {}. A fresh batch every step; held-out\n"
                    "accuracy on {} sequences of another random stream.",
                    o.steps, o.batch, task.seqlen(), task.body_length, task.data_tokens, a.lr, a.warmup_steps, a.beta1,
                    a.beta2, a.weight_decay, a.clip_norm, held_out_sequences));
    if (o.curriculum_from > 0)
      nb.text(fmt::format(
          "A curriculum: the training bodies grow from {} to {} positions over the first half of the steps.",
          o.curriculum_from, task.body_length));
    for (unsigned seed : o.seeds)
      for (SsmKind kind : {SsmKind::selective, SsmKind::lti})
        trained.runs.push_back(train_gpu_model(nb, o, kind, seed, held_out_sequences));
  }
  std::vector<std::vector<std::string>> rows;
  for (const TrainedModel& run : trained.runs)
    rows.push_back({to_string(run.config.kind), std::to_string(run.seed),
                    std::to_string(parameter_layout(run.config).total),
                    run.history.empty() ? "loaded" : fmt::format("{:.1f}", run.seconds),
                    run.history.empty() ? "" : fmt::format("{:.0f}", run.history.back().tokens_per_second),
                    run.history.empty() ? "" : fmt::format("{:.4f}", run.history.back().loss),
                    fmt::format("{:.4f}", run.held_out.loss), percent(run.held_out.accuracy.fraction()),
                    percent(run.held_out.whole_sequences.fraction())});
  nb.table({"model", "seed", "parameters", "train s", "tokens/s", "last loss", "held-out loss", "held-out accuracy",
            "copied whole"},
           rows);
  nb.text("Held-out accuracy counts tokens; copied whole counts the sequences whose 16 tokens are all right.");
  if (!trained.runs.front().history.empty()) {
    Figure loss{"training_loss",
                "Training loss (cross-entropy at the copy positions)",
                "step",
                "loss",
                false,
                true,
                {},
                {"set key inside bottom left"}};
    Figure accuracy{"training_accuracy",
                    "Token accuracy at the copy positions, training batches",
                    "step",
                    "accuracy (%)",
                    false,
                    false,
                    {},
                    {"set key inside bottom right", "set yrange [0:100]"}};
    for (const TrainedModel& run : trained.runs) {
      const std::string title = fmt::format("{}, seed {}", to_string(run.config.kind), run.seed);
      Series l{title, {}, {}, "lines lw 2"}, a{title, {}, {}, "lines lw 2"};
      for (const TrainingPoint& p : run.history) {
        l.x.push_back(p.step);
        l.y.push_back(p.loss);
        a.x.push_back(p.step);
        a.y.push_back(100.0 * p.accuracy);
      }
      loss.series.push_back(l);
      accuracy.series.push_back(a);
    }
    nb.figure(loss, false);
    nb.figure(accuracy);
  }
  for (unsigned seed : o.seeds) {
    const TrainedModel* selective = nullptr;
    const TrainedModel* lti = nullptr;
    for (const TrainedModel& run : trained.runs)
      if (run.seed == seed) (run.config.kind == SsmKind::selective ? selective : lti) = &run;
    if (!selective || !lti) continue;
    const double s = selective->held_out.accuracy.fraction(), l = lti->held_out.accuracy.fraction();
    const double s_whole = selective->held_out.whole_sequences.fraction(),
                 l_whole = lti->held_out.whole_sequences.fraction();
    nb.check(fmt::format("seed {}: the selective model copies at least 95% of held-out tokens", seed), s >= 0.95,
             fmt::format("{} (LTI {})", percent(s), percent(l)));
    nb.check(fmt::format("seed {}: the LTI model copies at most a tenth as many held-out sequences whole", seed),
             l_whole <= 0.1 * s_whole, fmt::format("LTI {}, selective {}", percent(l_whole), percent(s_whole)));
  }
}

// ---- what Δ does on a held-out sequence --------------------------------------------------------
void section_selection(Notebook& nb, const ProgramOptions& o, const Trained& trained) {
  nb.section("What the selective model selects: its step size Δ along one held-out sequence");
  if (trained.runs.empty()) return nb.gpu_skip("the step sizes of the trained model");
  const TaskShape task = o.task();
  std::mt19937_64 rng(nb.options().seed + 1000);
  const Batch b = make_selective_copying(1, task.body_length, task.data_tokens, 16, rng);
  struct Layer {
    std::vector<float> delta;   // (d_inner, L)
    std::vector<double> ratio;  // per channel: mean Δ on data / mean Δ on noise
  };
  std::vector<std::vector<Layer>> layers;  // [kind][layer], selective first
  const SsmKind kinds[] = {SsmKind::selective, SsmKind::lti};
  for (SsmKind kind : kinds) {
    const TrainedModel* run = trained.find(kind);
    GpuModel model(run->config, 1, task.seqlen());
    model.load_parameters(run->parameters);
    model.forward(b.tokens, b.targets, 1, task.seqlen());
    std::vector<Layer>& per_layer = layers.emplace_back();
    for (int l = 0; l < run->config.layers; ++l) {
      Layer& layer = per_layer.emplace_back();
      layer.delta = model.download_delta(l);
      layer.ratio = data_over_noise(layer.delta, run->config.d_inner(), task.seqlen(), b, task.body_length);
    }
  }
  std::vector<std::vector<std::string>> rows;
  int best_layer = 0, most_selecting = -1;
  for (int k = 0; k < 2; ++k)
    for (int l = 0; l < int(layers[k].size()); ++l) {
      std::vector<double> r = layers[k][l].ratio;
      const int up = int(std::count_if(r.begin(), r.end(), [](double x) { return x >= kSelectiveFactor; }));
      const int down = int(std::count_if(r.begin(), r.end(), [](double x) { return x <= 1.0 / kSelectiveFactor; }));
      if (k == 0 && up + down > most_selecting) most_selecting = up + down, best_layer = l;
      std::sort(r.begin(), r.end());
      rows.push_back({to_string(kinds[k]), std::to_string(l + 1), std::to_string(up), std::to_string(down),
                      fmt::format("{:.2f}", r[r.size() / 2]), fmt::format("{:.3g} .. {:.3g}", r.front(), r.back())});
    }
  const int channels = int(layers[0][0].ratio.size());
  nb.table({"model", "layer", "channels: Δ on data ≥ 2× on noise", "≤ ½×", "median ratio", "range"}, rows);
  nb.text(fmt::format(
      "Per channel, the mean of Δ on the {} data tokens over its mean on the noise of the body ({} channels\n"
      "a layer). The LTI model has one Δ per channel, whatever the token: its ratio is 1 by construction.",
      task.data_tokens, channels));
  // The figure: the selective model's most content-dependent channel in its most selective layer.
  const std::vector<double>& ratio = layers[0][best_layer].ratio;
  const int channel = int(std::max_element(ratio.begin(), ratio.end()) - ratio.begin());
  // A short title (the SVG does not wrap it); the key goes in a band above the curves.
  Figure f{"selection_delta",
           fmt::format("Δ along a held-out sequence: layer {}, channel {}", best_layer + 1, channel),
           "position t",
           "Δ",
           false,
           true,
           {},
           {"set key inside top right", "set offsets 0, 0, graph 0.3, 0"}};
  auto channel_series = [&](int k, const std::string& title) {
    Series s{title, {}, {}, "lines lw 2"};
    for (int t = 0; t < task.seqlen(); ++t) {
      s.x.push_back(t);
      s.y.push_back(layers[k][best_layer].delta[std::size_t(channel) * task.seqlen() + t]);
    }
    return s;
  };
  f.series.push_back(channel_series(0, "selective model"));
  f.series.push_back(channel_series(1, "LTI model, same channel"));
  Series data{"data tokens", {}, {}, "points pt 7 ps 0.8"};
  for (int t = 0; t < task.body_length; ++t)
    if (b.tokens[t] != kNoiseToken) {
      data.x.push_back(t);
      data.y.push_back(f.series[0].y[t]);
    }
  f.series.push_back(data);
  nb.figure(f);
  nb.check(
      "the selective model's Δ depends on the token: in some layer, a quarter of the channels or more step at "
      "least 2x more, or 2x less, on data than on noise",
      4 * most_selecting >= channels,
      fmt::format("layer {}: {} of {} channels", best_layer + 1, most_selecting, channels));
}

// ---- longer sequences than in training ---------------------------------------------------------
void section_generalization(Notebook& nb, const ProgramOptions& o, const Trained& trained) {
  nb.section("Longer sequences than it was trained on");
  if (trained.runs.empty()) return nb.gpu_skip("the evaluation at other lengths");
  std::vector<std::vector<std::string>> rows;
  Figure f{"accuracy_vs_length",
           "Held-out token accuracy against the length of the body",
           "body length (positions)",
           "accuracy (%)",
           true,
           false,
           {},
           {"set key inside bottom left", "set yrange [0:100]"}};
  for (SsmKind kind : {SsmKind::selective, SsmKind::lti}) {
    const TrainedModel* run = trained.find(kind);
    Series s{to_string(kind) + " model", {}, {}, "linespoints lw 2 pt 7"};
    for (int factor : {1, 2, 4, 16}) {
      const TaskShape task{o.body_length * factor, o.data_tokens};
      const int batch = std::max(1, std::min(o.batch, 64 / factor));
      GpuModel model(run->config, batch, task.seqlen());
      model.load_parameters(run->parameters);
      const Evaluation e = evaluate_on_gpu(model, task, 256, run->seed);
      rows.push_back({to_string(kind), fmt::format("{}x", factor), std::to_string(task.body_length),
                      fmt::format("{:.4f}", e.loss), percent(e.accuracy.fraction()),
                      percent(e.whole_sequences.fraction())});
      s.x.push_back(task.body_length);
      s.y.push_back(100.0 * e.accuracy.fraction());
    }
    f.series.push_back(s);
  }
  nb.table({"model", "length", "body", "held-out loss", "held-out accuracy", "copied whole"}, rows);
  nb.figure(f);
}

// ---- the learned decays ------------------------------------------------------------------------
void section_decays(Notebook& nb, const Trained& trained) {
  nb.section("The decays it learned");
  if (trained.runs.empty()) return nb.gpu_skip("the learned decays");
  std::vector<std::vector<std::string>> rows;
  Figure f{"learned_decay",
           "|A_n| of layer 1: the median over channels, per state",
           "state n",
           "median |A_n|",
           false,
           true,
           {},
           {"set key inside top left"}};
  f.markup = true;  // A_n
  for (SsmKind kind : {SsmKind::selective, SsmKind::lti}) {
    const TrainedModel* run = trained.find(kind);
    const ModelConfig& c = run->config;
    const LayerOffsets layer = parameter_layout(c).layers[0];  // a copy: the layout is a temporary
    Series s{to_string(kind) + " model, trained", {}, {}, "linespoints lw 2 pt 7"};
    for (int n = 0; n < c.d_state; ++n) {
      std::vector<double> a(std::size_t(c.d_inner()));
      for (int ch = 0; ch < c.d_inner(); ++ch)
        a[ch] = std::exp(double(run->parameters[layer.A_log + std::size_t(ch) * c.d_state + n]));
      std::nth_element(a.begin(), a.begin() + a.size() / 2, a.end());
      s.x.push_back(n);
      s.y.push_back(a[a.size() / 2]);
    }
    f.series.push_back(s);
  }
  Series init{"initial (S4D-real: n + 1)", {}, {}, "lines lw 1 dt 2"};
  for (int n = 0; n < trained.runs.front().config.d_state; ++n) {
    init.x.push_back(n);
    init.y.push_back(n + 1);
  }
  f.series.push_back(init);
  nb.figure(f);
}

}  // namespace ch09
