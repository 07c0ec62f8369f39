// The definition every form computes (ssd_problem.hpp): a tiny case by hand, the step size's
// bias, softplus and clamp, D's two forms, the drawn problems, and every refusal of validate().
#include "ch10_test_support.hpp"
#include "ssd_reference.hpp"

#include <cmath>
#include <stdexcept>
#include <vector>

using ch10::DForm;
using ch10::Problem;
using ch10::ProblemSpec;

namespace {

// One head, one channel, one state, three positions; the third starts a new sequence.
Problem by_hand() {
  Problem p;
  p.shape.seqlen = 3;
  p.x = {1.0, -1.0, 2.0};
  p.dt = {0.5, 0.25, 1.0};
  p.A = {-1.0};
  p.B = {1.0, 2.0, 3.0};
  p.C = {1.0, -1.0, 2.0};
  p.D = {0.5};
  p.initial_states = {2.0};
  p.seq_idx = {0, 0, 1};
  return p;
}

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

}  // namespace

TEST_CASE("every form computes a tiny case worked by hand", "[ch10][problem]") {
  Problem p = by_hand();
  const double S0 = std::exp(-0.5) * 2.0 + 0.5 * 1.0 * 1.0;
  const double S1 = std::exp(-0.25) * S0 + 0.25 * -1.0 * 2.0;
  const double S2 = 1.0 * 2.0 * 3.0;  // the reset drops S1
  const std::vector<double> y = {S0 * 1.0 + 0.5 * 1.0, S1 * -1.0 + 0.5 * -1.0, S2 * 2.0 + 0.5 * 2.0};
  const common::Tolerance tol{1e-15, 1e-15};
  for (const ch10::Forward& f : {ch10::ssd_recurrence(p), ch10::ssd_quadratic(p), ch10::ssd_chunked(p, 2)}) {
    CHECK_CLOSE("y", common::compare(f.y, y, tol));
    CHECK_CLOSE("final state", common::compare(f.final_states, std::vector<double>{S2}, tol));
  }

  SECTION("the gate multiplies by silu(z)") {
    p.z = {0.3, -2.0, 1.5};
    const ch10::Forward gated = ch10::ssd_recurrence(p);
    for (std::size_t t = 0; t < 3; ++t) CHECK(gated.y[t] == Approx(y[t] * p.z[t] * sigmoid(p.z[t])).epsilon(1e-15));
  }
}

TEST_CASE("the step size: bias, softplus above and below its cut at 20, the clamp", "[ch10][problem]") {
  Problem p = by_hand();
  p.dt = {-0.3, 0.2, 25.0};
  p.dt_bias = {0.1};
  CHECK(ch10::step_sizes(p) == std::vector<double>{0.0, 0.2 + 0.1, 25.0 + 0.1});  // (0, ∞) cuts the negative one
  p.dt_softplus = true;
  const std::vector<double> soft = ch10::step_sizes(p);
  CHECK(soft[0] == Approx(std::log1p(std::exp(-0.2))).epsilon(1e-15));
  CHECK(soft[1] == Approx(std::log1p(std::exp(0.3))).epsilon(1e-15));
  CHECK(soft[2] == 25.0 + 0.1);  // above 20 softplus is the identity, as in the official kernel
  p.dt_limit = {0.6, 2.0};
  CHECK(ch10::step_sizes(p) == std::vector<double>{0.6, soft[1], 2.0});
}

TEST_CASE("D per channel with one value a head is D per head", "[ch10][problem]") {
  ProblemSpec spec;
  spec.shape = {1, 9, 2, 3, 1, 2};
  spec.D = DForm::per_head;
  const Problem per_head = ch10::make_problem(spec, 1);
  Problem per_channel = per_head;
  per_channel.D = {per_head.D[0], per_head.D[0], per_head.D[0], per_head.D[1], per_head.D[1], per_head.D[1]};
  CHECK_CLOSE("y", common::compare(ch10::ssd_recurrence(per_channel).y, ch10::ssd_recurrence(per_head).y, {0, 0}));
}

TEST_CASE("drawn problems: steps in [1e-3, 0.1] with or without softplus and bias, packed rows", "[ch10][problem]") {
  for (const bool softplus : {false, true})
    for (const bool bias : {false, true}) {
      ProblemSpec spec;
      spec.shape = {2, 50, 3, 1, 1, 1};
      spec.dt_softplus = softplus;
      spec.dt_bias = bias;
      const Problem p = ch10::make_problem(spec, 7);
      INFO(ch10_test::describe(spec));
      for (const double step : ch10::step_sizes(p)) {
        CHECK(step >= 1e-3 * (1 - 1e-12));
        CHECK(step <= 0.1 * (1 + 1e-12));
      }
      for (const double A : p.A) CHECK((A <= -1.0 && A >= -16.0));
    }
  ProblemSpec spec;
  spec.shape = {2, 4, 1, 1, 1, 1};
  spec.packing = {{1, 3}, {4}};
  CHECK(ch10::make_problem(spec, 8).seq_idx == std::vector<std::int64_t>{0, 1, 1, 1, 0, 0, 0, 0});
  spec.packing = {{1, 2}, {4}};
  CHECK_THROWS_WITH(ch10::make_problem(spec, 8),
                    "ch10 SSD problem: row 0's sequences add up to 3 positions, not seqlen 4");
}

TEST_CASE("validate refuses every malformed problem with one line", "[ch10][problem]") {
  const Problem good = by_hand();
  CHECK_NOTHROW(ch10::validate(good));
  auto refused = [&](auto change) {
    Problem p = good;
    change(p);
    try {
      ch10::validate(p);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(refused([](Problem& p) { p.shape.dstate = 0; }) == "ch10 SSD problem: every size must be at least 1");
  CHECK(refused([](Problem& p) { p.shape.groups = 2; }) ==
        "ch10 SSD problem: heads (1) must be divisible by groups (2)");
  CHECK(refused([](Problem& p) { p.x.pop_back(); }) == "ch10 SSD problem: x has 2 elements, expected 3");
  CHECK(refused([](Problem& p) { p.C.push_back(0); }) == "ch10 SSD problem: C has 4 elements, expected 3");
  CHECK(refused([](Problem& p) {
          p.D = {1, 2};
        }) == "ch10 SSD problem: D has 2 elements, expected heads or heads * head_dim");
  CHECK(refused([](Problem& p) { p.z = {1}; }) == "ch10 SSD problem: z has 1 elements, expected 3");
  CHECK(refused([](Problem& p) {
          p.dt_limit = {1, 0};
        }) == "ch10 SSD problem: dt_limit's lower end is above its upper end");
  CHECK(refused([](Problem& p) {
          p.seq_idx = {0, 1};
        }) == "ch10 SSD problem: seq_idx has 2 elements, expected batch * seqlen");
  CHECK(refused([](Problem& p) { p.seq_idx = {0, 1, 0}; }) == "ch10 SSD problem: seq_idx decreases at b=0, t=2");
  CHECK(refused([](Problem& p) {
          p.seq_idx = {-1, 0, 0};
        }) == "ch10 SSD problem: seq_idx holds a negative number at b=0, t=0");
  CHECK_THROWS_WITH(ch10::ssd_quadratic([] {
                      Problem p = by_hand();
                      p.A.clear();
                      return p;
                    }()),
                    "ch10 SSD problem: A has 0 elements, expected 1");
}
