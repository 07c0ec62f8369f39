// sections.hpp: the sections of chapter 09's program, in the order it runs them, and what they
// hand each other (the trained models). sections_cpu.cpp holds the ones that run without a GPU,
// sections_training.cpp the GPU training and what is measured on the trained models,
// sections_inference.cpp the GPU model's checks, generation and the weights file.
#pragma once

#include "common_options.hpp"
#include "gpu_training.hpp"
#include "model_config.hpp"
#include "notebook.hpp"
#include "run_weights.hpp"

#include <string>
#include <vector>

namespace ch09 {

struct ProgramOptions {
  int steps = 12000;
  double lr = 1e-2;
  double weight_decay = 0.0;
  int batch = 64;
  int body_length = 512;
  int data_tokens = 16;
  int curriculum_from = 32;     // > 0: training bodies grow from this length to body_length (0: off)
  std::string load_dir;         // non-empty: load the weights instead of training
  RunWeights loaded;            // what --load DIR holds, read and checked while the options were parsed
  std::vector<unsigned> seeds;  // the training seeds: --seed, and with --bench --seed + 1 too

  TaskShape task() const { return {body_length, data_tokens}; }
  AdamWSettings optimizer() const;
};
void finish_options(ProgramOptions& o, const common::CommonOptions& common);

// The GPU model of the chapter: the paper's 2 layers of width 64, vocabulary 16.
ModelConfig gpu_model_config(SsmKind kind);

struct TrainedModel {
  ModelConfig config;
  unsigned seed = 0;
  std::vector<float> initial, parameters;
  std::vector<TrainingPoint> history;  // empty when loaded from a file
  double seconds = 0;
  Evaluation held_out;
};

struct Trained {
  std::vector<TrainedModel> cpu;                 // the tiny models of the CPU section, selective then LTI
  std::vector<TrainedModel> runs;                // every kind and seed on the GPU; empty when there is no GPU
  const TrainedModel* find(SsmKind kind) const;  // the first seed's
};

// Before any work, with a GPU: the largest GPU models the sections will build fit in its free
// memory (else one line naming the options, exit code 2).
void check_gpu_memory(common::Notebook& nb, const ProgramOptions& o);
void section_task(common::Notebook& nb, const ProgramOptions& o);
void section_models(common::Notebook& nb);
void section_finite_differences(common::Notebook& nb);
void section_recurrence(common::Notebook& nb);
void section_cpu_training(common::Notebook& nb, const ProgramOptions& o, Trained& trained);
void section_gpu_against_reference(common::Notebook& nb);
void section_gpu_training(common::Notebook& nb, const ProgramOptions& o, Trained& trained);
void section_selection(common::Notebook& nb, const ProgramOptions& o, const Trained& trained);
void section_generalization(common::Notebook& nb, const ProgramOptions& o, const Trained& trained);
void section_decays(common::Notebook& nb, const Trained& trained);
void section_inference(common::Notebook& nb, const ProgramOptions& o, const Trained& trained);
void section_weights_file(common::Notebook& nb, const ProgramOptions& o, const Trained& trained);
void section_curriculum(common::Notebook& nb);
void section_mamba2(common::Notebook& nb, const ProgramOptions& o, const Trained& trained);

// A fraction as the sections' tables print it: a percentage with one decimal.
std::string percent(double fraction);

// Shared by the sections: the tiny model of `kind` on the GPU against the fp64 reference (two
// checks: logits, every gradient block); one training run on the GPU as section_gpu_training runs
// them (the first seed's weights saved in the output directory), evaluated on held-out sequences.
void check_gpu_against_reference(common::Notebook& nb, SsmKind kind);
TrainedModel train_gpu_model(common::Notebook& nb, const ProgramOptions& o, SsmKind kind, unsigned seed,
                             int held_out_sequences);

}  // namespace ch09
