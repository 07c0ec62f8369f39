// Chapter 10's CPU sections: the duality on one head, the chunked algorithm, and its cost.
#include "sections.hpp"

#include "decay_row.hpp"
#include "ssd_backward.hpp"
#include "ssd_chunked.hpp"
#include "ssd_chunked_backward.hpp"
#include "ssd_cost_model.hpp"
#include "ssd_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

namespace ch10 {
namespace {

ProblemSpec spec_of(std::int64_t batch, std::int64_t seqlen, int heads, int groups, int head_dim, int dstate) {
  ProblemSpec spec;
  spec.shape = {batch, seqlen, heads, head_dim, groups, dstate};
  return spec;
}

}  // namespace

// [snippet:duality]
void section_duality(common::Notebook& nb) {
  nb.section("The scan as one matrix: M = L ∘ C Bᵀ");
  nb.text(
      "One head, one channel (p = 1), two states, six steps. With one A a head the state's decay is a number, "
      "so y_i = Σ_{j ≤ i} C_i·B_j · exp(A (dt'_{j+1} + … + dt'_i)) · dt'_j x_j: y = M x with M lower triangular, "
      "M[i][j] = (C_i·B_j) · L[i][j] · dt'_j. The recurrence multiplies by M in O(L) steps; the quadratic form "
      "builds M whole.");
  const Problem p = make_problem(spec_of(1, 6, 1, 1, 1, 2), 1);
  const std::vector<double> dt = step_sizes(p);
  std::vector<std::vector<std::string>> rows;
  std::vector<double> y_by_matrix(6, 0.0);
  for (int i = 0; i < 6; ++i) {
    std::vector<std::string> row{fmt::format("{}", i)};
    const DecayRow decay = decay_row(p, dt, 0, 0, i);  // L[i][j] for j ≤ i
    for (int j = 0; j < 6; ++j) {
      double m = 0.0;
      if (j <= i) {
        const double cb = p.C[std::size_t(2 * i)] * p.B[std::size_t(2 * j)] +
                          p.C[std::size_t(2 * i + 1)] * p.B[std::size_t(2 * j + 1)];
        m = cb * decay.weights[std::size_t(j)] * dt[std::size_t(j)];
      }
      y_by_matrix[std::size_t(i)] += m * p.x[std::size_t(j)];
      row.push_back(j <= i ? fmt::format("{:.4f}", m) : "·");
    }
    rows.push_back(row);
  }
  nb.table({"i \\ j", "0", "1", "2", "3", "4", "5"}, rows);
  const Forward recurrence = ssd_recurrence(p);
  nb.check("M x (the matrix above) equals the recurrence's y",
           common::compare(y_by_matrix, recurrence.y, kFormsTolerance));
  const Problem wide = make_problem(
      [] {
        ProblemSpec s = spec_of(2, 37, 4, 2, 5, 16);
        s.D = DForm::per_channel, s.z = s.dt_softplus = s.dt_bias = s.initial_states = true;
        s.packing = {{9, 28}, {37}};
        return s;
      }(),
      2);
  nb.check("the quadratic form equals the recurrence (b 2, L 37, 4 heads, 2 groups, every option, packed)",
           common::compare(ssd_quadratic(wide).y, ssd_recurrence(wide).y, kFormsTolerance));
}
// [/snippet:duality]

void section_chunks(common::Notebook& nb) {
  nb.section("The chunked algorithm: products inside chunks, a scan across them");
  nb.text(
      "Cut the sequence into chunks of Q positions: inside a chunk, the quadratic form (matrix products); across "
      "chunks, the state each chunk leaves, passed on by a scan of pairs (decay, state), chapter 06's recurrence "
      "one level up. The five stages (ssd_chunked.hpp) against the recurrence, forward and every gradient, for "
      "chunks that divide the length and chunks that do not.");
  ProblemSpec spec = spec_of(2, 300, 4, 2, 8, 16);
  spec.D = DForm::per_head, spec.z = spec.dt_softplus = spec.dt_bias = spec.initial_states = true;
  spec.packing = {{1, 7, 292}, {300}};
  const Problem p = make_problem(spec, 3);
  const Forward ref = ssd_recurrence(p);
  std::vector<double> dy(p.x.size());
  for (std::size_t e = 0; e < dy.size(); ++e) dy[e] = std::sin(0.37 * double(e));
  const Gradients adjoint = ssd_backward(p, dy);
  // The gradients agree to rounding as the forms do: the same sums in another order.
  const common::Tolerance tol = kFormsTolerance;
  for (const std::int64_t chunk : {1, 16, 64, 100, 512}) {
    const Forward f = ssd_chunked(p, chunk);
    const Gradients g = ssd_chunked_backward(p, dy, {}, chunk);
    const std::vector<std::pair<const char*, common::Comparison>> parts = {
        {"y", common::compare(f.y, ref.y, tol)},
        {"final states", common::compare(f.final_states, ref.final_states, tol)},
        {"dx", common::compare(g.dx, adjoint.dx, tol)},
        {"ddt", common::compare(g.ddt, adjoint.ddt, tol)},
        {"dA", common::compare(g.dA, adjoint.dA, tol)},
        {"dB", common::compare(g.dB, adjoint.dB, tol)},
        {"dC", common::compare(g.dC, adjoint.dC, tol)},
        {"dinitial_states", common::compare(g.dinitial_states, adjoint.dinitial_states, tol)}};
    bool ok = true;
    double worst = 0.0;
    std::string failed;
    for (const auto& [name, c] : parts) {
      ok = ok && c.ok;
      worst = std::max(worst, c.max_abs_error);
      if (!c.ok) failed += fmt::format(" {}: {}", name, c.summary());
    }
    nb.check(fmt::format("chunk {:3}: y, final states and 6 gradients", chunk), ok,
             fmt::format("largest difference {:.1e}{}", worst, failed));
  }
}

void section_trade(common::Notebook& nb) {
  nb.section("The chunk size: FLOPs against bytes");
  nb.text(
      "A 2.7B model's layer (batch 1, L 2048, 80 heads of 64 channels, 128 states, bf16). The products inside a "
      "chunk grow with Q; the chunk states and the scan across chunks shrink with it; the bytes a fused kernel must "
      "move do not depend on Q. ssd_cost_model.hpp counts them.");
  CostShape shape;
  shape.batch = 1, shape.seqlen = 2048, shape.heads = 80, shape.head_dim = 64, shape.dstate = 128;
  std::vector<std::vector<std::string>> rows;
  common::Series intra{"inside chunks", {}, {}, "linespoints lw 2"},
      states{"chunk states, passing, to output", {}, {}, "linespoints lw 2"};
  for (const std::int64_t q : {16, 32, 64, 128, 256, 512, 1024}) {
    const SsdCost c = ssd_cost_model(shape, q);
    const double across = double(c.chunk_state_flops + c.state_passing_flops + c.state_to_output_flops);
    rows.push_back({fmt::format("{}", q), fmt::format("{:.2f}", double(c.intra_chunk_flops()) / 1e9),
                    fmt::format("{:.2f}", across / 1e9), fmt::format("{:.2f}", double(c.total_flops()) / 1e9),
                    fmt::format("{:.1f}", c.intensity()), fmt::format("{:.1f}", double(c.chunk_state_bytes) / 1e6)});
    intra.x.push_back(double(q)), intra.y.push_back(double(c.intra_chunk_flops()) / 1e9);
    states.x.push_back(double(q)), states.y.push_back(across / 1e9);
  }
  nb.table({"Q", "inside GFLOP", "across GFLOP", "total GFLOP", "FLOP/byte (fused)", "chunk states MB"}, rows);
  common::Figure figure;
  figure.name = "chunk_trade";
  figure.title = "FLOPs of the chunked SSD against Q (2.7B layer, L 2048)";
  figure.x_label = "chunk size Q";
  figure.y_label = "GFLOP";
  figure.log_x = true;
  figure.settings = {"set logscale x 2", "set format x '%g'", "set xrange [12:1400]",
                     "set xtics (16, 32, 64, 128, 256, 512, 1024)", "set key inside top left"};
  figure.series = {intra, states};
  nb.figure(figure);
}

}  // namespace ch10
