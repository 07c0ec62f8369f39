// Chapter 07's benchmark: the reverse passes timed on a fixed number of steps split into
// sequences of different lengths, each against a copy of the same bytes in the same run.
#include "benchmark_sweep.hpp"
#include "gpu_reverse.hpp"
#include "reverse_kernels.hpp"
#include "sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace ch07 {

namespace {

// "3 block scan" for reverse_block_scan: short, and a figure's legend reads '_' as a subscript.
std::string legend_name(const rscan::KernelInfo& k) {
  std::string words = k.name;
  if (words.starts_with("reverse_")) words.erase(0, 8);
  std::replace(words.begin(), words.end(), '_', ' ');
  return fmt::format("{} {}", static_cast<int>(k.id), words);
}

}  // namespace

void section_benchmark(Notebook& nb, const common::CommonOptions& common) {
  nb.section("Throughput against a copy, measured in the same run");
  if (!nb.gpu()) return nb.gpu_skip("the benchmark");
  const bool bench = common.bench;
  const std::size_t total = std::size_t(1) << (bench ? 25 : 22);
  std::vector<std::size_t> lengths{256, 4096, 65536};
  if (bench) lengths = {64, 256, 1024, 4096, 16384, 65536, 262144, 1 << 20};
  const auto shape_at = [&](std::size_t point) { return Shape{total / lengths[point], lengths[point]}; };

  // Each point's bytes, the copy's: those of versions 1-3 (version 4 moves more, steps.bytes says).
  std::vector<common::SweepPoint> points;
  for (std::size_t i = 0; i < lengths.size(); ++i) {
    const Shape shape = shape_at(i);
    points.push_back({{shape_name(shape)},
                      shape_name(shape),
                      {double(shape.length),
                       {std::to_string(shape.sequences), std::to_string(shape.length)},
                       double(rscan::bytes_moved_backward(rscan::Kernel::block_reverse, shape))}});
  }
  std::vector<common::SweepVersion> versions;
  std::string numbered;
  for (const auto& k : rscan::kKernels) {
    const int id = static_cast<int>(k.id);
    versions.push_back(
        {id, fmt::format("v{}", id), fmt::format("{} {}", id, k.name), fmt::format("version {}", id), legend_name(k)});
    numbered += fmt::format("{}{} {}", numbered.empty() ? "" : ", ", id, k.name);
  }
  common::BenchmarkSweep sweep(nb, {.csv_name = "benchmark.csv",
                                    .size_columns = {"sequences", "length"},
                                    .label_headers = {"sequences × length"},
                                    .copy = true,
                                    .caption = fmt::format("GB/s of the reverse pass (v = version: {}):", numbered),
                                    .timing = {2, bench ? 15 : 5, true}});
  // The point's problem, its fp64 gradients and its fp32 copy on the GPU, with h stored.
  std::optional<Problem> p;
  std::optional<rscan::Gradients> expected;
  std::optional<rscan::GpuProblem> gpu;
  common::BenchmarkSweep::Steps steps;
  steps.prepare_gpu = [&](std::size_t i) {
    gpu.reset(), expected.reset(), p.reset();  // the last point's, gone before this one's (as large) are made
    p = random_problem(shape_at(i), common.seed + lengths[i]);
    expected = rscan::backward(p->shape, p->a, p->h, p->dy);
    gpu.emplace(p->shape, rscan::to_float(p->a), rscan::to_float(p->b), rscan::to_float(p->dy));
    gpu->store_h();
  };
  // One thread walking a long sequence takes seconds: version 1 only where it is short.
  steps.takes = [&](std::size_t i, std::size_t v) {
    return rscan::kKernels[v].id != rscan::Kernel::sequential || lengths[i] <= 4096;
  };
  steps.bytes = [&](std::size_t i, std::size_t v) {
    return double(rscan::bytes_moved_backward(rscan::kKernels[v].id, shape_at(i)));
  };
  steps.poison = [&](std::size_t) { gpu->poison_gradients(); };
  steps.run = [&](std::size_t v) { gpu->backward(rscan::kKernels[v].id); };
  steps.check = [&](std::size_t) {
    const auto grad_b = common::compare(gpu->grad_b(), expected->g, kGradB);
    const auto grad_a = common::compare(gpu->grad_a(), expected->grad_a, kGradA);
    return grad_b.ok && grad_a.ok ? std::string()
                                  : fmt::format("dL/db {}; dL/da {}", grad_b.summary(), grad_a.summary());
  };
  sweep.run(points, versions, steps);
  sweep.report("the timed versions match fp64 before and after timing",
               fmt::format("dL/db tol atol {:.0e} + rtol {:.0e}·|ref|; dL/da atol {:.0e} + rtol {:.0e}·|ref|",
                           kGradB.atol, kGradB.rtol, kGradA.atol, kGradA.rtol));
  nb.figure({"throughput",
             fmt::format("Reverse pass throughput, {} steps in all (fp32)", total),
             "sequence length L (sequences = total / L)",
             "GB/s",
             true,
             false,
             sweep.series(),
             {"set offsets 0, 0, graph 0.1, 0"}});  // the copy's line clear of the top
}

}  // namespace ch07
