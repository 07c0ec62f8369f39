// sections.hpp: the sections of chapter 06's program, in the order it runs them, and what they
// share: the options and the checks' decays and tolerance.
// sections_recurrence.cpp holds the recurrence, its pair operator and its impulse responses,
// sections_precision.cpp the fp32 error and the underflow of the a's product, sections_gpu.cpp
// the GPU versions' checks and the benchmark, sections_tile_sweep.cpp the tuning of version 5's
// tile.
#pragma once

#include "compare.hpp"
#include "notebook.hpp"

#include <cstddef>
#include <string>

namespace ch06 {

using common::Notebook;
using common::Tolerance;

struct Options {
  long long check_length = (1 << 20) + 7;
  long long batch = 64;
  bool tile_sweep = false;
};

// a_k in [0.95, 1), |b_k| < 1: the checks' inputs. Section 4 measures the fp32 error this
// tolerance has to cover; a wrong carry is off by O(1).
inline constexpr double kDecayLo = 0.95, kDecayHi = 1.0;
inline constexpr Tolerance kFp32{1e-4, 1e-4};

inline constexpr std::size_t kBatchedLength = 20001;  // the length of the batched GPU check's sequences

void section_recurrence(Notebook& nb);
void section_pair_operator(Notebook& nb, const Options& o);
void section_impulse(Notebook& nb);
void section_precision(Notebook& nb);
void section_underflow(Notebook& nb);
void section_gpu(Notebook& nb, const Options& o);
void section_benchmark(Notebook& nb);
void section_tile_sweep(Notebook& nb);

}  // namespace ch06
