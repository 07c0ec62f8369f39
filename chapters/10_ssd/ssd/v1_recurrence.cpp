// Version 1: Mamba-2's SSD as a special case of chapter 08's selective scan. Channel h * head_dim
// + i of chapter 08 is channel i of head h; its A is the head's A for every state, its Δ the head's
// dt' and its B and C the head's group's. What chapter 08's kernel does not know -- that A is one
// number a head -- it pays for: an exponential for every state and step instead of one a head and
// step, and the time-last copies of x, dt', B, C and z that its layout needs. The gradients come
// back per channel and state and are summed over each head here.
#include "v1_recurrence.hpp"

#include "check.hpp"
#include "layouts.hpp"
#include "selective_scan.hpp"

#include <limits>

namespace ssd::detail {
namespace {

namespace ss = selective_scan;

int element_bytes(DataType t) { return t == DataType::float32 ? 4 : 2; }

// Where the clamp cannot bite -- softplus on (dt' > 0) and the bounds (≤ 0, ∞) --, chapter 08's own
// bias and softplus take the raw dt, in fp32 as the official kernels do; elsewhere dt' is computed
// here and rounded to the input type, which costs accuracy in 16 bits.
bool chapter08_takes_the_step(const ForwardParams& p) {
  return p.dt_softplus && p.dt_min <= 0.f && p.dt_max == std::numeric_limits<float>::infinity();
}

// The parameters whose dt' is the raw dt itself: what the layout kernels broadcast (and the
// gradients they fold, at slope 1) when chapter 08 applies the bias and softplus.
ForwardParams raw_steps(ForwardParams p) {
  p.dt_bias = nullptr;
  p.dt_softplus = false;
  p.dt_min = -std::numeric_limits<float>::infinity();
  p.dt_max = std::numeric_limits<float>::infinity();
  return p;
}

// The parameters the layout kernels see: the raw steps where chapter 08 takes the step, else p.
ForwardParams for_layouts(const ForwardParams& p) { return chapter08_takes_the_step(p) ? raw_steps(p) : p; }

// Chapter 08's tensors of one call, in the time-last layout, and the forward's parameters over them.
struct Chapter08Call {
  const Sizes s;
  const std::int64_t dim, sequence_elements, projection_elements;
  const int bytes;
  const ss::DataType type;  // the call's input type, which every time-last copy keeps
  Scratch<unsigned char> u, delta, z, B, C, out, out_z;
  Scratch<float> A, D, bias, chunk_states;
  ss::ForwardParams forward;

  Chapter08Call(const ForwardParams& p, cudaStream_t stream)
      : s(p.sizes),
        dim(std::int64_t(s.heads) * s.head_dim),
        sequence_elements(s.batch * dim * s.seqlen),
        projection_elements(s.batch * std::int64_t(s.groups) * s.dstate * s.seqlen),
        bytes(element_bytes(p.input_type)),
        type(p.input_type),
        u(std::size_t(sequence_elements * bytes), stream),
        delta(std::size_t(sequence_elements * bytes), stream),
        z(p.z ? std::size_t(sequence_elements * bytes) : 0, stream),
        B(std::size_t(projection_elements * bytes), stream),
        C(std::size_t(projection_elements * bytes), stream),
        out(std::size_t(sequence_elements * bytes), stream),
        out_z(p.z ? std::size_t(sequence_elements * bytes) : 0, stream),
        A(std::size_t(dim * s.dstate), stream),
        D(p.D && !p.D_per_channel ? std::size_t(dim) : 0, stream),
        bias(chapter08_takes_the_step(p) && p.dt_bias ? std::size_t(dim) : 0, stream),
        chunk_states(std::size_t(ss::chunk_states_floats(sizes(), false)), stream) {
    // Time second -> time last: x, z (batch, seqlen, dim); B, C (batch, seqlen, groups * dstate).
    const std::int64_t states = std::int64_t(s.groups) * s.dstate;
    transpose(p.x, u.get(), s.batch, s.seqlen, dim, bytes, stream);
    if (p.z) transpose(p.z, z.get(), s.batch, s.seqlen, dim, bytes, stream);
    transpose(p.B, B.get(), s.batch, s.seqlen, states, bytes, stream);
    transpose(p.C, C.get(), s.batch, s.seqlen, states, bytes, stream);
    expand_step_sizes(for_layouts(p), delta.get(), stream);
    if (bias.get()) repeat_per_head(p.dt_bias, bias.get(), s.heads, s.head_dim, stream);
    repeat_per_head(p.A, A.get(), s.heads, std::int64_t(s.head_dim) * s.dstate, stream);
    if (D.get()) repeat_per_head(p.D, D.get(), s.heads, s.head_dim, stream);

    forward.sizes = sizes();
    forward.input_type = type;
    forward.u = input(u.get());
    forward.delta = input(delta.get());  // the raw dt, or dt' itself
    forward.flags.delta_softplus = chapter08_takes_the_step(p);
    forward.delta_bias = bias.get();
    if (p.z) forward.z = input(z.get());
    forward.A = A.get();
    forward.A_dim_stride = s.dstate;
    forward.B = projection(B.get());
    forward.C = projection(C.get());
    forward.D = p.D_per_channel ? p.D : D.get();
    forward.initial_state = p.initial_states;  // (batch, heads, head_dim, dstate) = (batch, dim, dstate)
    forward.out = output(out.get());
    if (p.z) forward.out_z = output(out_z.get());
    forward.chunk_states = chunk_states.get();
    forward.last_state = p.final_states;
  }

  ss::Sizes sizes() const { return {s.batch, std::int64_t(s.heads) * s.head_dim, s.seqlen, s.dstate, s.groups}; }
  ss::Input input(const void* data) const { return {data, type, dim * s.seqlen, s.seqlen}; }
  ss::Output output(void* data) const { return {data, type, dim * s.seqlen, s.seqlen}; }
  ss::StateProjection<const void*> projection(const void* data) const {
    ss::StateProjection<const void*> t;
    t.data = data;
    t.type = type;
    t.batch_stride = std::int64_t(s.groups) * s.dstate * s.seqlen;
    t.group_stride = std::int64_t(s.dstate) * s.seqlen;
    t.state_stride = s.seqlen;
    return t;
  }
  // The output chapter 08 wrote (gated where z is given), back to time second.
  void write_y(void* y, cudaStream_t stream) const {
    transpose(out_z.get() ? out_z.get() : out.get(), y, s.batch, dim, s.seqlen, bytes, stream);
  }
};

}  // namespace

std::string recurrence_refuses(const ForwardParams& p) {
  if (p.seq_idx) return "version 1 (chapter 08's scan) takes no seq_idx: its state carries through a whole row";
  if (p.sizes.dstate > ss::kMaxStates)
    return "version 1 (chapter 08's scan) takes at most " + std::to_string(ss::kMaxStates) + " states";
  return {};
}

void recurrence_forward(const ForwardParams& p, cudaStream_t stream) {
  Chapter08Call call(p, stream);
  ss::forward(call.forward, stream);
  call.write_y(p.y, stream);
}

void recurrence_backward(const BackwardParams& p, cudaStream_t stream) {
  const ForwardParams& f = p.forward;
  const Sizes& s = f.sizes;
  Chapter08Call call(f, stream);
  ss::forward(call.forward, stream);  // its chunk states, which chapter 08's backward starts from

  const int bytes = call.bytes;
  const std::int64_t dim = call.dim, states = std::int64_t(s.groups) * s.dstate;
  Scratch<unsigned char> dout(std::size_t(call.sequence_elements * bytes), stream),
      du(std::size_t(call.sequence_elements * bytes), stream),
      ddelta(std::size_t(call.sequence_elements * bytes), stream),
      dz(f.z ? std::size_t(call.sequence_elements * bytes) : 0, stream);
  Scratch<float> dA(std::size_t(dim * s.dstate), stream), dB(std::size_t(call.projection_elements), stream),
      dC(std::size_t(call.projection_elements), stream), dD(f.D && !f.D_per_channel ? std::size_t(dim) : 0, stream),
      ddt_by_head(f.dt_bias && !call.bias.get() ? std::size_t(s.batch * s.heads * s.seqlen) : 0, stream);
  transpose(p.dy, dout.get(), s.batch, s.seqlen, dim, bytes, stream);

  ss::BackwardParams b;
  b.forward = call.forward;
  b.dout = call.input(dout.get());
  b.deterministic = p.deterministic;
  b.du = call.output(du.get());
  b.ddelta = call.output(ddelta.get());
  if (f.z) b.dz = call.output(dz.get());
  b.dA = dA.get();
  b.dB = dB.get();
  b.dC = dC.get();
  if (f.D) b.dD = f.D_per_channel ? p.dD : dD.get();
  // Where chapter 08 adds the bias, it sums the bias's gradient per channel in fp32, before its
  // ddelta is rounded to the input type: ddt_bias is those sums over each head. Elsewhere ddt_bias
  // is summed from ddt below, in a fixed order.
  Scratch<float> ddelta_bias(call.bias.get() ? std::size_t(dim) : 0, stream);
  b.ddelta_bias = ddelta_bias.get();
  b.dinitial_state = p.dinitial_states;
  Scratch<unsigned char> workspace(ss::backward_workspace_bytes(b), stream);
  b.workspace = workspace.get();
  ss::backward(b, stream);

  // Back to Mamba-2's layouts, each head's share summed.
  transpose(du.get(), p.dx, s.batch, dim, s.seqlen, bytes, stream);
  if (f.z) transpose(dz.get(), p.dz, s.batch, dim, s.seqlen, bytes, stream);
  transpose(dB.get(), p.dB, s.batch, states, s.seqlen, 4, stream);
  transpose(dC.get(), p.dC, s.batch, states, s.seqlen, 4, stream);
  sum_segments(dA.get(), p.dA, s.heads, std::int64_t(s.head_dim) * s.dstate, stream);
  if (f.D && !f.D_per_channel) sum_segments(dD.get(), p.dD, s.heads, s.head_dim, stream);
  // Chapter 08's ddelta is already the raw dt's where it took the step: folded at slope 1.
  Scratch<float> ddt_prime(std::size_t(s.batch * s.seqlen * s.heads), stream);
  sum_head_gradients(f, ddelta.get(), ddt_prime.get(), stream);
  fold_step_gradients(for_layouts(f), ddt_prime.get(), p.ddt, ddt_by_head.get(), stream);
  if (ddelta_bias.get())
    sum_segments(ddelta_bias.get(), p.ddt_bias, s.heads, s.head_dim, stream);
  else if (f.dt_bias)
    sum_segments(ddt_by_head.get(), p.ddt_bias, s.heads, s.batch * s.seqlen, stream);
}

}  // namespace ssd::detail
