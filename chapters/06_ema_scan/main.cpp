// ch06_ema_scan -- Chapter 06: the EMA and the first-order recurrence as a scan of pairs.
//
// h_k = a_k h_{k-1} + b_k is not a sum, but each step is an affine map h -> a h + b, and
// composing affine maps is associative: the whole recurrence is a scan with the pair operator
// (a1, b1) ∘ (a2, b2) = (a1 a2, a2 b1 + b2). Run with --help for the options; the chapter's
// text is README.md beside this file. The sections are in sections_*.cpp (sections.hpp lists them).
#include "chapter_main.hpp"
#include "ema_kernels.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "sections.hpp"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  ch06::Options o;
  return common::run_chapter(
      {"ch06_ema_scan", "Chapter 06 · The EMA and the linear recurrence as a scan of pairs", ema::kKernelCount}, argc,
      argv,
      [&](CLI::App& app) {
        app.add_option("--check-length", o.check_length,
                       "Longest sequence of the checks (with 1, 2, 31, 33, 1000, ...)")
            ->check(common::integer_in(1, 1 << 26))
            ->capture_default_str();
        app.add_option("--batch", o.batch, "Sequences in the batched GPU check")
            ->check(common::integer_in(1, 4096))
            ->capture_default_str()
            ->group(common::kGpuOptions);
        app.add_flag("--tile-sweep", o.tile_sweep,
                     "Add section 8 (--bench adds it too): version 5 timed at N = 2^28 with every tile shape of "
                     "kWindowTileShapes");
      },
      [&](common::Notebook& nb) {
        // Before any work: section 2 holds a sequence of --check-length as pairs, its fp64
        // recurrence and two fp32 ones (about 32 bytes an element); a GPU check holds a problem's
        // pairs, its fp64 reference and the GPU's result (20), the longest and the batched in turn.
        const double sequence = 32.0 * double(o.check_length), batched = 20.0 * double(o.batch) * ch06::kBatchedLength;
        if (nb.gpu() && batched > sequence)
          common::require_host_memory(batched, "--batch");
        else
          common::require_host_memory(sequence, "--check-length");
        ch06::section_recurrence(nb);
        ch06::section_pair_operator(nb, o);
        ch06::section_impulse(nb);
        ch06::section_precision(nb);
        ch06::section_underflow(nb);
        ch06::section_gpu(nb, o);
        ch06::section_benchmark(nb);
        if (o.tile_sweep || nb.options().bench) ch06::section_tile_sweep(nb);
      });
}
