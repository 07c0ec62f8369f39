// device_problem.hpp: a Problem (reference.hpp) on the GPU, in one input type, wired to the
// library's parameter structs. The tests and the program use it to run a kernel version on the
// same data as the fp64 reference and to bring every result back as fp64 for comparison.
#pragma once

#include "device_buffer.hpp"
#include "reference.hpp"
#include "selective_scan.hpp"

#include <cstddef>
#include <vector>

namespace ch08 {

// The values the GPU sees: the input-type tensors (u, delta, z, dout, variable B and C) rounded
// to `type`, the fp32 weights rounded to fp32. Compare GPU results with the reference of this.
Problem as_gpu_sees(const Problem& p, selective_scan::DataType type);
std::vector<double> round_to(const std::vector<double>& values, selective_scan::DataType type);

// Numbers as the GPU holds them in `type` (rounded to nearest even), and back.
std::vector<unsigned char> encoded(const std::vector<double>& values, selective_scan::DataType type);
std::vector<double> decoded(const std::vector<unsigned char>& bytes, selective_scan::DataType type);

// Rows of `length` numbers laid `pitch` apart (pitch >= length), the gaps NaN; and back, which
// throws if a gap no longer holds NaN (something wrote past the end of a row).
std::vector<double> pad_rows(const std::vector<double>& rows, std::int64_t length, std::int64_t pitch);
std::vector<double> unpad_rows(const std::vector<double>& padded, std::int64_t length, std::int64_t pitch);

// Packed sequences (Problem::cu_seqlens) go to the library as its int32 offsets.
class DeviceProblem {
 public:
  // row_padding: every row along time (u, delta, z, out, out_z, dout, du, ddelta, dz and a
  // variable B or C) is seqlen + row_padding numbers long, as in slices of longer tensors (real A
  // only). The inputs' padding holds NaN, so that a kernel reading it shows in its outputs, and
  // the outputs' padding must keep the poison (gradients() and forward_result() check).
  // keep_checkpoints: version 5's forward keeps h every 8 steps (state_checkpoints) where it
  // takes the call, and its backward reads them instead of recomputing them.
  DeviceProblem(const Problem& p, selective_scan::DataType type, selective_scan::Kernel kernel,
                bool deterministic = false, std::int64_t row_padding = 0, bool keep_checkpoints = false);

  void poison_outputs();  // every output buffer to NaN
  void forward(cudaStream_t stream = nullptr);
  void set_dout(const std::vector<double>& dout);
  // The gradient of the loss with respect to the last states, (sequences, dim, dstate), into the
  // backward (BackwardParams::dlast_state); empty: none (0).
  void set_dlast_state(const std::vector<Complex>& dlast_state);
  void backward(cudaStream_t stream = nullptr);

  ForwardResult forward_result() const;
  // h at the end of each chunk of kChunkLength steps (the last one ends with the sequence), as the
  // forward left it: (batch, dim, chunks, dstate).
  std::vector<Complex> chunk_states() const;
  Gradients gradients() const;

  selective_scan::ForwardParams& forward_params() { return params_.forward; }
  selective_scan::BackwardParams& backward_params() { return params_; }

 private:
  using Bytes = common::DeviceBuffer<unsigned char>;
  Bytes upload_input(const std::vector<double>& values);
  Bytes upload_projection(const std::vector<Complex>& values);  // a variable B or C: padded rows, or (re, im) pairs
  Bytes upload_weight(const std::vector<double>& values);
  Bytes upload_weight(const std::vector<Complex>& values);
  Bytes output_input_type(std::size_t count);
  Bytes upload_rows(const std::vector<double>& values);          // rows along time, padded
  std::vector<double> download_rows(const Bytes& buffer) const;  // rows along time, padding checked
  std::vector<double> download_input(const Bytes& buffer) const;
  std::vector<double> download_weight(const Bytes& buffer) const;
  std::vector<Complex> download_states(const Bytes& buffer) const;

  Problem problem_;
  selective_scan::DataType type_;
  std::size_t input_size_;  // bytes per input-type number
  std::int64_t pitch_;      // numbers from one row along time to the next
  std::vector<Bytes*> outputs_;
  Bytes u_, delta_, z_, A_, B_, C_, D_, delta_bias_, initial_state_, cu_seqlens_;
  Bytes out_, out_z_, chunk_states_, last_state_, state_checkpoints_, forward_workspace_;
  Bytes dout_, du_, ddelta_, dz_, dA_, dB_, dC_, dD_, ddelta_bias_, dinitial_state_, dlast_state_, workspace_;
  selective_scan::BackwardParams params_;
};

}  // namespace ch08
