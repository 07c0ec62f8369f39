// gpu_inference.hpp: the trained model as a recurrence on the GPU, one token per sequence per call.
//
// Per sequence the whole past lives in two small states for each layer: the convolution's last
// conv_width - 1 inputs (d_inner, conv_width - 1) and the scan's h (d_inner, N). A step costs the
// same at token 10 and at token 10^6, and so does the memory, unlike a transformer's key-value
// cache, which grows by 2 d_model numbers per layer and token. One call advances every sequence of
// the batch by one token and writes each one's logits.
//
// A step is about twenty small launches (eight a layer). They are recorded once as a CUDA graph,
// on the object's own stream, and every step replays the graph with one launch: the GPU then runs them
// back to back without waiting for the host to issue each one.
#pragma once

#include "device_buffer.hpp"
#include "gpu_model.hpp"
#include "stats.hpp"

#include <cublas_v2.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <vector>

namespace ch09 {

class GpuInference {
 public:
  // Steps `sequences` sequences with the parameters `model` holds now (read at every step, so
  // later training shows). The model must outlive this object; prefill() runs its forward.
  GpuInference(GpuModel& model, int sequences);
  ~GpuInference();
  GpuInference(const GpuInference&) = delete;
  GpuInference& operator=(const GpuInference&) = delete;

  int sequences() const { return sequences_; }
  // Floats of state per sequence: layers · d_inner · (conv_width - 1 + N).
  std::size_t state_floats_per_sequence() const;

  // Every state to zero: the state before the first token.
  void reset();
  // A prompt of `length` tokens per sequence ((sequences, length) on the device, row-major) run
  // through the model's parallel forward, leaving every state where `length` steps from reset()
  // would, and the logits of each prompt's last token: generation after a prefill. The scan's
  // states are chapter 08's last_state. Overwrites the model's last forward; length must be at
  // least conv_width - 1 and fit the model's buffers. Not only enqueued: it allocates (and frees)
  // the forward's targets, which waits for the GPU.
  void prefill(const int* device_prompt, int length);
  // Advances every sequence by one token, device_tokens[s] for sequence s: the tokens are copied
  // into the graph's input and the graph replayed. Enqueued only, on stream(); nothing waits for
  // the GPU. The stream is a blocking one, so work on the default stream (a download, a timer's
  // events) is ordered with it. device_tokens is read later, on stream(): free it only after
  // work that follows (cudaFree, which waits for the device, does).
  void step(const int* device_tokens);
  cudaStream_t stream() const { return stream_; }
  // The last step's logits, (sequences, vocab), on the device and downloaded.
  const float* device_logits() const { return logits_.data(); }
  std::vector<float> download_logits() const { return logits_.download(); }

 private:
  // The launches of one step, reading the tokens from tokens_: what the graph records.
  void enqueue_step();
  // Chapter 08's one-token step for layer l, with A for it in decay_.
  void scan_step(int layer);

  GpuModel& model_;
  int sequences_;
  cudaStream_t stream_ = nullptr;
  cublasHandle_t cublas_ = nullptr;
  cudaGraphExec_t graph_ = nullptr;  // recorded at the first step
  common::DeviceBuffer<int> tokens_;
  common::DeviceBuffer<unsigned char> cublas_workspace_;
  common::DeviceBuffer<float> conv_state_, ssm_state_;  // (sequences, layers, d_inner, W-1), (..., N)
  common::DeviceBuffer<float> decay_;                   // A = -exp(A_log), (layers, d_inner, N)
  common::DeviceBuffer<float> zero_steps_;              // the LTI model's delta_raw: 0 for every channel
  common::DeviceBuffer<float> residual_, normed_, rstd_, xz_, xs_, dbc_, delta_raw_, out_z_, logits_;
};

// Tokens per second of batched recurrent stepping against the parallel forward over the same
// (sequences, length) tokens, both timed with CUDA events (median of `repetitions`).
struct InferenceThroughput {
  int sequences = 0, length = 0;
  common::TimingStats step_ms;      // all `length` steps of the batch
  common::TimingStats parallel_ms;  // one forward of the whole batch
  double step_tokens_per_second() const { return sequences * double(length) / (step_ms.median_ms * 1e-3); }
  double parallel_tokens_per_second() const { return sequences * double(length) / (parallel_ms.median_ms * 1e-3); }
};
// `model` needs room for (sequences, length); its last forward's buffers are overwritten.
InferenceThroughput measure_inference_throughput(GpuModel& model, int sequences, int length, unsigned seed,
                                                 int repetitions = 10);

}  // namespace ch09
