// segment_model.cpp: the schedule a segmented launch is modelled by, and the cut it chooses.
#include "segment_model.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace ssd::detail {
namespace {

// The slots' free times, grouped: blocks of a launch cost alike, so a few groups stand for
// thousands of slots and a call's model costs microseconds.
class SlotSchedule {
 public:
  explicit SlotSchedule(std::int64_t slots) : free_{{0.0, slots}} {}

  // `count` blocks of `cost` each, none starting before `gate`: when the last one ends.
  double run(std::int64_t count, double cost, double gate) {
    double last_end = 0;
    while (count > 0) {
      auto& [time, slots] = free_.front();
      const std::int64_t taken = std::min(slots, count);
      const double end = std::max(time, gate) + cost;
      if (taken == slots)
        free_.erase(free_.begin());
      else
        slots -= taken;
      const auto at = std::lower_bound(free_.begin(), free_.end(), end,
                                       [](const std::pair<double, std::int64_t>& g, double t) { return g.first < t; });
      if (at != free_.end() && at->first == end)
        at->second += taken;
      else
        free_.insert(at, {end, taken});
      last_end = std::max(last_end, end);
      count -= taken;
    }
    return last_end;
  }

 private:
  std::vector<std::pair<double, std::int64_t>> free_;  // (time, slots free from then), by time
};

}  // namespace

RowSegments cut_rows(std::int64_t chunks, std::int64_t wanted) {
  const std::int64_t each = (chunks + wanted - 1) / wanted;
  return {each, int((chunks + each - 1) / each)};
}

double modelled_time(std::int64_t units, std::int64_t chunks, RowSegments cut, std::int64_t slots,
                     const SegmentCosts& costs) {
  const auto length = [&](int segment) {
    return double(std::min(cut.chunks_each, chunks - segment * cut.chunks_each));
  };
  SlotSchedule gpu(slots);
  const int unsummarised = costs.backward ? 0 : cut.count - 1;
  double summaries_end = 0;
  for (int segment = 0; segment < cut.count; ++segment)
    if (segment != unsummarised)
      summaries_end =
          std::max(summaries_end, gpu.run(units, length(segment) * costs.summary_per_chunk + costs.per_block, 0));
  double end = 0;
  for (int turn = 0; turn < cut.count; ++turn) {
    const int segment = costs.backward ? cut.count - 1 - turn : turn;
    end = std::max(end, gpu.run(units, length(segment) + costs.per_block, turn == 0 ? 0 : summaries_end));
  }
  return end;
}

RowSegments row_segments(std::int64_t units, std::int64_t chunks, std::int64_t multiprocessors,
                         int blocks_a_multiprocessor, const SegmentCosts& costs) {
  const std::int64_t slots = std::max<std::int64_t>(1, multiprocessors * blocks_a_multiprocessor),
                     filling_once = std::clamp<std::int64_t>(slots / std::max<std::int64_t>(units, 1), 1, chunks);
  if (blocks_a_multiprocessor > 1) return cut_rows(chunks, filling_once);
  // The model takes microseconds, a few percent of a small call: a thread keeps each direction's
  // last answer, since calls repeat their sizes (a model's layers, step after step).
  struct Answer {
    std::int64_t units = -1, chunks = -1, slots = -1;
    RowSegments cut{};
  };
  thread_local Answer last[2];
  Answer& remembered = last[costs.backward];
  if (remembered.units == units && remembered.chunks == chunks && remembered.slots == slots) return remembered.cut;
  std::vector<std::int64_t> wanted;
  for (std::int64_t count = 1; count <= std::min<std::int64_t>(chunks, 16); ++count) wanted.push_back(count);
  wanted.push_back(filling_once);
  RowSegments best = cut_rows(chunks, 1);
  double best_time = modelled_time(units, chunks, best, slots, costs);
  for (const std::int64_t count : wanted) {
    const RowSegments cut = cut_rows(chunks, count);
    const double time = modelled_time(units, chunks, cut, slots, costs);
    if (time < best_time * (1 - 1e-9)) best = cut, best_time = time;
  }
  remembered = {units, chunks, slots, best};
  return best;
}

}  // namespace ssd::detail
