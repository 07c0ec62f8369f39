// segment_model.cpp: the schedule a segmented launch is modelled by, and the cut it chooses.
#include "segment_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <deque>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>
#include <vector>

namespace ssd::detail {
namespace {

// The GPU as `multiprocessors` of `capacity` blocks each. Each block, in launch order, goes to a
// multiprocessor with room that holds the fewest; k blocks at work on one multiprocessor each
// progress at (1 + (k - 1)(2 pair_rate - 1)) / k of the rate of one alone (two: pair_rate each).
// A block that waits for the summaries holds its place and works once the last summary ends.
// Multiprocessors in the same state are kept as one group: blocks of a launch cost alike, so a
// few groups stand for a whole GPU and a call's model costs microseconds.
class MultiprocessorSchedule {
 public:
  static constexpr int kMostBlocks = 4;  // a multiprocessor's blocks the model follows (version 3: 2)

  MultiprocessorSchedule(std::int64_t multiprocessors, int capacity, double pair_rate)
      : capacity_(std::clamp(capacity, 1, kMostBlocks)), pair_rate_(pair_rate) {
    groups_.push_back({{}, 0, multiprocessors});
  }

  // `count` blocks of `work` each, queued after those launched before.
  void launch(std::int64_t count, double work, bool summary, bool waits) {
    queued_.push_back({count, {work, summary, waits}});
    if (summary) summaries_left_ += count;
  }

  // Runs every block to its end; when the last one ends.
  double finish() {
    place();
    while (!queued_.empty() || std::any_of(groups_.begin(), groups_.end(), [](const Group& g) { return g.size > 0; })) {
      step();
      place();
    }
    return now_;
  }

 private:
  struct Block {
    double left;
    bool summary, waiting;
  };
  struct Queued {
    std::int64_t count;
    Block block;
  };
  struct Group {
    std::array<Block, kMostBlocks> blocks;  // on each multiprocessor of the group, the first `size`
    int size;
    std::int64_t multiprocessors;
  };

  double rate(int working) const { return working <= 1 ? 1.0 : (1 + (working - 1) * (2 * pair_rate_ - 1)) / working; }
  static int working(const Group& g) {
    return int(std::count_if(g.blocks.begin(), g.blocks.begin() + g.size, [](const Block& b) { return !b.waiting; }));
  }

  // Queued blocks onto the multiprocessors with room, one a multiprocessor a round, the emptiest
  // first.
  void place() {
    while (!queued_.empty()) {
      std::size_t emptiest = groups_.size();
      for (std::size_t g = 0; g < groups_.size(); ++g)
        if (groups_[g].multiprocessors > 0 && groups_[g].size < capacity_ &&
            (emptiest == groups_.size() || groups_[g].size < groups_[emptiest].size))
          emptiest = g;
      if (emptiest == groups_.size()) break;
      Queued& next = queued_.front();
      Group filled = groups_[emptiest];
      filled.multiprocessors = std::min(filled.multiprocessors, next.count);
      filled.blocks[filled.size++] = {next.block.left, next.block.summary, next.block.waiting && summaries_left_ > 0};
      groups_[emptiest].multiprocessors -= filled.multiprocessors;
      next.count -= filled.multiprocessors;
      groups_.push_back(filled);
      if (next.count == 0) queued_.pop_front();
    }
    merge();
  }

  // To the next end of a block: every working block progresses, the ended leave, and the last
  // summary's end lets the waiting blocks work.
  void step() {
    double dt = std::numeric_limits<double>::infinity();
    for (const Group& g : groups_) {
      const double r = rate(working(g));
      for (int b = 0; b < g.size; ++b)
        if (!g.blocks[b].waiting) dt = std::min(dt, g.blocks[b].left / r);
    }
    if (!std::isfinite(dt)) throw std::logic_error("segment model: every placed block waits");
    now_ += dt;
    for (Group& g : groups_) {
      const double progress = rate(working(g)) * dt;
      int kept = 0;
      for (int b = 0; b < g.size; ++b) {
        Block block = g.blocks[b];
        if (!block.waiting) block.left -= progress;
        if (block.waiting || block.left > kEpsilon)
          g.blocks[kept++] = block;
        else if (block.summary)
          summaries_left_ -= g.multiprocessors;
      }
      g.size = kept;
    }
    if (summaries_left_ == 0)
      for (Group& g : groups_)
        for (int b = 0; b < g.size; ++b) g.blocks[b].waiting = false;
    merge();
  }

  // Groups whose multiprocessors hold the same blocks become one; empty groups go.
  void merge() {
    const auto before = [](const Block& a, const Block& b) {
      return std::tie(a.left, a.summary, a.waiting) < std::tie(b.left, b.summary, b.waiting);
    };
    const auto same = [](const Group& a, const Group& b) {
      return a.size == b.size && std::equal(a.blocks.begin(), a.blocks.begin() + a.size, b.blocks.begin(),
                                            [](const Block& x, const Block& y) {
                                              return std::abs(x.left - y.left) <= kEpsilon && x.summary == y.summary &&
                                                     x.waiting == y.waiting;
                                            });
    };
    std::size_t kept = 0;
    for (std::size_t g = 0; g < groups_.size(); ++g) {
      Group& group = groups_[g];
      if (group.multiprocessors == 0) continue;
      std::sort(group.blocks.begin(), group.blocks.begin() + group.size, before);
      const auto twin = std::find_if(groups_.begin(), groups_.begin() + std::ptrdiff_t(kept),
                                     [&](const Group& m) { return same(m, group); });
      if (twin != groups_.begin() + std::ptrdiff_t(kept))
        twin->multiprocessors += group.multiprocessors;
      else
        groups_[kept++] = group;
    }
    groups_.resize(kept);
  }

  static constexpr double kEpsilon = 1e-9;
  int capacity_;
  double pair_rate_;
  std::vector<Group> groups_;
  std::deque<Queued> queued_;
  std::int64_t summaries_left_ = 0;
  double now_ = 0;
};

}  // namespace

RowSegments cut_rows(std::int64_t chunks, std::int64_t wanted) {
  const std::int64_t each = (chunks + wanted - 1) / wanted;
  return {each, int((chunks + each - 1) / each)};
}

double modelled_time(std::int64_t units, std::int64_t chunks, RowSegments cut, std::int64_t multiprocessors,
                     int blocks_a_multiprocessor, const SegmentCosts& costs) {
  const auto length = [&](int segment) {
    return double(std::min(cut.chunks_each, chunks - segment * cut.chunks_each));
  };
  MultiprocessorSchedule gpu(multiprocessors, blocks_a_multiprocessor, costs.pair_rate);
  const int unsummarised = costs.backward ? 0 : cut.count - 1;
  for (int segment = 0; segment < cut.count; ++segment)
    if (segment != unsummarised)
      gpu.launch(units, length(segment) * costs.summary_per_chunk + costs.per_block, true, false);
  for (int turn = 0; turn < cut.count; ++turn) {
    const int segment = costs.backward ? cut.count - 1 - turn : turn;
    gpu.launch(units, length(segment) + costs.per_block, false, turn > 0);
  }
  return gpu.finish();
}

RowSegments row_segments(std::int64_t units, std::int64_t chunks, std::int64_t multiprocessors,
                         int blocks_a_multiprocessor, const SegmentCosts& costs) {
  const std::int64_t slots = std::max<std::int64_t>(1, multiprocessors * blocks_a_multiprocessor),
                     filling_once = std::clamp<std::int64_t>(slots / std::max<std::int64_t>(units, 1), 1, chunks);
  if (costs.whole_from_waves > 0 && units >= costs.whole_from_waves * slots) return cut_rows(chunks, 1);
  // The model takes 20 to 330 µs on one core of the book's build machine, as long as a small
  // call's kernels: each thread keeps its answers (up to 256 sizes, then starts again), since calls
  // repeat their sizes (a model's layers, step after step; the lengths a server sees).
  using Sizes = std::tuple<std::int64_t, std::int64_t, std::int64_t, int, bool>;
  thread_local std::map<Sizes, RowSegments> answers;
  const Sizes sizes{units, chunks, multiprocessors, blocks_a_multiprocessor, costs.backward};
  if (const auto known = answers.find(sizes); known != answers.end()) return known->second;
  if (answers.size() >= 256) answers.clear();
  RowSegments best{};
  double best_time = std::numeric_limits<double>::infinity();
  const auto consider = [&](std::int64_t count) {
    const RowSegments cut = cut_rows(chunks, count);
    const double time = modelled_time(units, chunks, cut, multiprocessors, blocks_a_multiprocessor, costs);
    if (time < best_time * (1 - 1e-9)) best = cut, best_time = time;
  };
  for (std::int64_t count = 1; count <= std::min<std::int64_t>(chunks, 16); ++count) consider(count);
  consider(filling_once);
  answers.emplace(sizes, best);
  return best;
}

}  // namespace ssd::detail
