// Chapter 07's GPU checks: every version against the fp64 reverse pass on awkward shapes, and
// the memory each way of knowing h keeps, modelled and measured.
#include "gpu_reverse.hpp"
#include "reverse_kernels.hpp"
#include "sections.hpp"
#include "timing.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace ch07 {

using common::Figure;
using common::Series;

namespace {

std::vector<Shape> check_shapes(const Options& o) {
  return {{3, 1},
          {3, 2},
          {3, 31},
          {3, 33},
          {3, 257},
          {3, 1000},
          {2 * 5 * 16, 1000},
          {1000, 1},
          {1, static_cast<std::size_t>(o.check_length)}};
}

// One check line for a version and a gradient over many problems: their comparisons merged
// (all with the same tolerance), and on a failure the worst element named by its problem.
class MergedCheck {
 public:
  void add(const common::Comparison& c, const std::string& problem) {
    const std::size_t offset = total_.count;
    if (parts_.empty()) {
      total_ = c;
    } else {
      // Name the first failure; a non-finite element outranks one that is only out of tolerance.
      if (!c.ok && (total_.ok || (c.non_finite > 0 && total_.non_finite == 0))) {
        total_.worst_index = offset + c.worst_index;
        total_.worst_got = c.worst_got;
        total_.worst_expected = c.worst_expected;
      }
      total_.ok = total_.ok && c.ok;
      total_.count += c.count;
      total_.failures += c.failures;
      total_.non_finite += c.non_finite;
      total_.max_abs_error = std::max(total_.max_abs_error, c.max_abs_error);
      total_.max_rel_error = std::max(total_.max_rel_error, c.max_rel_error);
    }
    parts_.push_back({offset, problem});
  }
  void report(Notebook& nb, const std::string& what) const {
    nb.check(what, total_, [&](std::size_t i) {
      auto it = std::prev(std::upper_bound(parts_.begin(), parts_.end(), i,
                                           [](std::size_t v, const auto& part) { return v < part.first; }));
      return fmt::format("element {} of {}", i - it->first, it->second);
    });
  }

 private:
  common::Comparison total_;
  std::vector<std::pair<std::size_t, std::string>> parts_;  // (first element, problem)
};

// Every selected version against the fp64 reverse pass on the problems of a section, outputs
// poisoned first. The section prints one line per version and gradient, not one per problem.
class VersionChecks {
 public:
  // Runs every selected version on p; returns whether all of them matched.
  bool run(const Notebook& nb, const Problem& p, const std::string& when) {
    const auto expected = rscan::backward(p.shape, p.a, p.h, p.dy);
    rscan::GpuProblem gpu(p.shape, rscan::to_float(p.a), rscan::to_float(p.b), rscan::to_float(p.dy));
    const std::string problem = shape_name(p.shape) + when;
    bool ok = true;
    for (const auto& k : rscan::kKernels) {
      if (!common::kernel_selected(nb.options(), static_cast<int>(k.id))) continue;
      gpu.gradients(k.id);
      const auto grad_b = common::compare(gpu.grad_b(), expected.g, kGradB);
      const auto grad_a = common::compare(gpu.grad_a(), expected.grad_a, kGradA);
      ok &= grad_b.ok && grad_a.ok;
      auto& merged = merged_[static_cast<int>(k.id)];
      merged.first.add(grad_b, problem);
      merged.second.add(grad_a, problem);
    }
    return ok;
  }
  // `over` says what the lines cover, e.g. "9 problems".
  void report(Notebook& nb, const std::string& over) const {
    for (const auto& [id, merged] : merged_) {
      const std::string version = fmt::format("{} {}", id, rscan::kKernels[id - 1].name);
      merged.first.report(nb, fmt::format("{} dL/db, {}", version, over));
      merged.second.report(nb, fmt::format("{} dL/da, {}", version, over));
    }
  }

 private:
  std::map<int, std::pair<MergedCheck, MergedCheck>> merged_;  // by version: dL/db, dL/da
};

std::string shape_list(const std::vector<Shape>& shapes) {
  std::string list;
  for (Shape s : shapes) list += (list.empty() ? "" : ", ") + shape_name(s);
  return list;
}

}  // namespace

void section_gpu_checks(Notebook& nb, const common::CommonOptions& common, const Options& o) {
  nb.section("Every GPU version against the fp64 reverse pass (sequences × length)");
  if (!nb.gpu()) return nb.gpu_skip("the GPU checks");
  const auto shapes = check_shapes(o);
  nb.value("problems", shape_list(shapes));
  VersionChecks checks;
  for (Shape shape : shapes) checks.run(nb, random_problem(shape, common.seed + shape.length), "");
  checks.report(nb, fmt::format("{} problems", shapes.size()));
}

void section_memory(Notebook& nb, const common::CommonOptions& common) {
  nb.section("Storing h or recomputing it: the memory kept and the bytes moved");
  const Shape shape{1024, 4096};
  std::vector<std::vector<std::string>> rows;
  for (rscan::Kernel k : {rscan::Kernel::block_reverse, rscan::Kernel::recompute_h}) {
    const auto& info = rscan::kKernels[static_cast<int>(k) - 1];
    rows.push_back({fmt::format("{} {}", static_cast<int>(k), info.name),
                    fmt::format("{:.3f}", rscan::bytes_kept_for_h(k, shape) / 1e6),
                    fmt::format("{:.1f}", double(rscan::bytes_moved_per_step(k, shape)) / shape.size()),
                    fmt::format("{:.1f}", double(rscan::bytes_moved_backward(k, shape)) / shape.size())});
  }
  nb.text(fmt::format("Model, for {} sequences × {} steps, fp32:", shape.sequences, shape.length));
  nb.table({"version", "MB kept for h", "bytes/step, forward + backward", "bytes/step, backward"}, rows);
  Figure fig{"memory_kept",
             "Memory kept for h between the passes (fp32)",
             "sequence length L (one sequence)",
             "bytes",
             true,
             true,
             {},
             {"set key inside top left"}};
  Series stored{"store every h (versions 1-3)", {}, {}}, kept{"one state per chunk of 256 (version 4)", {}, {}};
  for (int e = 0; e <= 20; ++e) {
    const Shape one{1, std::size_t(1) << e};
    stored.x.push_back(double(one.length));
    stored.y.push_back(double(rscan::bytes_kept_for_h(rscan::Kernel::block_reverse, one)));
    kept.x.push_back(double(one.length));
    kept.y.push_back(double(rscan::bytes_kept_for_h(rscan::Kernel::recompute_h, one)));
  }
  fig.series = {stored, kept};
  nb.figure(fig);

  if (!nb.gpu()) return nb.gpu_skip("the measured allocations and timings");
  // Measured: the device's free memory before and after each way of keeping h.
  const Problem p = random_problem(shape, common.seed);
  rscan::GpuProblem gpu(p.shape, rscan::to_float(p.a), rscan::to_float(p.b), rscan::to_float(p.dy));
  auto free_bytes = [] {
    std::size_t free = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free, &total));
    return free;
  };
  const std::size_t before_h = free_bytes();
  gpu.gradients(rscan::Kernel::block_reverse);
  const std::size_t after_h = free_bytes();
  gpu.gradients(rscan::Kernel::recompute_h);
  const std::size_t after_checkpoints = free_bytes();
  nb.value("device memory taken by the stored h (measured)",
           fmt::format("{:.3f} MB", double(before_h - after_h) / 1e6));
  nb.value("device memory taken by the checkpoints (measured)",
           fmt::format("{:.3f} MB (cudaMalloc works in pages of about 2 MB: a small array reads as one page or none)",
                       double(after_h - after_checkpoints) / 1e6));
  common::GpuTimer timer({2, 10, true});
  const auto stored_step = timer.time([&] {
    gpu.store_h();
    gpu.backward(rscan::Kernel::block_reverse);
  });
  const auto recomputed_step = timer.time([&] { gpu.backward(rscan::Kernel::recompute_h); });
  nb.value("forward storing h + version 3", fmt::format("{:.3f} ms (median)", stored_step.median_ms));
  nb.value("version 4 (its own forward pass included)", fmt::format("{:.3f} ms (median)", recomputed_step.median_ms));
  VersionChecks after_timing;
  after_timing.run(nb, p, ", after timing");
  after_timing.report(nb, shape_name(shape) + ", after timing");
}

}  // namespace ch07
