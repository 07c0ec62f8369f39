// Counting without wrapping: every product is checked with the compiler's overflow builtins, so
// that a refused call's message can still name the factors that made it too large.
#include "sizes_fit.hpp"

#include <algorithm>
#include <string>

namespace selective_scan::detail {
namespace {

constexpr const char* kPast64Bits = "more than 2^63 - 1 bytes";

std::int64_t ceil_div(std::int64_t n, std::int64_t d) { return n / d + (n % d != 0); }  // no n + d - 1 to wrap

std::string joined(std::initializer_list<std::int64_t> values, const char* separator) {
  std::string s;
  for (const std::int64_t v : values) s.append(s.empty() ? "" : separator).append(std::to_string(v));
  return s;
}

}  // namespace

std::string product_does_not_fit(const char* what, const char* formula, std::initializer_list<std::int64_t> factors,
                                 std::int64_t element_bytes, const char* unit) {
  std::optional<std::int64_t> count = checked_product(factors);
  if (count && checked_product({*count, element_bytes})) return "";
  return std::string(what) + " would take " + kPast64Bits + ": " + formula + " = " + joined(factors, " * ") + " " +
         unit;
}

std::optional<std::int64_t> checked_product(std::initializer_list<std::int64_t> factors) {
  std::int64_t product = 1;
  for (const std::int64_t f : factors)
    if (f < 0 || __builtin_mul_overflow(product, f, &product)) return std::nullopt;
  return product;
}

std::string sizes_do_not_fit(const Sizes& s, bool is_complex) {
  const std::int64_t pair = is_complex ? 2 : 1, states = s.dstate;
  const std::int64_t chunks = ceil_div(s.seqlen, kChunkLength), kept = ceil_div(s.seqlen, kStretch);
  if (std::string no = product_does_not_fit(
          "chunk_states",
          is_complex ? "batch * dim * ceil(seqlen / 2048) * dstate * 2" : "batch * dim * ceil(seqlen / 2048) * dstate",
          is_complex ? std::initializer_list<std::int64_t>{s.batch, s.dim, chunks, states, pair}
                     : std::initializer_list<std::int64_t>{s.batch, s.dim, chunks, states},
          sizeof(float), "floats");
      !no.empty())
    return no;
  if (std::string no = product_does_not_fit("state_checkpoints", "batch * dim * ceil(seqlen / 8) * dstate",
                                            {s.batch, s.dim, kept, states}, sizeof(float), "floats");
      !no.empty())
    return no;
  // The largest workspace either direction may ask for stays under 64 bytes a channel, state (and
  // one more) and step, counting at least 64 steps: the partial sums (up to 5 floats a channel,
  // state and step, complex counted), a cut's summaries (2 rows of dstate + 1 floats for each of
  // up to max(64, chunks) segments), the sliced states' step sums (2 floats a channel and step),
  // with room to spare for the per-block scratch, which the GPU's resident blocks bound. The
  // contiguous tensors (variable dB and dC the largest, 8 bytes a channel, state and step) fit
  // under the same bound.
  return product_does_not_fit("the workspace", "batch * dim * (dstate + 1) * max(seqlen, 64) * 64 bytes",
                              {s.batch, s.dim, states + 1, std::max<std::int64_t>(s.seqlen, 64)}, 64, "bytes");
}

std::string reach_does_not_fit(const char* what, std::initializer_list<StridedDimension> dimensions, std::int64_t row,
                               const char* row_name, std::int64_t element_bytes) {
  if (row < 1) return "";
  // Every call checks a dozen tensors this way, so the sum comes first and the message is built
  // only for a tensor that does not fit (PERFORMANCE.md, "The host's share of a short call").
  std::int64_t reach = row;  // one past the last element: sum of (length - 1) * stride, plus the row
  bool fits = true;
  for (const StridedDimension& d : dimensions) {
    if (d.length < 1 || d.stride < 0) return "";
    std::int64_t step = 0;
    fits =
        fits && !__builtin_mul_overflow(d.length - 1, d.stride, &step) && !__builtin_add_overflow(reach, step, &reach);
  }
  if (fits && checked_product({reach, element_bytes})) return "";
  std::string formula, values;
  for (const StridedDimension& d : dimensions) {
    formula.append("(").append(d.length_name).append(" - 1) * ").append(d.stride_name).append(" + ");
    values.append(d.length_name).append(" ").append(std::to_string(d.length)).append(", ");
    values.append(d.stride_name).append(" ").append(std::to_string(d.stride)).append(", ");
  }
  if (!row_name)  // single elements: "... + 1 elements of 4 bytes, with batch 3, batch_stride 7"
    return std::string(what) + " reaches " + kPast64Bits + ": " + formula + "1 elements of " +
           std::to_string(element_bytes) + " bytes, with " + values.substr(0, values.size() - 2);
  return std::string(what) + " reaches " + kPast64Bits + ": " + formula + row_name + " elements of " +
         std::to_string(element_bytes) + " bytes, with " + values + row_name + " " + std::to_string(row);
}

}  // namespace selective_scan::detail
