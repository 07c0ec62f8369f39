// Chapter 09's sections on the GPU model itself: its check against the fp64 reference, the trained
// model run as a recurrence, and the weights file.
#include "sections.hpp"

#include "check_problems.hpp"
#include "device_buffer.hpp"
#include "gpu_inference.hpp"
#include "gpu_model.hpp"
#include "recurrent_inference.hpp"
#include "reference_model.hpp"
#include "selective_copying.hpp"
#include "weights_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <span>
#include <stdexcept>

namespace ch09 {
namespace {

using common::Notebook;

std::string bytes_text(double bytes) {
  if (bytes >= 1 << 20) return fmt::format("{:.1f} MiB", bytes / (1 << 20));
  if (bytes >= 1 << 10) return fmt::format("{:.1f} KiB", bytes / (1 << 10));
  return fmt::format("{:.0f} B", bytes);
}

}  // namespace

// ---- the GPU model against the fp64 reference --------------------------------------------------
void check_gpu_against_reference(Notebook& nb, SsmKind kind) {
  const auto [logits_tol, gradient_tol] = reference_tolerances(kind);
  {
    const ModelConfig c = tiny_config(kind);
    const std::vector<float> parameters = to_float(tiny_parameters(c, unsigned(nb.options().seed)));
    const std::vector<double> exact = to_double(parameters);
    const Batch b = random_batch(c.vocab, 3, 19, unsigned(nb.options().seed) + 7);
    const ModelForward reference = model_forward(c, exact, b);
    const std::vector<double> gradient = model_backward(c, exact, b, reference);
    GpuModel model(c, 3, 19);
    model.load_parameters(parameters);
    model.poison_outputs();
    model.forward(b.tokens, b.targets, 3, 19);
    model.backward();
    const std::string name = to_string(kind) + " model";
    nb.check(name + ": logits", common::compare(to_double(model.download_logits()), reference.logits, logits_tol));
    const std::vector<float> got = model.download_gradients();
    common::Comparison worst;
    std::string worst_block;
    int failed = 0;
    for (const ParameterBlock& block : parameter_blocks(c)) {
      const std::vector<double> got_block(got.begin() + block.offset, got.begin() + block.offset + block.count);
      const std::vector<double> want(gradient.begin() + block.offset, gradient.begin() + block.offset + block.count);
      const common::Comparison cmp = common::compare(got_block, want, gradient_tol);
      if (!cmp.ok) ++failed;
      // The block to report: the first that fails, else the one with the largest error.
      const bool worse = worst_block.empty() || (worst.ok && !cmp.ok) ||
                         (worst.ok == cmp.ok && cmp.max_abs_error > worst.max_abs_error);
      if (worse) worst = cmp, worst_block = block.name;
    }
    nb.check(fmt::format("{}: the gradient of all {} parameter blocks ({} out of tolerance; worst: {})", name,
                         parameter_blocks(c).size(), failed, worst_block),
             worst);
  }
}

void section_gpu_against_reference(Notebook& nb) {
  nb.section("The GPU model against the fp64 reference");
  if (!nb.gpu()) return nb.gpu_skip("the GPU model's checks");
  const ReferenceTolerances tol = reference_tolerances(SsmKind::selective);
  nb.text(
      fmt::format("The tiny models of the finite-difference check, three random sequences of 19 tokens; the\n"
                  "reference runs on the fp32 parameters the GPU holds. Tolerances: logits atol {} + rtol {}·|ref|,\n"
                  "every gradient block atol {} + rtol {}·|ref|.",
                  tol.logits.atol, tol.logits.rtol, tol.gradient.atol, tol.gradient.rtol));
  for (SsmKind kind : {SsmKind::selective, SsmKind::lti}) check_gpu_against_reference(nb, kind);
}

// ---- the trained model as a recurrence ---------------------------------------------------------
void section_inference(Notebook& nb, const ProgramOptions& o, const Trained& trained) {
  nb.section("Generating with the trained model: one token at a time");
  if (trained.runs.empty()) return nb.gpu_skip("recurrent inference on the GPU");
  const TrainedModel& run = *trained.find(SsmKind::selective);
  const ModelConfig& c = run.config;
  const TaskShape task = o.task();
  const int sequences = 8, length = task.seqlen();
  std::mt19937_64 rng(nb.options().seed + 2000);
  const Batch b = make_selective_copying(sequences, task.body_length, task.data_tokens, c.vocab, rng);

  GpuModel model(c, std::max(sequences, o.batch), length);
  model.load_parameters(run.parameters);
  model.forward(b.tokens, b.targets, sequences, length);
  const std::vector<float> parallel = model.download_logits();  // (sequences, vocab, length)

  // [snippet:generation_loop]
  GpuInference inference(model, sequences);
  inference.reset();
  common::DeviceBuffer<int> token{std::size_t(sequences)};
  std::vector<float> stepped(parallel.size());
  for (int t = 0; t < length; ++t) {
    std::vector<int> column(sequences);
    for (int s = 0; s < sequences; ++s) column[s] = b.tokens[std::size_t(s) * length + t];
    token.upload(column);
    inference.step(token.data());
    const std::vector<float> logits = inference.download_logits();  // (sequences, vocab)
    for (int s = 0; s < sequences; ++s)
      for (int v = 0; v < c.vocab; ++v)
        stepped[(std::size_t(s) * c.vocab + v) * length + t] = logits[std::size_t(s) * c.vocab + v];
  }
  // [/snippet:generation_loop]
  // Both fp32, summed in different orders (the chunked scan against a running state), over the
  // whole sequence with the trained model's decays near 1: differences of some 1e-3 of the logits' size.
  nb.check(fmt::format("{} sequences of {} tokens stepped one token at a time: the parallel forward's logits",
                       sequences, length),
           common::compare(to_double(stepped), to_double(parallel), {1e-2, 1e-3}));
  const Accuracy from_steps = token_accuracy(stepped, c.vocab, b), from_parallel = token_accuracy(parallel, c.vocab, b);
  nb.check("and the same tokens copied", from_steps.correct == from_parallel.correct,
           fmt::format("{} of {} by stepping, {} by the parallel forward", from_steps.correct, from_steps.scored,
                       from_parallel.correct));

  // [snippet:generation_after_prefill]
  // Generation after a prefill: the first half of each sequence in one parallel forward, which
  // leaves the states (chapter 08's last_state and the convolution's last inputs); then stepping.
  const int prompt = length / 2;
  std::vector<int> head(std::size_t(sequences) * prompt);
  for (int s = 0; s < sequences; ++s)
    for (int t = 0; t < prompt; ++t) head[std::size_t(s) * prompt + t] = b.tokens[std::size_t(s) * length + t];
  const common::DeviceBuffer<int> prompt_tokens{std::span<const int>(head)};
  inference.prefill(prompt_tokens.data(), prompt);
  std::vector<double> continued, expected;
  for (int t = prompt - 1; t < length; ++t) {
    if (t >= prompt) {
      std::vector<int> column(sequences);
      for (int s = 0; s < sequences; ++s) column[s] = b.tokens[std::size_t(s) * length + t];
      token.upload(column);
      inference.step(token.data());
    }
    const std::vector<float> logits = inference.download_logits();
    for (int s = 0; s < sequences; ++s)
      for (int v = 0; v < c.vocab; ++v) {
        continued.push_back(logits[std::size_t(s) * c.vocab + v]);
        expected.push_back(parallel[(std::size_t(s) * c.vocab + v) * length + t]);
      }
  }
  // [/snippet:generation_after_prefill]
  nb.check(fmt::format("the first {} tokens prefilled by the parallel forward, the other {} stepped: the same logits",
                       prompt, length - prompt),
           common::compare(continued, expected, {1e-2, 1e-3}));

  std::vector<std::vector<std::string>> rows;
  for (int batch : {1, 64}) {
    GpuModel timed(c, batch, length);
    timed.load_parameters(run.parameters);
    const InferenceThroughput r = measure_inference_throughput(timed, batch, length, unsigned(nb.options().seed));
    rows.push_back({std::to_string(batch), fmt::format("{:.3f}", r.step_ms.median_ms / length),
                    fmt::format("{:.0f}", r.step_tokens_per_second()), fmt::format("{:.3f}", r.parallel_ms.median_ms),
                    fmt::format("{:.0f}", r.parallel_tokens_per_second()),
                    fmt::format("{:.1f}", r.parallel_tokens_per_second() / r.step_tokens_per_second())});
  }
  nb.table({"sequences", "ms per step", "tokens/s stepping", "ms parallel forward", "tokens/s parallel",
            "parallel / stepping"},
           rows);
  nb.text(
      fmt::format("Both over the same {} tokens per sequence, timed with CUDA events (median of 10). The parallel\n"
                  "forward sees every token at once, as training does; stepping is what generation must do, one\n"
                  "token after the other, and a step of this small model is one CUDA graph of about twenty tiny\n"
                  "kernels.",
                  length));

  // Memory per sequence: the recurrence's fixed state against a transformer's KV cache of the same
  // width and depth (keys and values, d_model each, per layer and token), both fp32.
  const double state_bytes = 4.0 * recurrent_state_size(c);
  std::vector<std::vector<std::string>> memory;
  for (long long tokens : {(long long)length, 4096LL, 65536LL, 1LL << 20}) {  // the task's length first
    const double kv = 4.0 * 2 * c.layers * c.d_model * double(tokens);
    memory.push_back(
        {std::to_string(tokens), bytes_text(state_bytes), bytes_text(kv), fmt::format("{:.0f}", kv / state_bytes)});
  }
  nb.text(
      fmt::format("Memory per sequence, fp32: the recurrent state is {} layers × {} channels × ({} conv inputs + {}\n"
                  "states) = {} numbers, whatever the length; a transformer of the same width and depth keeps a key\n"
                  "and a value of {} numbers per layer for every token seen.",
                  c.layers, c.d_inner(), c.conv_width - 1, c.d_state, recurrent_state_size(c), c.d_model));
  nb.table({"tokens so far", "Mamba state", "transformer KV cache", "ratio"}, memory);
}

// ---- the weights file --------------------------------------------------------------------------
void section_weights_file(Notebook& nb, const ProgramOptions& o, const Trained& trained) {
  nb.section("The weights file: train once, run again later");
  // The GPU's selective model where there is one, else the CPU section's tiny one.
  const bool on_gpu = !trained.runs.empty();
  const TrainedModel& model = on_gpu ? *trained.find(SsmKind::selective) : trained.cpu.front();
  const ModelConfig& c = model.config;
  const std::vector<float>& parameters = model.parameters;
  const std::string path = (std::filesystem::path(nb.out_dir()) / "weights_check.weights").string();
  save_weights(path, c, parameters);
  nb.text(fmt::format(
      "The {} selective model ({}, {} floats) in a file of {} bytes:\n"
      "an 8-byte magic, the format version, the model's shape, the float count, the floats, and an\n"
      "FNV-1a checksum of everything after the magic.",
      on_gpu ? "GPU's" : "CPU section's", to_string(c), parameters.size(), std::filesystem::file_size(path)));
  nb.check("saved and loaded back: the same floats, bit for bit", load_weights(path, c) == parameters,
           fmt::format("{} floats", parameters.size()));

  // Each damage must be refused with one line naming the file and the problem.
  std::ifstream in(path, std::ios::binary);
  const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  struct Damage {
    std::string what, bytes;
  };
  std::string flipped = whole;
  flipped[whole.size() / 2] = char(flipped[whole.size() / 2] ^ 0x10);
  std::string wrong_magic = whole;
  wrong_magic[0] = 'X';
  const std::string damaged_path = (std::filesystem::path(nb.out_dir()) / "damaged.weights").string();
  for (const Damage& d : {Damage{"one bit flipped in the middle", flipped},
                          Damage{"its last 100 bytes missing", whole.substr(0, whole.size() - 100)},
                          Damage{"a wrong magic", wrong_magic}}) {
    std::ofstream(damaged_path, std::ios::binary) << d.bytes;
    std::string message;
    try {
      load_weights(damaged_path);
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
    nb.check("a file with " + d.what + " is refused", !message.empty(), message.empty() ? "loaded!" : message);
  }
  std::filesystem::remove(damaged_path);
  std::filesystem::remove(path);
  if (o.load_dir.empty())
    nb.text(
        fmt::format("This run saved its trained models in {}/ (cpu_selective.weights, cpu_lti.weights{});\n"
                    "`--load {}` reads them back instead of training.",
                    nb.out_dir(), on_gpu ? ", selective.weights, lti.weights" : "", nb.out_dir()));
}

}  // namespace ch09
