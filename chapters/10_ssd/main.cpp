// ch10_ssd -- Chapter 10 (in progress): Mamba-2's SSD, the selective scan with one A a head.
//
// With A a scalar per head the whole scan is one lower-triangular (semiseparable) matrix applied
// to the input; cut into chunks it becomes matrix products inside each chunk and a short scan
// across them. This program checks that duality and the chunked algorithm in fp64, weighs the
// chunk size, and checks the GPU library's versions against fp64.
// Run with --help for the options.
#include "chapter_main.hpp"
#include "common_options.hpp"
#include "official_ssd.hpp"
#include "sections.hpp"
#include "ssd.hpp"

#include <CLI/CLI.hpp>

#include <exception>
#include <string>

int main(int argc, char** argv) {
  std::string official_csv;
  return common::run_chapter(
      {"ch10_ssd", "Chapter 10 · Mamba-2's SSD: the scan as matrix products", 4}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--official", official_csv,
                       "triton_bench.py ssd's CSV, timed in the same device call: the benchmark's official times")
            ->check(CLI::ExistingFile)
            ->check(CLI::Validator(
                [](std::string& path) -> std::string {  // read now, before any work
                  try {
                    ch10::read_official_ssd_csv(path);
                    return "";
                  } catch (const std::exception& e) {
                    return e.what();
                  }
                },
                "FILE"))
            ->group(common::kGpuOptions);
      },
      [&](common::Notebook& nb) {
        ch10::section_duality(nb);
        ch10::section_chunks(nb);
        ch10::section_trade(nb);
        ch10::section_gpu_checks(nb);
        ch10::section_benchmark(nb, official_csv);
        ch10::section_across_shapes(nb, official_csv);
      });
}
