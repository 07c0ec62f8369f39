// ch03_conv_kernel -- Chapter 03: the convolution view of an SSM.
//
// The kernel K̄ of a diagonal SSM, the Toeplitz products it defines (forward and backward),
// the GPU versions of the causal product, the FFT path, and why input-dependent Δ, B, C
// leave no kernel to convolve with. Run with --help for the options; the chapter's text is
// README.md beside this file. The sections are in sections_*.cpp (sections.hpp lists them).
#include "chapter_main.hpp"
#include "conv_kernels.hpp"
#include "options.hpp"
#include "sections.hpp"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  ch03::Options o;
  return common::run_chapter(
      {"ch03_conv_kernel", "Chapter 03 · The convolution view: K̄, Toeplitz products, FFT", conv::kKernelCount}, argc,
      argv,
      [&](CLI::App& app) {
        app.add_option("--batch", o.batch, "Sequences per channel for the GPU check")
            ->check(common::integer_in(1, 1 << 16))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--channels", o.channels, "Channels (each with its own K̄) for the GPU check")
            ->check(common::integer_in(1, 1 << 16))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--length", o.length,
                       "Sequence length n for the GPU check (its fp64 reference is O(n²) on the CPU)")
            ->check(common::integer_in(1, 1 << 14))
            ->capture_default_str()
            ->group(common::kGpuOptions);
      },
      [&](common::Notebook& nb) {
        if (nb.gpu()) ch03::require_gpu_check_fits(o);
        ch03::section_kernel(nb, o);
        ch03::section_oscillating(nb, o);
        ch03::section_toeplitz(nb, o);
        ch03::section_backward(nb, o);
        ch03::section_gpu(nb, o);
        ch03::section_benchmark(nb);
        ch03::section_time_varying(nb, o);
      });
}
