// Training on the CPU: AdamW on the flat parameters, and a tiny run of the fp64 reference model
// on selective copying, for both model kinds. The chapter's program runs it where no GPU is: it
// shows at a small scale what the GPU run shows at the full one.
#pragma once

#include "model_config.hpp"
#include "selective_copying.hpp"

#include <functional>
#include <vector>

namespace ch09 {

struct AdamWSettings {
  double lr = 3e-3;  // the peak learning rate
  double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  double weight_decay = 0.1;  // on the blocks parameter_blocks marks `decays` (the matrices) only
  double clip_norm = 1.0;     // the gradient's global L2 norm is clipped to this (0: no clipping)
  int warmup_steps = 0;       // linear warmup from 0, then cosine decay to lr/10 at the last step
};

// The learning rate of `step` (0-based) of a run of `steps`.
double learning_rate(const AdamWSettings& settings, int step, int steps);

// 1 where weight decay applies, 0 elsewhere (padding included), per float of the flat array.
std::vector<float> weight_decay_mask(const ModelConfig& config);

struct AdamWState {
  std::vector<double> m, v;  // first and second moments, zero at the start
  long step = 0;             // updates taken so far
};

// One AdamW update (decoupled weight decay, bias-corrected moments) with learning rate `lr`:
//   m ← β1 m + (1-β1) g,  v ← β2 v + (1-β2) g²,
//   p ← p - lr (m/(1-β1^t) / (sqrt(v/(1-β2^t)) + eps) + wd·mask·p)
// The gradient is clipped first when settings.clip_norm > 0; returns its norm before clipping.
double adamw_step(const AdamWSettings& settings, double lr, const std::vector<float>& decay_mask,
                  std::vector<double>& parameters, std::vector<double> gradient, AdamWState& state);

struct CpuTrainingSettings {
  ModelConfig model;
  int body_length = 32, n_data = 4;
  int curriculum_from = 0;  // > 0: bodies grow from this length (curriculum_body_length)
  int batch = 8, steps = 600;
  int eval_sequences = 256;  // held-out sequences, from a seed stream of their own
  AdamWSettings optimizer;
  unsigned seed = 1;  // the weights' and the training data's seed
};

// A small setting that runs in seconds on one core and shows the difference (see cpu_training.cpp
// for what was measured).
CpuTrainingSettings tiny_cpu_training(SsmKind kind);

struct TrainingPoint {
  int step = 0;     // steps done
  double loss = 0;  // the training batch's loss at this step
  double accuracy = 0;
  double tokens_per_second = 0;  // since the start of the run
};

struct CpuTrainingResult {
  std::vector<TrainingPoint> curve;  // every step
  double eval_loss = 0;
  Accuracy eval_accuracy;          // on held-out sequences
  std::vector<double> parameters;  // the trained weights
  double seconds = 0;              // wall time of the training steps
};

// `progress`, when given, is called after every step.
CpuTrainingResult train_on_cpu(const CpuTrainingSettings& settings,
                               const std::function<void(const TrainingPoint&)>& progress = {});

// Loss, token accuracy and sequences copied whole of `parameters` on `sequences` sequences of
// the held-out stream of `seed`.
struct Evaluation {
  double loss = 0;
  Accuracy accuracy;         // tokens
  Accuracy whole_sequences;  // sequences with every token right
};
Evaluation evaluate(const ModelConfig& config, const std::vector<double>& parameters, int body_length, int n_data,
                    int sequences, unsigned seed);

}  // namespace ch09
