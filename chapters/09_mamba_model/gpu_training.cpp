#include "gpu_training.hpp"

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "selective_copying.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <string>

namespace ch09 {

std::vector<TrainingPoint> train_on_gpu(GpuModel& model, const GpuTrainingSettings& s,
                                        const std::function<void(const TrainingPoint&)>& progress) {
  const int seqlen = s.task.seqlen();
  if (s.batch > model.max_batch() || seqlen > model.max_seqlen())
    throw std::invalid_argument("train_on_gpu: batch " + std::to_string(s.batch) + " x seqlen " +
                                std::to_string(seqlen) + " does not fit the model's buffers");
  std::mt19937_64 rng = training_stream(s.seed);
  common::DeviceBuffer<int> tokens(std::size_t(s.batch) * seqlen), targets(tokens.size());
  std::vector<TrainingPoint> points;
  const auto start = std::chrono::steady_clock::now();
  long long tokens_seen = 0;
  auto log = [&](int step) {
    const gpu::LossMetrics m = model.metrics();  // the only wait for the GPU
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const TrainingPoint p{step, m.loss, m.targets > 0 ? double(m.correct) / m.targets : 0.0,
                          double(tokens_seen) / seconds};
    if (!std::isfinite(p.loss))
      throw std::runtime_error("training diverged: loss " + std::to_string(p.loss) + " at step " +
                               std::to_string(step));
    points.push_back(p);
    if (progress) progress(p);
  };
  // [snippet:training_step]
  for (int step = 0; step < s.steps; ++step) {
    const int body = curriculum_body_length(s.curriculum_from, s.task.body_length, step, s.steps);
    const Batch batch = make_selective_copying(s.batch, body, s.task.data_tokens, model.config().vocab, rng);
    // From pageable memory the copy returns once the data are staged: the vectors may go.
    const std::size_t bytes = batch.tokens.size() * sizeof(int);
    CUDA_CHECK(cudaMemcpyAsync(tokens.data(), batch.tokens.data(), bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyAsync(targets.data(), batch.targets.data(), bytes, cudaMemcpyHostToDevice));
    model.forward(tokens.data(), targets.data(), s.batch, batch.seqlen);
    tokens_seen += static_cast<long long>(batch.tokens.size());
    model.backward();
    model.adamw_step(float(learning_rate(s.optimizer, step, s.steps)), step + 1, s.optimizer);
    if ((step + 1) % s.log_every == 0 || step + 1 == s.steps) log(step + 1);
  }
  // [/snippet:training_step]
  return points;
}

Evaluation evaluate_on_gpu(GpuModel& model, const TaskShape& task, int sequences, unsigned seed) {
  std::mt19937_64 rng = held_out_stream(seed);
  Evaluation e;
  double loss_sum = 0;
  for (int done = 0; done < sequences;) {
    const int batch = std::min(model.max_batch(), sequences - done);
    const Batch b = make_selective_copying(batch, task.body_length, task.data_tokens, model.config().vocab, rng);
    model.forward(b.tokens, b.targets, batch, task.seqlen());
    const gpu::LossMetrics m = model.metrics();
    loss_sum += double(m.loss) * m.targets;
    e.accuracy.correct += m.correct;
    e.accuracy.scored += m.targets;
    e.whole_sequences += whole_sequence_accuracy(model.download_logits(), model.config().vocab, b);
    done += batch;
  }
  e.loss = e.accuracy.scored ? loss_sum / double(e.accuracy.scored) : 0.0;
  return e;
}

}  // namespace ch09
