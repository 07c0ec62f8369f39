// segment_model.hpp: how many segments version 3 cuts each row into: the count whose launch a model
// of the GPU's block scheduler says finishes first.
#pragma once

#include <cstdint>

namespace ssd::detail {

// What the model charges, in units of the time one walk block alone on a multiprocessor takes
// over one chunk: a summary block's time a chunk, every block's fixed part (its start, its first
// copies, its last stores, the summaries it folds), and the rate of each of two blocks at work on
// one multiprocessor. They were fitted to version 3 forced to 1 to 11 segments on 35 shapes, on
// one H200 (fp32 and bf16; 64, 128 and 256 states; 24 to 320 units; 4 to 256 chunks a row;
// 2026-12-01), and to A/Bs of others (appendix A). The forward's summary costs a third of its walk
// (it skips the chunk's quadratic product and its output); the backward's, a tenth of its heavier
// walk. Two forward blocks on a multiprocessor do 1.4 times the work of one, two backward blocks
// 1.6 times. The backward keeps rows whole where its units fill the GPU's places for walks twice or
// more (`whole_from_waves`): the model cut them in two, and the A/Bs found that 2 to 4% slower.
struct SegmentCosts {
  double summary_per_chunk, per_block, pair_rate;
  bool backward;             // summaries of every segment but the first, and the last segment walks first
  int whole_from_waves = 0;  // rows stay whole from this many waves of units (0: the model decides)
};
inline constexpr SegmentCosts kForwardSegments{0.35, 1.25, 0.7, false};
inline constexpr SegmentCosts kBackwardSegments{0.1, 0.5, 0.8, true, 2};

// Each of `units` rows of `chunks` chunks cut into `count` segments of `chunks_each` whole chunks
// (the last may have fewer).
struct RowSegments {
  std::int64_t chunks_each;
  int count;
};
RowSegments cut_rows(std::int64_t chunks, std::int64_t wanted);

// When the last block of a call cut as `cut` ends, in the costs' units, on a GPU of
// `multiprocessors` that hold `blocks_a_multiprocessor` walks each and take the blocks in launch
// order, each onto a multiprocessor with room that holds the fewest: every summary block first,
// then the walk's, whose blocks of every segment but the first to walk wait for the last summary
// to end, holding their places. A block alone on its multiprocessor works at rate 1, each of two
// at `pair_rate`.
double modelled_time(std::int64_t units, std::int64_t chunks, RowSegments cut, std::int64_t multiprocessors,
                     int blocks_a_multiprocessor, const SegmentCosts& costs);

// The cut of the least modelled time (the fewer segments on a tie) among 1 to 16 segments and as
// many as fill the GPU's places for walks once; rows whole from `costs.whole_from_waves` waves. Few
// units leave multiprocessors idle unless their rows are cut; a wave and a fraction leaves its last
// wave mostly idle, and two to four segments fill it; many units gain nothing that pays for the
// summaries. Where two blocks share a multiprocessor, one alone in a last wave runs faster than one
// of a pair, so a part-filled wave costs less than where a multiprocessor holds one.
RowSegments row_segments(std::int64_t units, std::int64_t chunks, std::int64_t multiprocessors,
                         int blocks_a_multiprocessor, const SegmentCosts& costs);

}  // namespace ssd::detail
