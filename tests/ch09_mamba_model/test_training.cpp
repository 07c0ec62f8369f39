// The CPU training loop: it reports every step, and a short run already lowers the loss.
// (The full tiny run, 2000 steps per kind, is the chapter program's; it takes seconds.)
#include "ch09_test_support.hpp"
#include "cpu_training.hpp"

TEST_CASE("a short CPU training run reports every step and lowers the loss") {
  ch09::CpuTrainingSettings s = ch09::tiny_cpu_training(ch09::SsmKind::selective);
  s.steps = 150;
  s.eval_sequences = 32;
  int calls = 0;
  const ch09::CpuTrainingResult r =
      ch09::train_on_cpu(s, [&](const ch09::TrainingPoint& p) { CHECK(p.step == ++calls); });
  CHECK(calls == s.steps);
  REQUIRE(r.curve.size() == std::size_t(s.steps));
  double first = 0, last = 0;
  for (int i = 0; i < 20; ++i) {
    first += r.curve[std::size_t(i)].loss;
    last += r.curve[r.curve.size() - 1 - std::size_t(i)].loss;
  }
  INFO("mean loss of the first 20 steps " << first / 20 << ", of the last 20 " << last / 20);
  CHECK(last < first);
  CHECK(first / 20 > 2.5);  // about log(16) at the start: nothing known
  CHECK(r.eval_accuracy.scored == 32 * s.n_data);
  // The same seed trains the same weights.
  const ch09::CpuTrainingResult again = ch09::train_on_cpu(s);
  CHECK(again.parameters == r.parameters);
}
