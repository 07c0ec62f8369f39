// overlaps.cpp: a call's tensors as byte ranges, compared pair by pair (at most 20 of them).
//
// Why no output may overlap an input, not even exactly ("in place"): version 3 runs a row's
// segments side by side, and on Hopper the walk of its first segment starts while the other
// segments' summaries still read x (or dy, z, u), so a y laid over x could be written before it
// is read. One rule for every version keeps a caller's code right whichever version runs it.
#include "overlaps.hpp"

#include "param_checks.hpp"
#include "v3_fused.hpp"

#include <cstdint>
#include <vector>

namespace ssd::detail {
namespace {

struct Extent {
  const char* name;
  std::uintptr_t begin, end;  // [begin, end)
};

class Extents {
 public:
  explicit Extents(const Sizes& s, DataType type) : s_(s), type_bytes_(selective_scan::detail::element_bytes(type)) {}

  // A tensor in the input type or in fp32, by its number of elements; absent tensors are skipped.
  void add_typed(const char* name, const void* at, std::int64_t elements) { add(name, at, elements * type_bytes_); }
  void add_floats(const char* name, const void* at, std::int64_t elements) { add(name, at, elements * 4); }
  void add(const char* name, const void* at, std::int64_t bytes) {
    if (!at) return;
    const auto begin = reinterpret_cast<std::uintptr_t>(at);
    const std::uintptr_t end = begin + std::uintptr_t(bytes);
    list_.push_back({name, begin, end < begin ? UINTPTR_MAX : end});
  }

  std::int64_t sequence() const { return s_.batch * s_.seqlen * s_.heads * s_.head_dim; }   // x's elements
  std::int64_t steps() const { return s_.batch * s_.seqlen * s_.heads; }                    // dt's
  std::int64_t projection() const { return s_.batch * s_.seqlen * s_.groups * s_.dstate; }  // B's
  std::int64_t states() const { return s_.batch * s_.heads * s_.head_dim * s_.dstate; }
  std::int64_t per_head() const { return s_.heads; }
  std::int64_t D_elements(bool per_channel) const {
    return per_channel ? s_.heads * std::int64_t(s_.head_dim) : s_.heads;
  }
  std::int64_t head_states() const { return std::int64_t(s_.heads) * s_.head_dim * s_.dstate; }

  const std::vector<Extent>& list() const { return list_; }

 private:
  Sizes s_;
  std::int64_t type_bytes_;
  std::vector<Extent> list_;
};

bool meet(const Extent& a, const Extent& b) { return a.begin < b.end && b.begin < a.end; }

std::string first_overlap(const Extents& inputs, const Extents& outputs) {
  const std::vector<Extent>& out = outputs.list();
  for (std::size_t i = 0; i < out.size(); ++i) {
    const Extent* other = nullptr;
    for (const Extent& in : inputs.list())
      if (!other && meet(out[i], in)) other = &in;
    for (std::size_t j = 0; j < i; ++j)
      if (!other && meet(out[i], out[j])) other = &out[j];
    if (other)
      return std::string(out[i].name) + " overlaps " + other->name +
             ": an output may share no byte with another tensor of the call (not even in place)";
  }
  return {};
}

// What every call reads: the forward's inputs.
Extents forward_inputs(const ForwardParams& p) {
  Extents in(p.sizes, p.input_type);
  in.add_typed("x", p.x, in.sequence());
  in.add_typed("dt", p.dt, in.steps());
  in.add_floats("A", p.A, in.per_head());
  in.add_typed("B", p.B, in.projection());
  in.add_typed("C", p.C, in.projection());
  in.add_floats("D", p.D, in.D_elements(p.D_per_channel));
  in.add_typed("z", p.z, in.sequence());
  in.add_floats("dt_bias", p.dt_bias, in.per_head());
  in.add_floats("initial_states", p.initial_states, in.states());
  in.add("seq_idx", p.seq_idx, p.sizes.batch * p.sizes.seqlen * 4);
  in.add("cu_seqlens", p.cu_seqlens, (p.sequences + 1) * 4);
  return in;
}

}  // namespace

std::string forward_overlap(const ForwardParams& p) {
  Extents out(p.sizes, p.input_type);
  out.add_typed("y", p.y, out.sequence());
  out.add_floats("final_states", p.final_states, out.states());
  if (p.saved) out.add("saved", p.saved, std::int64_t(fused_saved_bytes(p)));
  out.add_floats("sequence_final_states", p.sequence_final_states, p.sequences * out.head_states());
  return first_overlap(forward_inputs(p), out);
}

std::string backward_overlap(const BackwardParams& p) {
  const ForwardParams& f = p.forward;
  Extents in = forward_inputs(f);
  if (f.saved) in.add("saved", f.saved, std::int64_t(fused_saved_bytes(f)));
  in.add_typed("dy", p.dy, in.sequence());
  Extents out(f.sizes, f.input_type);
  out.add_typed("dx", p.dx, out.sequence());
  out.add_typed("ddt", p.ddt, out.steps());
  out.add_floats("dA", p.dA, out.per_head());
  out.add_floats("dB", p.dB, out.projection());
  out.add_floats("dC", p.dC, out.projection());
  out.add_floats("dD", p.dD, out.D_elements(f.D_per_channel));
  out.add_typed("dz", p.dz, out.sequence());
  out.add_floats("ddt_bias", p.ddt_bias, out.per_head());
  out.add_floats("dinitial_states", p.dinitial_states, out.states());
  out.add_floats("final_states", f.final_states, out.states());  // version 1's backward writes them again
  return first_overlap(in, out);
}

}  // namespace ssd::detail
