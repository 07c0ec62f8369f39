// sequence_access.cuh: where the values of one (batch b, channel d) live, for every version.
// A Channel is built once per (b, d) and then indexed by time alone, so a kernel's inner loop
// reads like the formulas in selective_scan.hpp.
#pragma once

#include "device_math.cuh"
#include "packed_sequences.cuh"
#include "scan_args.hpp"

namespace selective_scan::detail {

template <class Input, bool kComplex>
struct Channel {
  using S = State<kComplex>;
  const ScanArgs& args;
  std::int64_t b, d, bd;
  const Input *u, *delta, *z, *dout;
  const Input *B_var, *C_var;
  S A{}, B_const{}, C_const{};  // per state: filled by at_state()
  float D, delta_bias;

  __device__ Channel(const ScanArgs& a, std::int64_t bd_index) : args(a), bd(bd_index) {
    b = bd / a.dim;
    d = bd % a.dim;
    u = sequence(a.u);
    delta = sequence(a.delta);
    z = a.z.data ? sequence(a.z) : nullptr;
    dout = a.dout.data ? sequence(a.dout) : nullptr;
    const std::int64_t group = d / a.dims_per_group;
    B_var =
        a.B.variable ? static_cast<const Input*>(a.B.data) + b * a.B.batch_stride + group * a.B.group_stride : nullptr;
    C_var =
        a.C.variable ? static_cast<const Input*>(a.C.data) + b * a.C.batch_stride + group * a.C.group_stride : nullptr;
    D = a.D ? a.D[d] : 0.f;
    delta_bias = a.delta_bias ? a.delta_bias[d] : 0.f;
  }
  __device__ const Input* sequence(const SequenceArg& s) const {
    return static_cast<const Input*>(s.data) + b * s.batch_stride + d * s.dim_stride;
  }
  template <class T>
  __device__ T* sequence(const MutableSequenceArg& s) const {
    return static_cast<T*>(s.data) + b * s.batch_stride + d * s.dim_stride;
  }

  // A, and constant B and C, of state n.
  __device__ void at_state(int n) {
    A = load_state<S>(args.A, d * args.A_dim_stride + n);
    if (!args.B.variable) B_const = load_state<S>(static_cast<const float*>(args.B.data), d * args.B.dim_stride + n);
    if (!args.C.variable) C_const = load_state<S>(static_cast<const float*>(args.C.data), d * args.C.dim_stride + n);
  }
  __device__ S B_at(int n, std::int64_t t) const {
    return B_var ? load_input_state<S>(B_var + n * args.B.state_stride, t) : B_const;
  }
  __device__ S C_at(int n, std::int64_t t) const {
    return C_var ? load_input_state<S>(C_var + n * args.C.state_stride, t) : C_const;
  }

  // delta after the bias and softplus, and d delta / d delta_raw.
  __device__ float delta_raw_at(std::int64_t t) const { return to_float(delta[t]) + delta_bias; }
  __device__ float delta_at(std::int64_t t) const { return delta_from_raw(delta[t]); }
  __device__ float delta_from_raw(Input raw) const {
    const float x = to_float(raw) + delta_bias;
    return args.delta_softplus ? softplus(x) : x;
  }
  __device__ float delta_slope_at(std::int64_t t) const {
    const float x = delta_raw_at(t);
    return args.delta_softplus && x <= 20.f ? sigmoid(x) : 1.f;
  }

  // Where state n of this (b, d) is stored at the end of chunk c (chunk_states) or of the sequence.
  __device__ std::int64_t chunk_state_index(std::int64_t c, int n) const {
    return (bd * args.chunks + c) * args.dstate + n;
  }
  __device__ std::int64_t state_index(int n) const { return bd * args.dstate + n; }
  // Where state n of sequence q starts or ends (initial_state, last_state and their gradients):
  // q is b, or with packed sequences (batch 1) the packed sequence's index.
  __device__ std::int64_t state_index(std::int64_t q, int n) const { return sequence_state_index(args, q, d, n); }
  // Sequence q's initial state (0 without one), and the gradient of its last state (0 without).
  __device__ S initial_state(std::int64_t q, int n) const {
    return args.initial_state ? load_state<S>(args.initial_state, state_index(q, n)) : state_zero<S>();
  }
  __device__ S last_state_gradient(std::int64_t q, int n) const {
    return args.dlast_state ? load_state<S>(args.dlast_state, state_index(q, n)) : state_zero<S>();
  }
  // The sequence the channel's first and last steps belong to.
  __device__ std::int64_t first_sequence() const { return b; }
  __device__ std::int64_t last_sequence() const { return args.cu_seqlens ? args.sequences - 1 : b; }
};

}  // namespace selective_scan::detail
