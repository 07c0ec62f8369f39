// The fp64 model's gradients against central finite differences of its loss, for every parameter
// of every block, both kinds. In fp64 with h = 1e-5 the difference quotient is good to about
// 1e-9 here (truncation ~h², rounding ~1e-16/h), so a wrong term anywhere shows at once.
#include "ch09_test_support.hpp"
#include "reference_model.hpp"

#include <string>

namespace {

void check_every_block(ch09::SsmKind kind, unsigned seed, ch09::ScanPath scan) {
  const ch09::ModelConfig config = ch09_test::tiny_config(kind);
  const std::vector<double> params = ch09_test::tiny_parameters(config, seed);
  const ch09::Batch batch = ch09_test::random_batch(config.vocab, 2, 9, seed + 7);
  const ch09::ModelForward forward = ch09::model_forward(config, params, batch, scan);
  const std::vector<double> grad = ch09::model_backward(config, params, batch, forward, scan);
  REQUIRE(grad.size() == params.size());

  const double h = 1e-5;
  std::vector<double> probe = params;
  auto loss_at = [&](std::size_t i, double value) {
    probe[i] = value;
    const double loss = ch09::model_forward(config, probe, batch, scan).loss;
    probe[i] = params[i];
    return loss;
  };
  for (const ch09::ParameterBlock& block : ch09::parameter_blocks(config)) {
    std::vector<double> got(block.count), expected(block.count);
    double largest = 0.0;
    for (std::size_t i = 0; i < block.count; ++i) {
      const std::size_t at = block.offset + i;
      expected[i] = (loss_at(at, params[at] + h) - loss_at(at, params[at] - h)) / (2 * h);
      got[i] = grad[at];
      largest = std::max(largest, std::abs(expected[i]));
    }
    INFO(ch09::to_string(kind) << " " << block.name << ", largest |gradient| " << largest);
    CHECK(largest > 1e-6);  // the block really reaches the loss
    CHECK_CLOSE(block.name, common::compare(got, expected, {1e-8, 1e-6}));
  }
  // The padding between blocks has no gradient.
  std::vector<bool> used(params.size(), false);
  for (const ch09::ParameterBlock& block : ch09::parameter_blocks(config))
    for (std::size_t i = 0; i < block.count; ++i) used[block.offset + i] = true;
  for (std::size_t i = 0; i < params.size(); ++i)
    if (!used[i]) CHECK(grad[i] == 0.0);
}

}  // namespace

TEST_CASE("every gradient of the selective model matches finite differences of the loss") {
  check_every_block(ch09::SsmKind::selective, 3, ch09::ScanPath::chapter08_reference);
}

TEST_CASE("every gradient of the LTI model matches finite differences of the loss") {
  check_every_block(ch09::SsmKind::lti, 4, ch09::ScanPath::chapter08_reference);
}

TEST_CASE("every gradient of the Mamba-2 model matches finite differences of the loss") {
  check_every_block(ch09::SsmKind::mamba2, 7, ch09::ScanPath::chapter08_reference);
}

TEST_CASE("the training's real fp64 scan gives gradients that match finite differences too") {
  check_every_block(ch09::SsmKind::selective, 5, ch09::ScanPath::real_fp64);
  check_every_block(ch09::SsmKind::lti, 6, ch09::ScanPath::real_fp64);
}

TEST_CASE("the real fp64 scan agrees with chapter 08's reference on every output and gradient") {
  for (ch09::SsmKind kind : {ch09::SsmKind::selective, ch09::SsmKind::lti}) {
    const ch09::ModelConfig config = ch09_test::tiny_config(kind);
    const std::vector<double> params = ch09_test::tiny_parameters(config, 11);
    const ch09::Batch batch = ch09_test::random_batch(config.vocab, 3, 12, 12);
    const ch09::ModelForward a = ch09::model_forward(config, params, batch, ch09::ScanPath::chapter08_reference);
    const ch09::ModelForward b = ch09::model_forward(config, params, batch, ch09::ScanPath::real_fp64);
    CHECK_CLOSE(ch09::to_string(kind) << " logits", common::compare(b.logits, a.logits, {1e-12, 1e-12}));
    const std::vector<double> ga = ch09::model_backward(config, params, batch, a, ch09::ScanPath::chapter08_reference);
    const std::vector<double> gb = ch09::model_backward(config, params, batch, b, ch09::ScanPath::real_fp64);
    CHECK_CLOSE(ch09::to_string(kind) << " gradients", common::compare(gb, ga, {1e-12, 1e-10}));
  }
}
