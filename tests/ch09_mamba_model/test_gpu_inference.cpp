// Recurrent inference on the GPU against the parallel forward: stepping a batch of sequences one
// token at a time gives, at every position, the logits the parallel forward gives (and the fp64
// reference's), for both model kinds.
#include "ch09_gpu_test_support.hpp"

#include "gpu_inference.hpp"
#include "gpu_model.hpp"
#include "reference_model.hpp"

#include <stdexcept>
#include <string>

namespace {

using namespace ch09_test;

// The tokens of every sequence at position t, on the device: what one step takes.
common::DeviceBuffer<int> tokens_at(const ch09::Batch& data, int sequences, int length, int t) {
  std::vector<int> column(sequences);
  for (int s = 0; s < sequences; ++s) column[s] = data.tokens[std::size_t(s) * length + t];
  return upload(column);
}

void check_stepping(ch09::SsmKind kind, unsigned seed) {
  const ch09::ModelConfig config = tiny_config(kind);
  const std::vector<float> parameters = ch09::to_float(tiny_parameters(config, seed));
  const int sequences = 3, length = 19;
  const ch09::Batch data = random_batch(config.vocab, sequences, length, seed + 1);
  const ch09::ModelForward reference = ch09::model_forward(config, ch09::to_double(parameters), data);

  ch09::GpuModel model(config, sequences, length);
  model.load_parameters(parameters);
  model.poison_outputs();
  model.forward(data.tokens, data.targets, sequences, length);
  const std::vector<double> parallel = to_double(model.download_logits());

  ch09::GpuInference inference(model, sequences);
  CHECK(inference.state_floats_per_sequence() ==
        std::size_t(config.layers) * config.d_inner() * (config.conv_width - 1 + config.d_state));
  for (int pass = 0; pass < 2; ++pass) {  // the second pass checks that reset() forgets the first
    INFO(ch09::to_string(kind) << ", pass " << pass);
    inference.reset();
    std::vector<double> stepped(parallel.size());  // (sequences, vocab, length), as the forward's
    for (int t = 0; t < length; ++t) {
      inference.step(tokens_at(data, sequences, length, t).data());
      const std::vector<float> logits = inference.download_logits();  // (sequences, vocab)
      for (int s = 0; s < sequences; ++s)
        for (int v = 0; v < config.vocab; ++v)
          stepped[(std::size_t(s) * config.vocab + v) * length + t] = logits[std::size_t(s) * config.vocab + v];
    }
    CHECK_CLOSE("stepped vs parallel logits", common::compare(stepped, parallel, {1e-5, 1e-4}));
    CHECK_CLOSE("stepped vs fp64 logits", common::compare(stepped, reference.logits, {1e-5, 1e-4}));
  }
}

TEST_CASE("GPU recurrent inference reproduces the parallel forward's logits (selective)", "[gpu]") {
  REQUIRE_GPU();
  check_stepping(ch09::SsmKind::selective, 31);
}

TEST_CASE("GPU recurrent inference reproduces the parallel forward's logits (LTI)", "[gpu]") {
  REQUIRE_GPU();
  check_stepping(ch09::SsmKind::lti, 32);
}

// Generation after a prefill: the prompt through the parallel forward (chapter 08's last_state and
// the convolution's last inputs) leaves the states that stepping through it leaves, so the prompt's
// last logits and every logit stepped after it are the parallel forward's over the whole sequence.
void check_prefill(ch09::SsmKind kind, unsigned seed) {
  const ch09::ModelConfig config = tiny_config(kind);
  const std::vector<float> parameters = ch09::to_float(tiny_parameters(config, seed));
  const int sequences = 3, length = 19;
  const ch09::Batch data = random_batch(config.vocab, sequences, length, seed + 1);
  ch09::GpuModel model(config, sequences, length);
  model.load_parameters(parameters);
  model.forward(data.tokens, data.targets, sequences, length);
  const std::vector<double> parallel = to_double(model.download_logits());  // (sequences, vocab, length)

  ch09::GpuInference inference(model, sequences);
  for (int prompt : {config.conv_width - 1, 11}) {
    INFO(ch09::to_string(kind) << ", a prompt of " << prompt << " tokens");
    std::vector<int> head(std::size_t(sequences) * prompt);
    for (int s = 0; s < sequences; ++s)
      for (int t = 0; t < prompt; ++t) head[std::size_t(s) * prompt + t] = data.tokens[std::size_t(s) * length + t];
    common::DeviceBuffer<int> prompt_tokens = upload(head);
    inference.reset();  // what prefill() leaves must not depend on what was there
    for (int t = 0; t < 2; ++t) inference.step(prompt_tokens.data());
    inference.prefill(prompt_tokens.data(), prompt);
    std::vector<double> got, expected;
    for (int t = prompt - 1; t < length; ++t) {
      if (t >= prompt) inference.step(tokens_at(data, sequences, length, t).data());
      const std::vector<float> logits = inference.download_logits();  // (sequences, vocab)
      for (int s = 0; s < sequences; ++s)
        for (int v = 0; v < config.vocab; ++v) {
          got.push_back(logits[std::size_t(s) * config.vocab + v]);
          expected.push_back(parallel[(std::size_t(s) * config.vocab + v) * length + t]);
        }
    }
    CHECK_CLOSE("prefilled, then stepped vs parallel logits", common::compare(got, expected, {1e-5, 1e-4}));
  }
  CHECK_THROWS_AS(inference.prefill(upload(std::vector<int>(std::size_t(sequences), 0)).data(), 1), std::logic_error);
}

TEST_CASE("GPU generation after a prefill gives the parallel forward's logits (selective)", "[gpu]") {
  REQUIRE_GPU();
  check_prefill(ch09::SsmKind::selective, 33);
}

TEST_CASE("GPU generation after a prefill gives the parallel forward's logits (LTI)", "[gpu]") {
  REQUIRE_GPU();
  check_prefill(ch09::SsmKind::lti, 34);
}

TEST_CASE("GPU inference throughput is measured for stepping and for the parallel forward", "[gpu]") {
  REQUIRE_GPU();
  const ch09::ModelConfig config = tiny_config(ch09::SsmKind::selective);
  ch09::GpuModel model(config, 4, 16);
  model.load_parameters(ch09::initial_parameters(config, 7));
  const ch09::InferenceThroughput t = ch09::measure_inference_throughput(model, 4, 16, 8, 3);
  CHECK(t.step_ms.repetitions == 3);
  CHECK(t.step_tokens_per_second() > 0);
  CHECK(t.parallel_tokens_per_second() > 0);
}

}  // namespace
