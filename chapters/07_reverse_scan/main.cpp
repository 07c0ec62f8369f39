// ch07_reverse_scan -- Chapter 07: the reverse scan, the gradient of the linear recurrence.
//
// Training needs ∂L/∂a and ∂L/∂b of h_k = a_k h_{k−1} + b_k. The gradient flows backwards in
// time through the same recurrence, so it is a scan too, run from the end. Run with --help for
// the options; the chapter's text is README.md beside this file. The sections are in
// sections_*.cpp (sections.hpp lists them).
#include "chapter_main.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "reverse_kernels.hpp"
#include "sections.hpp"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  ch07::Options o;
  return common::run_chapter(
      {"ch07_reverse_scan", "Chapter 07 · The reverse scan: the gradient of the recurrence", rscan::kKernelCount}, argc,
      argv,
      [&](CLI::App& app) {
        app.add_option("--check-length", o.check_length,
                       "Longest sequence of the checks (with 1, 2, 31, 33, 1000, ...)")
            ->check(common::integer_in(1, 1 << 26))
            ->capture_default_str();
      },
      [&](common::Notebook& nb) {
        // Before any work: the longest check holds its problem in fp64 (a, b, target, h, dy) and
        // either the simulation's steps and results or the fp64 gradients and the fp32 copies
        // sent to the GPU: at most about 72 bytes an element.
        common::require_host_memory(72.0 * double(o.check_length), "--check-length");
        ch07::section_small_example(nb, nb.options());
        ch07::section_finite_differences(nb, nb.options());
        ch07::section_vanishing(nb);
        ch07::section_warp_simulation(nb, nb.options(), o);
        ch07::section_gpu_checks(nb, nb.options(), o);
        ch07::section_memory(nb, nb.options());
        ch07::section_benchmark(nb, nb.options());
      });
}
