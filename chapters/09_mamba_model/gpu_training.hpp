// gpu_training.hpp: training chapter 09's model on the GPU, and measuring it on held-out data.
//
// The same loop as train_on_cpu (cpu_training.hpp): the same optimizer and schedule, the same two
// data streams of a seed. A step draws a fresh batch of selective-copying sequences on the CPU (a
// few microseconds), copies it to the GPU and enqueues forward, backward and AdamW; nothing waits
// for the GPU except every `log_every` steps, when that step's loss and accuracy come back.
#pragma once

#include "cpu_training.hpp"
#include "gpu_model.hpp"

#include <functional>
#include <vector>

namespace ch09 {

struct TaskShape {
  int body_length = 256;  // positions that hold the data tokens among noise
  int data_tokens = 16;   // tokens to copy, then as many markers
  int seqlen() const { return body_length + data_tokens; }
};

struct GpuTrainingSettings {
  TaskShape task;
  int steps = 4000;
  int batch = 64;
  int log_every = 50;
  unsigned seed = 1;        // the training stream's seed (the weights' seed is the caller's)
  int curriculum_from = 0;  // > 0: bodies grow from this length (curriculum_body_length)
  AdamWSettings optimizer;  // lr, warm-up, clipping, weight decay: cpu_training.hpp
};

// Trains `model` from the parameters it holds and returns the logged points; `progress` is
// called at each of them.
std::vector<TrainingPoint> train_on_gpu(GpuModel& model, const GpuTrainingSettings& settings,
                                        const std::function<void(const TrainingPoint&)>& progress = {});

// Loss, token accuracy and sequences copied whole on `sequences` sequences of the held-out
// stream of `seed`, in batches of at most model.max_batch().
Evaluation evaluate_on_gpu(GpuModel& model, const TaskShape& task, int sequences, unsigned seed);

}  // namespace ch09
