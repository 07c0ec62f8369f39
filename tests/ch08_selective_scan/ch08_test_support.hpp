// Small helpers shared by chapter 08's tests.
#pragma once

#include "check_close.hpp"
#include "compare.hpp"
#include "reference.hpp"
#include "selective_scan.hpp"

#include <catch2/catch.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ch08_test {

// An input type as the tests' messages name it.
inline const char* type_name(selective_scan::DataType type) {
  switch (type) {
    case selective_scan::DataType::float32: return "fp32";
    case selective_scan::DataType::float16: return "fp16";
    case selective_scan::DataType::bfloat16: return "bf16";
  }
  return "?";
}

// (re, im, re, im, ...): complex tensors compared with common::compare.
inline std::vector<double> interleaved(const std::vector<ch08::Complex>& v) {
  std::vector<double> flat;
  flat.reserve(2 * v.size());
  for (const ch08::Complex& x : v) {
    flat.push_back(x.real());
    flat.push_back(x.imag());
  }
  return flat;
}

// The same problem with its constant B and C written out as variable ones: each (dim, dstate)
// value repeated over batch and time. Needs one channel per group (groups == dim).
inline ch08::Problem made_variable(const ch08::Problem& constant) {
  ch08::Problem variable = constant;
  variable.variable_B = variable.variable_C = true;
  variable.B.clear();
  variable.C.clear();
  for (std::int64_t b = 0; b < constant.batch; ++b)
    for (std::int64_t d = 0; d < constant.dim; ++d)
      for (int n = 0; n < constant.dstate; ++n)
        for (std::int64_t t = 0; t < constant.seqlen; ++t) {
          variable.B.push_back(constant.B[std::size_t(d * constant.dstate + n)]);
          variable.C.push_back(constant.C[std::size_t(d * constant.dstate + n)]);
        }
  return variable;
}

// Steps [begin, end) of every row of v, whose rows are row_length steps long.
template <class T>
std::vector<T> steps_of_rows(const std::vector<T>& v, std::int64_t rows, std::int64_t row_length, std::int64_t begin,
                             std::int64_t end) {
  std::vector<T> out;
  for (std::int64_t row = 0; row < rows; ++row)
    for (std::int64_t t = begin; t < end; ++t) out.push_back(v[std::size_t(row * row_length + t)]);
  return out;
}

// Rows of a (a_length steps each) and of b (b_length) joined row by row: two pieces of a sequence
// made one again.
template <class T>
std::vector<T> joined_rows(const std::vector<T>& a, const std::vector<T>& b, std::int64_t rows, std::int64_t a_length,
                           std::int64_t b_length) {
  std::vector<T> out;
  for (std::int64_t r = 0; r < rows; ++r) {
    out.insert(out.end(), a.begin() + std::ptrdiff_t(r * a_length), a.begin() + std::ptrdiff_t((r + 1) * a_length));
    out.insert(out.end(), b.begin() + std::ptrdiff_t(r * b_length), b.begin() + std::ptrdiff_t((r + 1) * b_length));
  }
  return out;
}

// a + b, element by element: a weight's gradient over two pieces of a sequence.
template <class T>
std::vector<T> summed(std::vector<T> a, const std::vector<T>& b) {
  for (std::size_t i = 0; i < a.size(); ++i) a[i] += b[i];
  return a;
}

// Steps [begin, begin + length) of p: every tensor along time (u, delta, z, and B and C where they
// vary) cut to those steps, everything else as it was (packed sequences' offsets included).
inline ch08::Problem time_slice(const ch08::Problem& p, std::int64_t begin, std::int64_t length) {
  ch08::Problem q = p;
  q.seqlen = length;
  const auto cut = [&](const auto& v, std::int64_t rows) {
    return steps_of_rows(v, rows, p.seqlen, begin, begin + length);
  };
  const std::int64_t rows = p.batch * p.dim, projections = p.batch * p.groups * p.dstate;
  q.u = cut(p.u, rows);
  q.delta = cut(p.delta, rows);
  if (p.has_z) q.z = cut(p.z, rows);
  if (p.variable_B) q.B = cut(p.B, projections);
  if (p.variable_C) q.C = cut(p.C, projections);
  return q;
}

// The flags of a problem, in words, for failure messages.
inline std::string describe(const ch08::Problem& p) {
  auto flag = [](bool on, const char* name) { return std::string(on ? " +" : " -") + name; };
  return "batch " + std::to_string(p.batch) + ", dim " + std::to_string(p.dim) + ", seqlen " +
         std::to_string(p.seqlen) + ", dstate " + std::to_string(p.dstate) + ", groups " + std::to_string(p.groups) +
         flag(p.complex, "complex") + flag(p.variable_B, "varB") + flag(p.variable_C, "varC") + flag(p.has_D, "D") +
         flag(p.has_z, "z") + flag(p.has_delta_bias, "delta_bias") + flag(p.delta_softplus, "softplus") +
         flag(p.has_initial_state, "h0") +
         (p.cu_seqlens.empty() ? std::string() : ", " + std::to_string(p.sequences()) + " packed sequences");
}

}  // namespace ch08_test
