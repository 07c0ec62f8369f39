// ch09_mamba_model -- Chapter 09: a Mamba model trained with the book's own kernels.
//
// The selective scan of chapter 08 inside the Mamba block, two blocks in a small language model,
// trained on the GPU on selective copying: data tokens scattered among noise, to be repeated in
// order at the end. The same network with a time-invariant (LTI) state space is trained beside
// it. The selective model learns the task; the LTI one cannot, because a convolution kernel
// cannot depend on the content it convolves. Then the trained model runs as a recurrence, one
// token at a time. Run with --help for the options; the chapter's text is README.md beside this.
#include "chapter_main.hpp"
#include "gpu.hpp"
#include "options.hpp"
#include "sections.hpp"

#include <CLI/CLI.hpp>

#include <stdexcept>
#include <string>

int main(int argc, char** argv) {
  ch09::ProgramOptions o;
  return common::run_chapter(
      {"ch09_mamba_model", "Chapter 09 · A Mamba model that learns to select", 0}, argc, argv,
      [&](CLI::App& app) {
        app.add_option("--steps", o.steps, "Training steps on the GPU")
            ->check(common::integer_in(1, 1000000))
            ->capture_default_str();
        app.add_option("--lr", o.lr, "Peak learning rate of AdamW")
            ->check(common::real_in(1e-6, 1.0))
            ->capture_default_str();
        app.add_option("--weight-decay", o.weight_decay, "AdamW's weight decay on the matrices")
            ->check(common::real_in(0.0, 1.0))
            ->capture_default_str();
        app.add_option("--batch", o.batch, "Sequences per training step")
            ->check(common::integer_in(1, 4096))
            ->capture_default_str();
        app.add_option("--body-length", o.body_length, "Positions among which the data tokens hide (training)")
            ->check(common::integer_in(16, 1 << 16))
            ->capture_default_str();
        app.add_option("--data-tokens", o.data_tokens, "Data tokens to copy")
            ->check(common::integer_in(1, 256))
            ->capture_default_str();
        app.add_option(
               "--curriculum", o.curriculum_from,
               "Training bodies grow from this length to --body-length over the first half of the steps (0: off)")
            ->check(common::integer_in(0, 1 << 16))
            ->capture_default_str();
        app.add_option("--load", o.load_dir,
                       "Skip training: load the weights an earlier run saved in its --out (cpu_selective.weights and "
                       "cpu_lti.weights; with a GPU, selective.weights and lti.weights too)")
            ->type_name("DIR");
        app.final_callback([&] {  // a ValidationError here exits with code 2, like any bad option
          if (o.data_tokens > o.body_length)
            throw CLI::ValidationError("--data-tokens",
                                       std::to_string(o.data_tokens) + " data tokens do not fit a body of " +
                                           std::to_string(o.body_length) + " positions (--body-length)");
          if (o.curriculum_from > 0 && o.curriculum_from < o.data_tokens)
            throw CLI::ValidationError("--curriculum", "the first bodies (" + std::to_string(o.curriculum_from) +
                                                           ") must hold the " + std::to_string(o.data_tokens) +
                                                           " data tokens: 0 (off) or at least --data-tokens");
          if (!o.load_dir.empty()) {  // read and check the files now, before any work
            const bool gpu_sections = app.get_option("--cpu-only")->count() == 0 && common::gpu_available();
            try {
              o.loaded = ch09::load_run_weights(o.load_dir, gpu_sections);
            } catch (const std::runtime_error& e) {
              throw CLI::ValidationError("--load", e.what());
            }
          }
        });
      },
      [&](common::Notebook& nb) {
        ch09::finish_options(o, nb.options());
        ch09::check_gpu_memory(nb, o);
        ch09::section_task(nb, o);
        ch09::section_models(nb);
        ch09::section_finite_differences(nb);
        ch09::section_recurrence(nb);
        ch09::Trained trained;
        ch09::section_cpu_training(nb, o, trained);
        ch09::section_gpu_against_reference(nb);
        ch09::section_gpu_training(nb, o, trained);
        ch09::section_selection(nb, o, trained);
        ch09::section_generalization(nb, o, trained);
        ch09::section_decays(nb, trained);
        ch09::section_inference(nb, o, trained);
        ch09::section_weights_file(nb, o, trained);
        ch09::section_curriculum(nb);
        ch09::section_mamba2(nb, o, trained);
      });
}
