// Chapter 11's CPU sections: the summaries and their fold, the sliced scan in fp64, the traffic.
#include "communication.hpp"
#include "sections.hpp"
#include "sliced_scan.hpp"
#include "slices.hpp"
#include "summaries.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <vector>

namespace ch11 {
namespace {

constexpr common::Tolerance kExact{1e-11, 1e-10};

ch08::Problem problem_of(std::int64_t batch, std::int64_t dim, std::int64_t seqlen, int dstate, unsigned seed) {
  ch08::Problem shape;
  shape.batch = batch, shape.dim = dim, shape.seqlen = seqlen, shape.dstate = dstate, shape.groups = 1;
  shape.has_D = shape.has_z = shape.has_delta_bias = shape.delta_softplus = shape.has_initial_state = true;
  return ch08::make_official_test_problem(shape, seed);
}

}  // namespace

void section_summaries(common::Notebook& nb) {
  nb.section("What a slice hands on: a summary, and the fold");
  nb.text(
      "One channel, one state, 12 steps on 4 ranks of 3. A slice maps the state entering it to decay·h + state: "
      "decay = exp(A Σδ) over its steps, state = what its own inputs leave from zero. Rank r folds the summaries of "
      "ranks 0 .. r − 1 into the state entering its slice; the whole sequence's state at the same position is the "
      "check.");
  const ch08::Problem p = problem_of(1, 1, 12, 1, 1);
  const std::vector<Slice> slices = split(p.seqlen, 4);
  std::vector<Summary> gathered;
  for (const Slice& s : slices) gathered.push_back(summarize(slice_of(p, s, {})));
  const std::vector<double> initial = real_parts(p.initial_state);
  std::vector<std::vector<std::string>> rows;
  bool all = true;
  for (int r = 0; r < 4; ++r) {
    const Slice& s = slices[std::size_t(r)];
    const std::vector<double> carry = carry_into(gathered, r, initial);
    std::vector<double> expected = initial;
    if (s.begin > 0) expected = real_parts(ch08::reference_forward(slice_of(p, {0, s.begin}, initial)).last_state);
    all = all && std::abs(carry[0] - expected[0]) <= 1e-12 + 1e-12 * std::abs(expected[0]);
    rows.push_back({fmt::format("{}", r), fmt::format("{}..{}", s.begin, s.end - 1),
                    fmt::format("{:.4f}", gathered[std::size_t(r)].decay[0]),
                    fmt::format("{:.4f}", gathered[std::size_t(r)].state[0]), fmt::format("{:.6f}", carry[0]),
                    fmt::format("{:.6f}", expected[0])});
  }
  nb.table({"rank", "positions", "decay", "state", "carry in (fold)", "h before the slice (whole)"}, rows);
  nb.check("every rank's carry is the whole sequence's state where its slice starts", all, "to 1e-12");
}

void section_sliced(common::Notebook& nb) {
  nb.section("The sliced scan against the whole sequence, forward and backward (fp64)");
  nb.text(
      "Batch 2, 16 channels, 1000 steps, 16 states, every option, on 1 to 8 ranks of unequal slices. Forward: "
      "summarize, gather, fold, scan again. Backward: each slice's backward from its carry with nothing from later "
      "slices gives what its own outputs ask of its carry; gathered and folded the other way, that is the gradient "
      "reaching each slice's end, and the slice's backward runs again with it. The weights' gradients are summed "
      "over the ranks.");
  const ch08::Problem p = problem_of(2, 16, 1000, 16, 2);
  std::vector<double> dout(p.u.size());
  for (std::size_t e = 0; e < dout.size(); ++e) dout[e] = std::sin(0.7 * double(e));
  const ch08::ForwardResult whole = ch08::reference_forward(p);
  const ch08::Gradients adjoint = ch08::reference_backward(p, dout);
  for (int ranks : {1, 2, 3, 8}) {
    const SlicedForward f = sliced_forward(p, ranks);
    const ch08::Gradients g = sliced_backward(p, dout, ranks);
    const common::Comparison parts[] = {
        common::compare(f.out_z, whole.out_z, kExact),
        common::compare(f.last_state, real_parts(whole.last_state), kExact),
        common::compare(g.du, adjoint.du, kExact),
        common::compare(g.ddelta, adjoint.ddelta, kExact),
        common::compare(real_parts(g.dA), real_parts(adjoint.dA), kExact),
        common::compare(real_parts(g.dB), real_parts(adjoint.dB), kExact),
        common::compare(real_parts(g.dC), real_parts(adjoint.dC), kExact),
        common::compare(real_parts(g.dinitial_state), real_parts(adjoint.dinitial_state), kExact)};
    bool ok = true;
    double worst = 0;
    for (const common::Comparison& c : parts) ok = ok && c.ok, worst = std::max(worst, c.max_abs_error);
    nb.check(fmt::format("{} rank{}: out, last state and 6 gradients", ranks, ranks == 1 ? "" : "s"), ok,
             fmt::format("largest difference {:.1e}", worst));
  }
}

void section_traffic(common::Notebook& nb) {
  nb.section("Passing states or moving channels: what each GPU receives");
  nb.text(
      "A layer's scan of batch 1, 1536 channels, 16 states, bf16 (communication.hpp). Passing states receives P − 1 "
      "summaries, whatever the length; moving channels (an all-to-all to whole sequences of d / P channels and "
      "back) receives shares that grow with L / P.");
  std::vector<std::vector<std::string>> rows;
  for (const std::int64_t L : {std::int64_t(1) << 12, std::int64_t(1) << 16, std::int64_t(1) << 20})
    for (int ranks : {2, 4, 8}) {
      ScanShape s;
      s.dim = 1536, s.seqlen = L;
      const Traffic passing = state_passing(s, ranks), moving = moving_channels(s, ranks);
      rows.push_back(
          {fmt::format("{}", L), fmt::format("{}", ranks), fmt::format("{:.2f}", passing.forward_bytes / 1e6),
           fmt::format("{:.2f}", passing.backward_bytes / 1e6), fmt::format("{:.1f}", moving.forward_bytes / 1e6),
           fmt::format("{:.1f}", moving.backward_bytes / 1e6),
           fmt::format("{:.0f}×", moving.forward_bytes / passing.forward_bytes)});
    }
  nb.table({"L", "GPUs", "passing fwd MB", "passing bwd MB", "moving fwd MB", "moving bwd MB", "moving ÷ passing"},
           rows);
  ScanShape s;
  s.dim = 1536;
  nb.value("shortest L where passing receives no more, 2 / 4 / 8 GPUs",
           fmt::format("{} / {} / {}", crossover_seqlen(s, 2), crossover_seqlen(s, 4), crossover_seqlen(s, 8)));
}

}  // namespace ch11
