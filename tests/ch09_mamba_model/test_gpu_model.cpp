// The GPU model (fp32, cuBLAS, chapter 08's scan; the Mamba-2 kind chapter 10's ssd) against the
// fp64 reference of the whole model: the loss, the logits, Δ and the gradient of every parameter
// block, for every model kind, on tiny sizes with awkward lengths; and a few AdamW steps that
// lower the loss.
#include "ch09_gpu_test_support.hpp"

#include "gpu_inference.hpp"
#include "gpu_model.hpp"
#include "reference_model.hpp"

#include <cstdio>
#include <string>

namespace {

using namespace ch09_test;

void check_against_reference(ch09::SsmKind kind, unsigned seed) {
  const ch09::ModelConfig config = tiny_config(kind);
  // The reference runs on the fp32 parameters the GPU holds.
  const std::vector<float> parameters = ch09::to_float(tiny_parameters(config, seed));
  const std::vector<double> exact = ch09::to_double(parameters);
  ch09::GpuModel model(config, 4, 23);
  model.load_parameters(parameters);
  const auto [logits_tol, gradient_tol] = ch09::reference_tolerances(kind);

  for (const auto& [batch, seqlen] : {std::pair{3, 19}, std::pair{4, 23}, std::pair{1, 1}, std::pair{2, 6}}) {
    INFO(ch09::to_string(kind) << ", batch " << batch << ", seqlen " << seqlen);
    ch09::Batch data = random_batch(config.vocab, batch, seqlen, seed + 7);
    data.targets[0] = 1;  // at least one scored position
    const ch09::ModelForward forward = ch09::model_forward(config, exact, data);
    const std::vector<double> gradient = ch09::model_backward(config, exact, data, forward);

    model.poison_outputs();
    model.forward(data.tokens, data.targets, batch, seqlen);
    model.backward();
    const ch09::gpu::LossMetrics metrics = model.metrics();
    CHECK_CLOSE("loss",
                common::compare(std::vector<double>{metrics.loss}, std::vector<double>{forward.loss}, {1e-5, 1e-5}));
    CHECK(metrics.targets == forward.accuracy.scored);
    CHECK(metrics.correct == forward.accuracy.correct);
    CHECK_CLOSE("logits", common::compare(to_double(model.download_logits()), forward.logits, logits_tol));
    for (int l = 0; kind != ch09::SsmKind::mamba2 && l < config.layers; ++l)  // Mamba-2 keeps no Δ a channel
      CHECK_CLOSE("layer " + std::to_string(l) + " delta",
                  common::compare(to_double(model.download_delta(l)), forward.layers[l].delta, {1e-6, 1e-5}));

    const std::vector<float> got = model.download_gradients();
    for (const ch09::ParameterBlock& block : ch09::parameter_blocks(config)) {
      const std::vector<double> got_block(got.begin() + block.offset, got.begin() + block.offset + block.count);
      const std::vector<double> want_block(gradient.begin() + block.offset,
                                           gradient.begin() + block.offset + block.count);
      CHECK_CLOSE(block.name, common::compare(got_block, want_block, gradient_tol));
    }
  }
}

TEST_CASE("GPU model: loss, logits, delta and every gradient match the fp64 reference (selective)", "[gpu]") {
  REQUIRE_GPU();
  check_against_reference(ch09::SsmKind::selective, 21);
}

TEST_CASE("GPU model: loss, logits, delta and every gradient match the fp64 reference (LTI)", "[gpu]") {
  REQUIRE_GPU();
  check_against_reference(ch09::SsmKind::lti, 22);
}

TEST_CASE("GPU model: loss, logits and every gradient match the fp64 reference (Mamba-2)", "[gpu]") {
  REQUIRE_GPU();
  check_against_reference(ch09::SsmKind::mamba2, 23);
}

TEST_CASE("GPU model: the learned parameters round-trip and refuse a wrong size", "[gpu]") {
  REQUIRE_GPU();
  const ch09::ModelConfig config = tiny_config(ch09::SsmKind::selective);
  const std::vector<float> parameters = ch09::initial_parameters(config, 3);
  ch09::GpuModel model(config, 2, 8);
  model.load_parameters(parameters);
  CHECK(model.download_parameters() == parameters);
  CHECK_THROWS_AS(model.load_parameters(std::vector<float>(parameters.size() + 1)), std::invalid_argument);
  const ch09::Batch data = random_batch(config.vocab, 3, 8, 4);
  CHECK_THROWS_AS(model.forward(data.tokens, data.targets, 3, 8), std::invalid_argument);  // batch beyond 2
}

TEST_CASE("GPU model: AdamW steps on one batch lower its loss (both kinds)", "[gpu]") {
  REQUIRE_GPU();
  for (const ch09::SsmKind kind : {ch09::SsmKind::selective, ch09::SsmKind::lti}) {
    INFO(ch09::to_string(kind));
    ch09::ModelConfig config;
    config.d_model = 16;
    config.d_state = 4;
    config.dt_rank = 1;
    config.kind = kind;
    std::mt19937_64 rng(5);
    const ch09::Batch data = ch09::make_selective_copying(8, 24, 4, config.vocab, rng);
    ch09::GpuModel model(config, data.batch, data.seqlen);
    model.load_parameters(ch09::initial_parameters(config, 6));
    common::DeviceBuffer<int> tokens = upload(data.tokens), targets = upload(data.targets);

    model.forward(tokens.data(), targets.data(), data.batch, data.seqlen);
    const float first = model.metrics().loss;
    for (int step = 1; step <= 30; ++step) {
      model.forward(tokens.data(), targets.data(), data.batch, data.seqlen);
      model.backward();
      model.adamw_step(3e-3f, step);
    }
    model.forward(tokens.data(), targets.data(), data.batch, data.seqlen);
    const float last = model.metrics().loss;
    INFO("loss " << first << " -> " << last);
    CHECK(std::isfinite(last));
    CHECK(last < 0.8f * first);
    for (const float p : model.download_parameters()) REQUIRE(std::isfinite(p));
  }
}

}  // namespace

namespace {

TEST_CASE("GPU model: a training step at the chapter's size runs and is timed", "[gpu]") {
  REQUIRE_GPU();
  for (const ch09::SsmKind kind : {ch09::SsmKind::selective, ch09::SsmKind::lti}) {
    ch09::ModelConfig config;  // the chapter's model: d_model 64, 2 layers, N 16
    config.kind = kind;
    std::mt19937_64 rng(9);
    const ch09::Batch data = ch09::make_selective_copying(64, 256, 16, config.vocab, rng);
    ch09::GpuModel model(config, data.batch, data.seqlen);
    model.load_parameters(ch09::initial_parameters(config, 10));
    common::DeviceBuffer<int> tokens = upload(data.tokens), targets = upload(data.targets);
    auto train_step = [&](int step) {
      model.forward(tokens.data(), targets.data(), data.batch, data.seqlen);
      model.backward();
      model.adamw_step(1e-3f, step);
    };
    for (int step = 1; step <= 3; ++step) train_step(step);  // warm-up
    CUDA_CHECK(cudaDeviceSynchronize());
    cudaEvent_t start, stop;
    CUDA_CHECK(cudaEventCreate(&start));
    CUDA_CHECK(cudaEventCreate(&stop));
    const int steps = 50;
    CUDA_CHECK(cudaEventRecord(start));
    for (int step = 4; step < 4 + steps; ++step) train_step(step);
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    CUDA_CHECK(cudaEventDestroy(start));
    CUDA_CHECK(cudaEventDestroy(stop));
    const ch09::gpu::LossMetrics m = model.metrics();
    std::printf("%s: batch %d x seqlen %d, %.3f ms per training step (mean of %d), loss %.4f\n",
                ch09::to_string(kind).c_str(), data.batch, data.seqlen, ms / steps, steps, m.loss);
    CHECK(std::isfinite(m.loss));
    const ch09::InferenceThroughput t = ch09::measure_inference_throughput(model, 64, data.seqlen, 11, 5);
    std::printf(
        "%s: inference of 64 x %d tokens: stepping %.3f ms (%.3g tokens/s), "
        "parallel forward %.3f ms (%.3g tokens/s)\n",
        ch09::to_string(kind).c_str(), data.seqlen, t.step_ms.median_ms, t.step_tokens_per_second(),
        t.parallel_ms.median_ms, t.parallel_tokens_per_second());
  }
}

}  // namespace
