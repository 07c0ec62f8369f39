// ch01_rnn -- Chapter 01: the RNN recurrence.
//
// Why an RNN is sequential, and why a *linear* RNN is a state space model. Run with --help
// for the options; the chapter's text is README.md beside this file. The sections are in
// sections_*.cpp (sections.hpp lists them).
#include "chapter_main.hpp"
#include "gpu.hpp"
#include "gpu_rnn.hpp"
#include "memory.hpp"
#include "options.hpp"
#include "rnn_kernels.hpp"
#include "sections.hpp"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  ch01::Options o;
  return common::run_chapter(
      {"ch01_rnn", "Chapter 01 · The RNN recurrence", rnn::kKernelCount}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--batch", o.batch, "Number of sequences")
            ->check(common::integer_in(1, 1 << 24))
            ->capture_default_str();
        app.add_option("--length", o.length, "Steps per sequence")
            ->check(common::integer_in(1, 1 << 24))
            ->capture_default_str();
        app.add_option("--hidden", o.hidden, "Hidden units H (16 or 32)")
            ->check(CLI::IsMember({16, 32}))
            ->capture_default_str();
        app.add_option("--radius", o.radius, "Spectral radius of W for the checks")
            ->check(common::real_in(0.01, 1.0))
            ->capture_default_str();
      },
      [&](common::Notebook& nb) {
        // Before any work: the fp64 checks hold about 36 bytes per sequence-step (inputs, the
        // fp64 and fp32 outputs, the GPU's results) and the states of every sequence.
        common::require_host_memory(double(o.batch) * (36.0 * o.length + 32.0 * o.hidden), "--batch × --length");
        if (nb.gpu())
          common::require_device_memory(rnn::GpuRnn::device_bytes(o.hidden, o.batch, o.length), "--batch × --length");
        ch01::section_tanh_rnn(nb, o);
        ch01::section_memory(nb, o);
        ch01::section_gradients(nb, o);
        ch01::section_linear_is_ssm(nb, o);
        ch01::section_bptt(nb, o);
        ch01::section_gpu(nb, o);
        ch01::section_benchmark(nb, o);
      });
}
