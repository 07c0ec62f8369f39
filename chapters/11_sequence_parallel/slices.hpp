// One sequence cut into slices, one a GPU (a rank): which positions each rank holds, and a
// chapter 08 problem restricted to them.
#pragma once

#include "reference.hpp"

#include <cstdint>
#include <vector>

namespace ch11 {

struct Slice {
  std::int64_t begin = 0, end = 0;  // positions [begin, end)
  std::int64_t length() const { return end - begin; }
};

// The cuts of the GPUs' slices fall on multiples of this many positions: a slice's rows of
// 2-byte inputs then start on 16 bytes, which chapter 08's version 5 needs to copy them in bulk
// (rows_on_16_bytes); cut anywhere else, it loads them one value at a time.
constexpr std::int64_t kGpuCut = 8;

// seqlen positions in `ranks` contiguous slices, cut on multiples of `granule` positions and as
// even as whole granules allow (the first ones a granule longer); the last slice also takes the
// seqlen % granule positions left over. Where seqlen holds fewer granules than ranks, the cuts
// fall on any position (granule 1). Throws std::invalid_argument unless 1 <= ranks <= seqlen
// and granule >= 1.
std::vector<Slice> split(std::int64_t seqlen, int ranks, std::int64_t granule = 1);
// Rank 0 two shares and the others one (seqlen · 2 / (ranks + 1) and seqlen / (ranks + 1), in
// whole granules as split's), since sequence_parallel::forward scans rank 0's slice once and the
// others' twice. It does not shorten the call: the others' second pass waits for rank 0's summary,
// the end of its one pass, so the call takes three shares in a row where the even split takes
// two (chapter 11, section [5], measures both). Throws as split does.
std::vector<Slice> split_for_forward(std::int64_t seqlen, int ranks, std::int64_t granule = 1);

// p's positions [s.begin, s.end): u, delta, z, B and C cut along time, everything else as it is,
// and `entering` as the initial state (empty: none).
ch08::Problem slice_of(const ch08::Problem& p, const Slice& s, const std::vector<double>& entering);

// A (batch, dim, seqlen) tensor's positions [s.begin, s.end), and slices put back in order.
std::vector<double> cut(const std::vector<double>& v, std::int64_t rows, std::int64_t seqlen, const Slice& s);
std::vector<double> joined(const std::vector<std::vector<double>>& pieces, std::int64_t rows);

// The real parts of chapter 08's complex tensors (this chapter's A is real, so are its states).
std::vector<double> real_parts(const std::vector<ch08::Complex>& v);

// Checks that the chapter's algorithm applies to p: real A, B and C variable. Throws
// std::invalid_argument naming what does not.
void require_supported(const ch08::Problem& p);

}  // namespace ch11
