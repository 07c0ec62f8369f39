// ch04_hippo -- Chapter 04: HiPPO and S4D, memory as polynomial projection.
//
// A state that holds the Legendre coefficients of everything seen so far (HiPPO-LegS), or of
// a sliding window (LegT); the normal-plus-low-rank structure of LegS and the diagonal S4D
// initializations it leads to; their convolution kernels, on the GPU for many channels at
// once. Run with --help for the options; the chapter's text is README.md beside this file.
// The sections are in sections_*.cpp (sections.hpp lists them).
#include "chapter_main.hpp"
#include "options.hpp"
#include "sections.hpp"
#include "vandermonde_kernels.hpp"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  ch04::Options o;
  return common::run_chapter(
      {"ch04_hippo", "Chapter 04 · HiPPO and S4D: memory as polynomial projection", s4d::kKernelCount}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--length", o.length, "Samples of the signal LegS and LegT memorize")
            ->check(common::integer_in(64, 100000))
            ->capture_default_str();
        app.add_option("--state", o.state, "S4D state size N (even)")
            ->check(CLI::IsMember({8, 16, 32, 64, 128, 256}))
            ->capture_default_str();
        app.add_option("--channels", o.channels, "Channels of the GPU timing (without --bench)")
            ->check(common::integer_in(4, 65535))
            ->capture_default_str()
            ->group(common::kGpuOptions);
      },
      [&](common::Notebook& nb) {
        ch04::section_matrices(nb);
        ch04::section_legs_online(nb, o);
        ch04::section_legt(nb, o);
        ch04::section_eigenvalues(nb, o);
        ch04::section_s4d_kernels(nb, o);
        ch04::section_gpu(nb, o);
        ch04::section_benchmark(nb, o);
      });
}
