// ch08_selective_scan -- Chapter 08: Mamba's selective scan, forward and backward, on the GPU.
//
// For each channel and state the scan is the recurrence h_t = exp(δ_t A) h_{t−1} + δ_t B_t u_t,
// with the step size δ_t taken from the input; the output sums C_t h_t over the states. The
// library in selective_scan/ computes it and its gradients in five versions, and this program
// checks both against the fp64 reference and times them against the bytes they must move.
// Run with --help for the options; the chapter's text is README.md beside this file.
#include "chapter_main.hpp"
#include "official_times.hpp"
#include "options.hpp"
#include "sections.hpp"
#include "selective_scan.hpp"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <string>

namespace {

// "1-5", or "1-4; 5 needs sm_90" in a build for older GPUs alone.
std::string versions_built() {
  std::string built, missing;
  for (const auto& v : selective_scan::kVersions)
    (selective_scan::version_built(v.id) ? built : missing) += std::to_string(int(v.id));
  const auto range = [](const std::string& digits) {
    return digits.size() > 1 ? digits.substr(0, 1) + "-" + digits.substr(digits.size() - 1) : digits;
  };
  return missing.empty() ? range(built) : range(built) + "; " + range(missing) + " needs sm_90";
}

}  // namespace

int main(int argc, char** argv) {
  ch08::Options o;
  return common::run_chapter(
      {"ch08_selective_scan", "Chapter 08 · Mamba's selective scan, forward and backward",
       selective_scan::kVersionCount, versions_built()},
      argc, argv,
      [&](CLI::App& app) {
        // A version this build does not hold (version 5 without an sm_90 architecture) is refused
        // here, in one line, rather than skipped in every section.
        app.get_option("--kernel")
            ->check(CLI::Validator(
                [](std::string& value) -> std::string {
                  const auto k = selective_scan::Kernel(std::atoi(value.c_str()));
                  if (selective_scan::version_built(k)) return "";
                  return "version " + value + " is not in this build (CUDA architectures " +
                         selective_scan::built_architectures() + "): it needs sm_90";
                },
                "N"));
        app.add_option("--official", o.official_csv,
                       "official-bench's CSV, timed in the same device call: the benchmark's official times")
            ->check(CLI::ExistingFile)
            ->check(CLI::Validator(
                [](std::string& path) -> std::string {  // read now, before any work, not at the benchmark
                  try {
                    ch08::read_official_csv(path);
                    return "";
                  } catch (const std::exception& e) {
                    return e.what();
                  }
                },
                "FILE"))
            ->group(common::kGpuOptions);
        app.add_option("--dtype", o.dtypes, "Input types of the GPU checks and of the small benchmark (repeatable)")
            ->check(CLI::IsMember({"fp32", "fp16", "bf16"}))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--check-seqlen", o.check_seqlen, "seqlen of the longest GPU check (dstate 64)")
            ->check(common::integer_in(1, 1 << 16))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--batch", o.batch, "batch of the benchmark without --bench")
            ->check(common::integer_in(1, 16))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--dim", o.dim, "dim of the benchmark without --bench")
            ->check(common::integer_in(1, 1024))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--seqlen", o.seqlen, "seqlen of the benchmark without --bench")
            ->check(common::integer_in(1, 1 << 16))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--dstate", o.dstate, "dstate of the benchmark without --bench")
            ->check(common::integer_in(1, selective_scan::kMaxStates))
            ->capture_default_str()
            ->group(common::kGpuOptions);
      },
      [&](common::Notebook& nb) {
        if (nb.gpu() && !nb.options().bench) ch08::require_benchmark_fits(o);
        ch08::section_one_channel(nb);
        ch08::section_selective_delta(nb);
        ch08::section_state_decay(nb);
        ch08::section_zoh_vs_euler(nb);
        ch08::section_gradients(nb);
        ch08::section_bytes(nb);
        ch08::section_gpu_checks(nb, o);
        ch08::section_benchmark(nb, o);
        ch08::section_packed(nb, o);
      });
}
