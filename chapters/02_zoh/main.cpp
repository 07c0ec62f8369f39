// ch02_zoh -- Chapter 02: from continuous to discrete.
//
// The continuous state space model h' = Ah + Bx, y = Ch + Dx, and four ways to turn it into
// the recurrence h_k = Ā h_{k-1} + B̄ x_k: zero-order hold (ZOH), bilinear, forward Euler and
// Mamba's mix. Run with --help for the options; the chapter's text is README.md beside this
// file. The sections are in sections_*.cpp (sections.hpp lists them).
#include "chapter_main.hpp"
#include "gpu.hpp"
#include "gpu_discretize.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "sections.hpp"
#include "selective.hpp"
#include "zoh_kernels.hpp"

#include <CLI/CLI.hpp>

namespace {

constexpr const char* kShapeOptions = "--batch × --length × --channels × --state";

}  // namespace

int main(int argc, char** argv) {
  ch02::Options o;
  return common::run_chapter(
      {"ch02_zoh", "Chapter 02 · From continuous to discrete", zoh::kKernelCount}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--batch", o.batch, "Sequences in the GPU check")
            ->check(common::integer_in(1, 1 << 16))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--length", o.length, "Tokens per sequence L in the GPU check")
            ->check(common::integer_in(1, 1 << 20))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--channels", o.channels, "Channels D in the GPU check")
            ->check(common::integer_in(1, 1 << 16))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_option("--state", o.state, "State size N in the GPU check")
            ->check(common::integer_in(1, 1024))
            ->capture_default_str()
            ->group(common::kGpuOptions);
      },
      [&](common::Notebook& nb) {
        // Before any work: the sizes are the GPU check's, and take memory only where it runs.
        if (nb.gpu()) {
          const zoh::SelectiveShape shape{o.batch, o.length, o.channels, o.state};
          common::require_host_memory(ch02::check_host_bytes(shape), kShapeOptions);
          common::require_device_memory(zoh::GpuDiscretization::device_bytes(shape), kShapeOptions);
        }
        ch02::section_four_rules(nb);
        ch02::section_exact_for_staircase(nb);
        ch02::section_responses(nb);
        ch02::section_diagonal(nb);
        ch02::section_gap(nb);
        ch02::section_gpu(nb, o);
        ch02::section_benchmark(nb);
      });
}
