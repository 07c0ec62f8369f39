// step_shape.hpp: the shapes on which selective_scan::step is timed against the official
// selective_state_update, written as the official benchmark (triton_bench.py step) takes them,
// and that benchmark's times read back from its CSV.
#pragma once

#include "selective_scan.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ch08::step_bench {

// Mamba-1: state (batch, dim, dstate), A (dim, dstate), every weight per channel.
// Mamba-2: state (batch, heads, head_dim, dstate), A, dt, D and dt_bias one value a head,
// expanded over the head (zero strides), as the Mamba2 module passes them.
enum class Form { mamba1, mamba2 };

struct Shape {
  selective_scan::DataType type = selective_scan::DataType::bfloat16;
  Form form = Form::mamba1;
  std::int64_t batch = 1, heads = 1, head_dim = 1;  // Mamba-1: heads 1, head_dim = dim
  int dstate = 16, groups = 1;

  std::int64_t states() const { return batch * heads * head_dim * dstate; }
  std::string dtype() const;  // "fp32", "bf16", "fp16"
  // triton_bench.py's argument: "bf16:64,5120,16" or "bf16:64,80,64,128" (",g" where groups > 1).
  std::string official_spec() const;
  std::string official_shape() const;  // its CSV's shape cell: "64x5120x16"
  std::string label() const;           // "bf16 Mamba-1 (64, 5120, 16)", "fp32 Mamba-2 (8, 80x64, 128) g2"
  // The bytes a step moves, each element of each tensor counted once: the state read and written,
  // x, z and out, dt (Mamba-2: one a sequence and head), B and C, A, D and dt_bias (Mamba-2: one a head).
  double bytes_moved(selective_scan::DataType state_type) const;
};

// bf16 and fp32, Mamba-1 (b, 5120, 16) and Mamba-2 (b, 80, 64, 128), b = 1, 8 and 64: the sizes of
// the 2.8B and 2.7B models at the batches of the goal.
std::vector<Shape> default_shapes();

// "dtype:b,d,n" (Mamba-1) or "dtype:b,h,p,n[,g]" (Mamba-2), dtype fp32, bf16 or fp16; throws
// std::invalid_argument naming the spec for anything else, or for sizes the step refuses.
Shape parse_shape(const std::string& spec);

// The official call's two times for a shape (ms): CUDA events around the Python call (what a
// caller waits) and the sum of its kernels' own times.
struct OfficialTime {
  double call_ms = 0, kernel_ms = 0;
  std::string device;
};

// The step rows of triton_bench.py's CSV keyed by official_spec(); throws std::runtime_error
// naming the line that is not one.
std::map<std::string, OfficialTime> read_official_csv(const std::string& path);

}  // namespace ch08::step_bench
