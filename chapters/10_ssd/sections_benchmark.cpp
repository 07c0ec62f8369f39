// Chapter 10's benchmark: the library's versions against the official Triton SSD, timed in the
// same device call on the same GPU (triton_bench.py ssd, given with --official).
#include "device_ssd.hpp"
#include "official_ssd.hpp"
#include "sections.hpp"

#include "device_problem.hpp"

#include <fmt/format.h>

#include <optional>
#include <string>
#include <vector>

namespace ch10 {
namespace {

std::string ms(double v) { return fmt::format("{:.3f}", v); }

}  // namespace

// [snippet:benchmark]
void section_benchmark(common::Notebook& nb, const std::string& official_csv) {
  nb.section("Benchmark: the versions against the official Triton kernels");
  const bool bench = nb.options().bench;
  nb.text(
      "D, z, dt_bias and softplus on (the Mamba2 module's call), one group. Ours: CUDA events around the C++ call, "
      "the L2 flushed first, the median of 10 calls after 3 warm-ups; version 3 takes 16-bit inputs only; version 1's "
      "forward + backward runs its backward after a forward, as training does (versions 2 and 3 have no backward of "
      "their own). The official kernels: "
      "triton_bench.py in the same device call, its 'kernels' column (the GPU kernels' own times, the strict "
      "figure) and its 'call' column (events around the Python call, what a PyTorch caller waits). ratio: the "
      "official kernels' time ÷ our best version's." +
      std::string(bench ? "" : " Without --bench, the first shape only."));
  if (!nb.gpu()) return nb.gpu_skip("the benchmark");
  const auto official =
      official_csv.empty() ? std::map<std::string, OfficialSsdTime>{} : read_official_ssd_csv(official_csv);
  common::GpuTimer timer({3, 10, true});
  std::vector<std::vector<std::string>> rows;
  for (const BenchShape& shape : bench_shapes(bench)) {
    ProblemSpec spec;
    spec.shape = {shape.batch, shape.seqlen, shape.heads, shape.head_dim, shape.groups, shape.dstate};
    spec.D = DForm::per_head, spec.z = spec.dt_bias = spec.dt_softplus = true;
    const ssd::DataType type = shape.dtype == "bf16" ? ssd::DataType::bfloat16 : ssd::DataType::float32;
    const double v1 = time_gpu_forward(spec, type, ssd::Kernel::recurrence, shape.chunk, timer).median_ms;
    const double v2 = time_gpu_forward(spec, type, ssd::Kernel::chunked, shape.chunk, timer).median_ms;
    const bool has_v3 = type != ssd::DataType::float32;  // version 3 takes 16-bit inputs only
    const double v3 = has_v3 ? time_gpu_forward(spec, type, ssd::Kernel::fused, shape.chunk, timer).median_ms : v2;
    const double best = std::min({v1, v2, v3});
    const double v1_fb = time_gpu_forward_backward(spec, type, timer).median_ms;
    const auto o = official.find(shape.key());
    const std::optional<OfficialSsdTime> off = o == official.end() ? std::nullopt : std::optional(o->second);
    rows.push_back({shape.label(), ms(v1), ms(v2), has_v3 ? ms(v3) : "-", off ? ms(off->fwd_kernels_ms) : "-",
                    off ? ms(off->fwd_ms) : "-", off ? fmt::format("{:.2f}", off->fwd_kernels_ms / best) : "-",
                    ms(v1_fb), off ? ms(off->fwd_bwd_kernels_ms) : "-", off ? ms(off->fwd_bwd_ms) : "-",
                    off ? fmt::format("{:.2f}", off->fwd_bwd_kernels_ms / v1_fb) : "-"});
  }
  nb.table({"shape", "v1 fwd", "v2 fwd", "v3 fwd", "official kernels", "official call", "ratio", "v1 f+b",
            "official kernels", "official call", "ratio"},
           rows);
  if (official.empty()) nb.text("No --official times given: the official columns are empty.");
}
// [/snippet:benchmark]

}  // namespace ch10
