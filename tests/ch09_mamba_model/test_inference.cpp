// Recurrent inference, one token at a time, against the parallel forward: the same logits.
#include "ch09_test_support.hpp"
#include "recurrent_inference.hpp"
#include "reference_model.hpp"

#include <string>

namespace {

// Each sequence of `batch` stepped token by token gives `parallel`'s logits at every position.
void check_recurrence_gives(const ch09::ModelForward& parallel, const ch09::ModelConfig& config,
                            const std::vector<double>& params, const ch09::Batch& batch, const std::string& label) {
  const std::size_t per_sequence = std::size_t(config.vocab * batch.seqlen);
  for (int b = 0; b < batch.batch; ++b) {
    const std::vector<int> tokens(batch.tokens.begin() + b * batch.seqlen,
                                  batch.tokens.begin() + (b + 1) * batch.seqlen);
    const std::vector<double> expected(parallel.logits.begin() + std::ptrdiff_t(b * per_sequence),
                                       parallel.logits.begin() + std::ptrdiff_t((b + 1) * per_sequence));
    CHECK_CLOSE(label << " sequence " << b,
                common::compare(ch09::recurrent_logits(config, params, tokens), expected, {1e-12, 1e-10}));
  }
}

}  // namespace

TEST_CASE("the recurrence's logits equal the parallel forward's at every position, both kinds") {
  for (ch09::SsmKind kind : {ch09::SsmKind::selective, ch09::SsmKind::lti}) {
    const ch09::ModelConfig config = ch09_test::tiny_config(kind);
    const std::vector<double> params = ch09_test::tiny_parameters(config, 21);
    const ch09::Batch batch = ch09_test::random_batch(config.vocab, 2, 17, 22);
    const ch09::ModelForward parallel = ch09::model_forward(config, params, batch);
    check_recurrence_gives(parallel, config, params, batch, ch09::to_string(kind));
    // Δ from the step equals the parallel forward's Δ (layer 1, last token, sequence 0).
    ch09::RecurrentState state = ch09::initial_recurrent_state(config);
    std::vector<double> delta;
    for (int t = 0; t < batch.seqlen; ++t)
      ch09::recurrent_step(config, params, state, batch.tokens[std::size_t(t)], &delta);
    const int di = config.d_inner(), L = batch.seqlen;
    for (int d = 0; d < di; ++d)
      CHECK(delta[std::size_t(di + d)] == Approx(parallel.layers[1].delta[std::size_t(d * L + L - 1)]).epsilon(1e-12));
  }
}

TEST_CASE("a Mamba-2 model's recurrence gives the parallel forward's logits at every position") {
  const ch09::ModelConfig config = ch09_test::tiny_config(ch09::SsmKind::mamba2);
  const std::vector<double> params = ch09_test::tiny_parameters(config, 23);
  const ch09::Batch batch = ch09_test::random_batch(config.vocab, 2, 17, 24);
  check_recurrence_gives(ch09::model_forward(config, params, batch), config, params, batch, "Mamba-2");
  // Its convolution also keeps B's and C's last inputs: (d_inner + 2N)(conv_width - 1) + d_inner N a layer.
  const int di = config.d_inner(), N = config.d_state, W = config.conv_width;
  CHECK(ch09::recurrent_state_size(config) == std::size_t(config.layers * ((di + 2 * N) * (W - 1) + di * N)));
}

TEST_CASE("the recurrent state is layers x d_inner x (conv_width - 1 + N) numbers, whatever the length") {
  ch09::ModelConfig c;  // the GPU run's shape
  CHECK(ch09::recurrent_state_size(c) == std::size_t(2 * 128 * (3 + 16)));
  const ch09::RecurrentState s = ch09::initial_recurrent_state(c);
  CHECK(s.conv.size() == 2);
  CHECK(s.ssm[1].size() == std::size_t(128 * 16));
}
