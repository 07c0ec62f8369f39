// Chapter 08's GPU checks: every version, input type and case against the fp64 reference under
// the official suite's tolerances, and the deterministic backward run twice.
#include "sections.hpp"

#include "check_group.hpp"
#include "cuda_check.hpp"
#include "device_problem.hpp"
#include "reference.hpp"
#include "selective_scan.hpp"
#include "tolerances.hpp"
#include "verdict.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ch08 {
namespace {

using common::Notebook;

struct CheckCase {
  std::string name;  // what the case tries
  Problem shape;
  std::string size() const {
    return fmt::format("({}, {}, {}, {})", shape.batch, shape.dim, shape.seqlen, shape.dstate);
  }
};

std::vector<CheckCase> check_cases(const Options& o) {
  std::vector<CheckCase> cases;
  Problem s;
  s.batch = 2, s.dim = 4, s.seqlen = 372, s.dstate = 8;
  s.has_D = s.has_z = s.has_delta_bias = s.delta_softplus = true;
  cases.push_back({"the official test suite's shape, every option", s});
  s = Problem{};
  s.variable_B = s.variable_C = false;
  cases.push_back({"constant B and C, nothing optional", s});
  s = Problem{};
  s.batch = 2, s.dim = 6, s.seqlen = selective_scan::kChunkLength + 1, s.dstate = 16, s.groups = 2;
  s.has_D = s.has_z = s.delta_softplus = s.has_initial_state = true;
  cases.push_back({"one chunk + 1, 2 groups, initial state", s});
  s = Problem{};
  s.batch = 3, s.dim = 5, s.seqlen = 37, s.dstate = 5, s.complex = true, s.variable_B = false;
  s.has_D = s.has_z = true;
  cases.push_back({"complex A, constant B, variable C", s});
  s = Problem{};
  s.batch = 1, s.dim = 3, s.seqlen = o.check_seqlen, s.dstate = 64;
  s.has_delta_bias = s.delta_softplus = true;
  cases.push_back({"dstate 64, no gate", s});
  return cases;
}

}  // namespace

void section_gpu_checks(Notebook& nb, const Options& o) {
  nb.section("Every version against the fp64 reference");
  std::string list;
  for (const auto& k : selective_scan::kVersions) list += fmt::format("\n  {:>2}  {:<8} {}", int(k.id), k.name, k.idea);
  nb.text("The versions (selective_scan.hpp):" + list);
  for (const auto& k : selective_scan::kVersions)
    if (!selective_scan::version_built(k.id))
      nb.skip(fmt::format("version {}", int(k.id)),
              fmt::format("not in this build (CUDA architectures {}): it needs sm_90",
                          selective_scan::built_architectures()));
  const std::vector<CheckCase> cases = check_cases(o);
  std::string case_list;
  for (const CheckCase& c : cases) case_list += fmt::format("\n  {:<18} {}", c.size(), c.name);
  nb.text(
      "Forward and backward of each version on the official test suite's data, rounded to the input type\n"
      "first; outputs poisoned (NaN) before every run; every output and gradient within the official\n"
      "suite's tolerances (official_baseline.md) against the fp64 reference of the rounded inputs, dA's\n"
      "widened by its fp32 rounding bound (verdict.cpp; the tests apply the same verdict).\n"
      "The cases, (batch, dim, seqlen, dstate):" +
      case_list);
  nb.text(
      "One line per version and input type: its cases together, and the tensor that came nearest its bound\n"
      "(1 = at the bound). A case that fails gets a line of its own.");
  if (!nb.gpu()) return nb.gpu_skip("the GPU checks");
  const std::vector<Run> runs = selected_runs(nb.options());
  const std::vector<DataType> types = selected_dtypes(o);
  std::vector<std::vector<ch08::CheckGroup>> groups(runs.size(), std::vector<ch08::CheckGroup>(types.size()));
  std::uint64_t seed = nb.options().seed;
  for (const CheckCase& c : cases) {
    for (std::size_t ti = 0; ti < types.size(); ++ti) {
      const DataType type = types[ti];
      const Problem p = ch08::as_gpu_sees(ch08::make_official_test_problem(c.shape, unsigned(++seed)), type);
      const std::vector<double> dout =
          ch08::round_to(normal_values(std::size_t(p.sequence_elements()), seed + 1000), type);
      const ch08::ForwardResult expected = ch08::reference_forward(p);
      const ch08::Gradients expected_grad = ch08::reference_backward(p, dout);
      const ch08::OfficialTolerances tol = ch08::official_tolerances(type, p);
      for (std::size_t r = 0; r < runs.size(); ++r) {
        const Run& run = runs[r];
        ch08::DeviceProblem device(p, type, run.kernel, false, 0, run.keep_checkpoints);
        if (run.keep_checkpoints && !device.forward_params().state_checkpoints)
          continue;  // version 5 declines the call
        device.set_dout(dout);
        device.poison_outputs();
        device.forward();
        device.backward();
        CUDA_CHECK(cudaDeviceSynchronize());
        Verdict v;
        for (const ch08::TensorVerdict& t :
             ch08::judge_run(p, tol, device.forward_result(), expected, device.gradients(), expected_grad))
          v.add(t);
        groups[r][ti].add({fmt::format("version {}, {}, {} {}", run.label(), dtype_name(type), c.size(), c.name),
                           v.ok(), v.failure(), v.tensors(), v.worst(),
                           fmt::format("{} in {}", v.worst_name(), c.size())});
      }
    }
  }
  for (std::size_t r = 0; r < runs.size(); ++r)
    for (std::size_t ti = 0; ti < types.size(); ++ti)
      groups[r][ti].report(nb, fmt::format("version {}, {}", runs[r].label(), dtype_name(types[ti])), "cases",
                           [](int count, int tensors) {
                             return fmt::format("{} cases, {} tensors within the official tolerances", count, tensors);
                           });

  // The deterministic backward sums in a fixed order: two runs, every bit the same.
  const CheckCase& c = cases[2];
  const Problem p = ch08::make_official_test_problem(c.shape, unsigned(seed + 1));
  const std::vector<double> dout = normal_values(std::size_t(p.sequence_elements()), seed + 2);
  ch08::CheckGroup deterministic;
  for (const auto& k : selective_scan::kVersions) {
    if (!common::kernel_selected(nb.options(), int(k.id)) || !selective_scan::version_built(k.id)) continue;
    std::vector<ch08::Gradients> twice;
    for (int run = 0; run < 2; ++run) {
      ch08::DeviceProblem device(p, DataType::float32, k.id, /*deterministic=*/true);
      device.set_dout(dout);
      device.forward();
      device.backward();
      twice.push_back(device.gradients());
    }
    const ch08::Gradients &a = twice[0], &b = twice[1];
    const bool identical = a.du == b.du && a.ddelta == b.ddelta && a.dz == b.dz && a.dA == b.dA && a.dB == b.dB &&
                           a.dC == b.dC && a.dD == b.dD && a.ddelta_bias == b.ddelta_bias &&
                           a.dinitial_state == b.dinitial_state;
    deterministic.add(
        {fmt::format("version {}, deterministic backward: two runs bit-identical on {}", version_label(k.id), c.size()),
         identical, "the two runs differ", 1, 0, ""});
  }
  deterministic.report(nb, fmt::format("deterministic backward, fp32, {} {}", c.size(), c.name), "versions",
                       [](int count, int) {
                         return fmt::format("{} versions, two runs each: every gradient equal, bit for bit", count);
                       });
}

}  // namespace ch08
