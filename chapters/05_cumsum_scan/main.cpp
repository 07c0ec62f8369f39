// ch05_cumsum_scan -- Chapter 05: the cumulative sum as a parallel scan.
//
// The running sum y_k = x_0 + ... + x_k looks as sequential as chapter 01's RNN, but + is
// associative, and that is enough to compute it in O(log N) parallel steps. Run with --help
// for the options; the chapter's text is README.md beside this file. The sections are in
// sections_*.cpp (sections.hpp lists them).
#include "chapter_main.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "scan_kernels.hpp"
#include "sections.hpp"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  ch05::Options o;
  return common::run_chapter(
      {"ch05_cumsum_scan", "Chapter 05 · The cumulative sum as a parallel scan", scan::kKernelCount}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--check-size", o.check_size, "Largest N of the checks (with 1, 2, 31, 33, 1000, ...)")
            ->check(common::integer_in(1, 1 << 28))
            ->capture_default_str();
        app.add_option("--tiles", o.tiles, "Tiles in the look-back simulation")
            ->check(common::integer_in(1, 64))
            ->capture_default_str();
        app.add_option("--resident-blocks", o.resident_blocks, "Blocks resident at once in the look-back simulation")
            ->check(common::integer_in(1, 64))
            ->capture_default_str();
      },
      [&](common::Notebook& nb) {
        // Before any work: section 1 holds N inputs, their fp32 scan and the fp64 one (16 bytes
        // an element); with a GPU, section 5 holds the fp64 scan, a version's result and the
        // merged lists its check compares (24).
        common::require_host_memory((nb.gpu() ? 24.0 : 16.0) * double(o.check_size), "--check-size");
        ch05::section_reference(nb, o);
        ch05::section_hillis_steele(nb);
        ch05::section_blelloch(nb);
        ch05::section_look_back(nb, o);
        ch05::section_gpu(nb, o);
        ch05::section_benchmark(nb);
      });
}
