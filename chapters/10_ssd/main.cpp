// ch10_ssd -- Chapter 10 (in progress): Mamba-2's SSD, the selective scan with one A a head.
//
// With A a scalar per head the whole scan is one lower-triangular (semiseparable) matrix applied
// to the input; cut into chunks it becomes matrix products inside each chunk and a short scan
// across them. This program checks that duality and the chunked algorithm in fp64, weighs the
// chunk size, and checks the GPU library's versions against fp64.
// Run with --help for the options.
#include "chapter_main.hpp"
#include "sections.hpp"
#include "ssd.hpp"

int main(int argc, char** argv) {
  return common::run_chapter(
      {"ch10_ssd", "Chapter 10 · Mamba-2's SSD: the scan as matrix products", 2}, argc, argv, [](CLI::App&) {},
      [](common::Notebook& nb) {
        ch10::section_duality(nb);
        ch10::section_chunks(nb);
        ch10::section_trade(nb);
        ch10::section_gpu_checks(nb);
      });
}
