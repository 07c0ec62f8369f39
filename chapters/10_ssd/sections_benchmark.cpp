// Chapter 10's benchmark: the library's versions against the official Triton SSD, timed in the
// same device call on the same GPU (triton_bench.py ssd, given with --official).
#include "device_ssd.hpp"
#include "kernel_timer.hpp"
#include "official_ssd.hpp"
#include "sections.hpp"
#include "ssd_cost_model.hpp"
#include "tensor_core_peak.hpp"

#include "common_options.hpp"
#include "device_problem.hpp"
#include "gpu.hpp"
#include "timing.hpp"

#include <fmt/format.h>

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ch10 {

std::string ms(double milliseconds) { return fmt::format("{:.3f}", milliseconds); }

namespace {

std::string percent(double v) { return fmt::format("{:.0f}%", 100 * v); }

// The forward's products as the chunked algorithm counts them with chunks of 64 (version 3's), one
// C Bᵀ a group, whole tiles; and the bytes a fused forward must move at least (the benchmark's
// call: D a head, z, dt_bias; no states in or out).
SsdCost benchmark_cost(const BenchShape& shape) {
  CostShape c;
  c.batch = shape.batch, c.seqlen = shape.seqlen, c.heads = shape.heads, c.head_dim = shape.head_dim;
  c.groups = shape.groups, c.dstate = shape.dstate;
  c.input_bytes = shape.dtype == "bf16" ? 2 : 4;
  c.has_z = true, c.has_final_states = false;
  return ssd_cost_model(c, 64);
}

// Version 3 on the benchmark's shapes timed as triton_bench.py times the official kernels' own
// column: the sum of the GPU's own durations of the kernels a call runs (KernelTimer), without
// the gaps between launches that events around the call take in.
void kernels_alone(common::Notebook& nb, const std::map<std::string, OfficialSsdTime>& official, bool all) {
  KernelTimer timer({3, 10, true});
  std::vector<std::vector<std::string>> rows;
  for (const BenchShape& shape : bench_shapes(all)) {
    const ProblemSpec spec = shape.problem();
    const ssd::DataType type = shape.dtype == "bf16" ? ssd::DataType::bfloat16 : ssd::DataType::float32;
    if (!common::kernel_selected(nb.options(), int(ssd::Kernel::fused)) ||
        !gpu_refusal(spec.shape, type, ssd::Kernel::fused).empty() ||
        !gpu_backward_refusal(spec.shape, type, ssd::Kernel::fused).empty())
      continue;
    const double fwd = time_gpu_forward(spec, type, ssd::Kernel::fused, shape.chunk, timer).median_ms;
    const double fwd_bwd = time_gpu_forward_backward(spec, type, ssd::Kernel::fused, timer).median_ms;
    const auto o = official.find(shape.key());
    const auto with_official = [&](double OfficialSsdTime::*field, double ours) -> std::vector<std::string> {
      if (o == official.end()) return {"-", "-"};
      return {ms(o->second.*field), fmt::format("{:.2f}", o->second.*field / ours)};
    };
    std::vector<std::string> row = {shape.label(), ms(fwd)};
    for (const std::string& c : with_official(&OfficialSsdTime::fwd_kernels_ms, fwd)) row.push_back(c);
    row.push_back(ms(fwd_bwd));
    for (const std::string& c : with_official(&OfficialSsdTime::fwd_bwd_kernels_ms, fwd_bwd)) row.push_back(c);
    rows.push_back(row);
  }
  if (rows.empty()) return;
  nb.text(
      "Version 3 timed as triton_bench.py times the official kernels' own column: the sum of the GPU's own "
      "durations of the kernels a call runs (CUPTI's records, which torch.profiler reads), without the gaps "
      "between launches that events around the call take in; the L2 flushed first, the median of 10 calls. "
      "ratio: the official kernels' time ÷ ours.");
  nb.table({"shape", "v3 fwd kernels", "off. fwd", "ratio", "v3 f+b kernels", "off. f+b", "ratio"}, rows);
}

}  // namespace

// [snippet:benchmark]
void section_benchmark(common::Notebook& nb, const std::string& official_csv) {
  nb.section("Benchmark: the versions against the official Triton kernels");
  const bool bench = nb.options().bench;
  nb.text(
      "D, z, dt_bias and softplus on (the Mamba2 module's call), one group. Ours: CUDA events around the C++ call, "
      "the L2 flushed first, the median of 10 calls after 3 warm-ups; version 3 multiplies fp32 inputs as bf16 pairs, "
      "forward and backward; version 4 is version 3's forward on "
      "Hopper's warpgroup products, 16-bit inputs only; forward + backward runs the backward "
      "after a forward, as training does (version 2 has no backward of its own). off.: "
      "the official kernels timed by triton_bench.py in the same device call, their own GPU time (the strict "
      "figure), and 'off. call', events around the Python call (what a PyTorch caller waits). ratio: the "
      "official kernels' time ÷ our best version's (of those --kernel leaves, when it is given)." +
      std::string(bench ? "" : " Without --bench, the first shape only."));
  if (!nb.gpu()) return nb.gpu_skip("the benchmark");
  const auto official =
      official_csv.empty() ? std::map<std::string, OfficialSsdTime>{} : read_official_ssd_csv(official_csv);
  common::GpuTimer timer({3, 10, true});
  // The roofs, measured now: a bf16 GEMM's rate on the tensor cores, a copy's bandwidth.
  const double gemm_tflops = measure_bf16_gemm_tflops(timer);
  const std::size_t copy_bytes = std::size_t(1) << 30;
  common::require_device_memory(2 * copy_bytes, "the copy-bandwidth buffers");
  const double copy_gbps = common::measure_copy_bandwidth(copy_bytes);
  std::vector<std::vector<std::string>> rows, rates;
  // A version left out by --kernel, or one that does not take the shape, has no time: "-".
  const auto taken = [&](const BenchShape& shape, ssd::DataType type, ssd::Kernel kernel) {
    return common::kernel_selected(nb.options(), int(kernel)) &&
           gpu_refusal(shape.problem().shape, type, kernel).empty();
  };
  const auto cell = [](std::optional<double> v) { return v ? ms(*v) : std::string("-"); };
  const auto ratio = [](std::optional<double> official_ms, std::optional<double> ours) {
    return official_ms && ours ? fmt::format("{:.2f}", *official_ms / *ours) : std::string("-");
  };
  const auto fastest = [](std::initializer_list<std::optional<double>> times) {
    std::optional<double> best;
    for (const std::optional<double>& t : times)
      if (t && (!best || *t < *best)) best = t;
    return best;
  };
  for (const BenchShape& shape : bench_shapes(bench)) {
    const ProblemSpec spec = shape.problem();
    const ssd::DataType type = shape.dtype == "bf16" ? ssd::DataType::bfloat16 : ssd::DataType::float32;
    // Version 3 multiplies fp32 as bf16 pairs (148,736 bytes of shared memory a block at 64
    // states, 197,888 at 128: Hopper; its backward 149,764 and 215,300); version 4 takes 16-bit
    // inputs on an sm_90 GPU from sm_90a code.
    const auto forward = [&](ssd::Kernel kernel) -> std::optional<double> {
      if (!taken(shape, type, kernel)) return std::nullopt;
      return time_gpu_forward(spec, type, kernel, shape.chunk, timer).median_ms;
    };
    const std::optional<double> v1 = forward(ssd::Kernel::recurrence), v2 = forward(ssd::Kernel::chunked),
                                v3 = forward(ssd::Kernel::fused), v4 = forward(ssd::Kernel::warpgroup);
    const auto forward_backward = [&](ssd::Kernel kernel) -> std::optional<double> {
      if (!taken(shape, type, kernel) || !gpu_backward_refusal(shape.problem().shape, type, kernel).empty())
        return std::nullopt;
      return time_gpu_forward_backward(spec, type, kernel, timer).median_ms;
    };
    const std::optional<double> v1_fb = forward_backward(ssd::Kernel::recurrence),
                                v3_fb = forward_backward(ssd::Kernel::fused);
    const auto o = official.find(shape.key());
    const std::optional<OfficialSsdTime> off = o == official.end() ? std::nullopt : std::optional(o->second);
    const auto official_ms = [&](double OfficialSsdTime::*field) {
      return off ? std::optional<double>((*off).*field) : std::nullopt;
    };
    rows.push_back({shape.label(), cell(v1), cell(v2), cell(v3), cell(v4),
                    cell(official_ms(&OfficialSsdTime::fwd_kernels_ms)), cell(official_ms(&OfficialSsdTime::fwd_ms)),
                    ratio(official_ms(&OfficialSsdTime::fwd_kernels_ms), fastest({v1, v2, v3, v4})), cell(v1_fb),
                    cell(v3_fb), cell(official_ms(&OfficialSsdTime::fwd_bwd_kernels_ms)),
                    cell(official_ms(&OfficialSsdTime::fwd_bwd_ms)),
                    ratio(official_ms(&OfficialSsdTime::fwd_bwd_kernels_ms), fastest({v1_fb, v3_fb}))});
    if (type != ssd::DataType::float32) {  // the roof is a bf16 GEMM's
      const SsdCost cost = benchmark_cost(shape);
      const auto tflops = [&](double time_ms) { return double(cost.total_flops()) / (time_ms * 1e-3) / 1e12; };
      const auto v3_rate = [&](auto text) { return v3 ? text(*v3) : std::string("-"); };
      rates.push_back(
          {shape.label(), fmt::format("{:.0f}", double(cost.total_flops()) / 1e9),
           v3_rate([&](double t) { return fmt::format("{:.1f}", tflops(t)); }),
           v3_rate([&](double t) { return percent(tflops(t) / gemm_tflops); }),
           off ? fmt::format("{:.1f}", tflops(off->fwd_kernels_ms)) : "-",
           off ? percent(tflops(off->fwd_kernels_ms) / gemm_tflops) : "-",
           v3_rate([&](double t) { return fmt::format("{:.0f}", double(cost.fused_bytes) / (t * 1e-3) / 1e9); }),
           v3_rate([&](double t) { return percent(double(cost.fused_bytes) / (t * 1e-3) / 1e9 / copy_gbps); })});
    }
  }
  nb.table({"shape", "v1 fwd", "v2 fwd", "v3 fwd", "v4 fwd", "off. fwd", "off. call", "ratio", "v1 f+b", "v3 f+b",
            "off. f+b", "off. call", "ratio"},
           rows);
  if (official.empty()) nb.text("No --official times given: the official columns are empty.");
  kernels_alone(nb, official, bench);

  nb.text(fmt::format(
      "The forward's rates, against this GPU's roofs measured now: a cuBLAS GEMM of bf16 8192 × 8192 matrices "
      "(fp32 sums) reaches {:.0f} TFLOP/s, a device-to-device copy {:.0f} GB/s (read + write). GFLOP: the chunked "
      "algorithm's products with chunks of 64, C Bᵀ once a group, counted for both (version 3 runs more: C Bᵀ "
      "again for every head; the official kernels' chunks of 256 make larger tiles). GB/s: the bytes a fused forward "
      "must move at least, in version 3's time.",
      gemm_tflops, copy_gbps));
  nb.table({"shape", "GFLOP", "v3 TFLOP/s", "of the GEMM", "official TFLOP/s", "of the GEMM", "v3 GB/s", "of the copy"},
           rates);
}
// [/snippet:benchmark]

}  // namespace ch10
