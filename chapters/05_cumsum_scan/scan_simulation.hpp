// CPU simulations of the three parallel scans of chapter 05, step by step, small enough to
// print: Hillis–Steele, Blelloch's up-sweep and down-sweep, and the tile states of the
// single-pass scan with decoupled look-back. They run without a GPU; the program prints
// their steps and draws them.
//
// A trick makes the steps readable: run a scan on x_j = 2^j. Every partial sum is then a
// sum of distinct powers of two, and its binary digits say exactly which inputs it holds
// (a sum that counted an input twice would carry into another digit and show up as a gap).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace scan {

// ---- Hillis–Steele ------------------------------------------------------------------------
// One step with offset d: out[j] = in[j] + in[j − d] for j ≥ d, out[j] = in[j] below
// (exercise 1; every j reads the *old* values, which is why the GPU version double-buffers).
std::vector<double> hillis_steele_step(std::span<const double> in, std::size_t offset);

// The states of the array: [0] = the input, [s + 1] = after the step with offset 2^s,
// until the offset reaches n. The last state is the inclusive scan.
std::vector<std::vector<double>> hillis_steele_trace(std::span<const double> x);

// ---- Blelloch -------------------------------------------------------------------------------
// The array is read as a complete binary tree over n = 2^m leaves. With stride d, node i of
// the level joins the pair (left, right) = (d(2i+1) − 1, d(2i+2) − 1).
// Up-sweep level: tree[right] += tree[left].
void blelloch_up_sweep_level(std::span<double> tree, std::size_t stride);
// Down-sweep level (exercise 2): the left child receives the parent's value (everything
// before the pair), the right child that value plus the old left child:
//   t = tree[left];  tree[left] = tree[right];  tree[right] += t.
void blelloch_down_sweep_level(std::span<double> tree, std::size_t stride);

struct BlellochStep {
  std::string what;        // "up-sweep, stride 2", "clear the root", ...
  std::size_t stride = 0;  // 0 for the root clearing
  bool up = true;
  std::vector<double> state;  // the array after this step
};
// The input, then every level of the up-sweep, the root cleared, and every level of the
// down-sweep. n must be a power of two. The last state is the *exclusive* scan.
std::vector<BlellochStep> blelloch_trace(std::span<const double> x);

// Exclusive scan of any length by Blelloch's algorithm (zero-padded to a power of two).
std::vector<double> blelloch_exclusive_scan(std::span<const double> x);

// Shared-memory banks: a warp's 32 accesses to 4-byte words are served in one pass unless
// several distinct words fall into the same bank (word address mod 32). This is the worst
// number of distinct words per bank -- the "n-way conflict" -- when the first warp of an
// up-sweep level with `stride` reads tree[left] for its 32 threads, in an array of n
// elements, without or with one word of padding after every 32.
int up_sweep_conflict_degree(std::size_t n, std::size_t stride, bool padded);
// The padded position of element i: one spare word after every 32.
constexpr std::size_t padded_index(std::size_t i) { return i + (i >> 5); }

// ---- Decoupled look-back --------------------------------------------------------------------
// Every tile publishes one status word: its flag and a value that travel together.
enum class TileFlag { not_ready, aggregate, prefix };
struct TileStatus {
  TileFlag flag = TileFlag::not_ready;
  double value = 0;  // the tile's own sum (aggregate) or the sum of tiles 0..tile (prefix)
};

struct LookBack {
  bool ready = false;           // false: a predecessor has published nothing yet; look again later
  double exclusive_prefix = 0;  // when ready: the sum of every tile before `tile`
  std::size_t inspected = 0;    // predecessors read, the one that stopped the walk included
};
// Exercise 3: walk back from tile − 1, adding aggregates, until a tile with its inclusive
// prefix (stop, ready), or a tile that is not ready (stop, not ready). Tile 0 needs nothing.
LookBack look_back(std::span<const TileStatus> status, std::size_t tile);

enum class TilePhase { not_started, reducing, looking_back, done };
struct LookBackSimulation {
  std::vector<std::vector<TilePhase>> phases;  // [time step][tile], after the step
  std::vector<double> exclusive_prefix;        // what each tile found
  std::vector<std::string> events;             // one line per look-back
};
// Tiles are claimed in order by `resident_blocks` blocks; each spends 1..4 steps (random,
// from `seed`) reading and reducing its tile, publishes its aggregate (tile 0: its prefix),
// then looks back once per step until ready, publishes its prefix and frees its block. All
// tiles of a step see the statuses as they were at the start of the step. Throws if the
// tiles stop making progress (which claiming in order rules out).
LookBackSimulation simulate_decoupled_look_back(std::span<const double> tile_sums, int resident_blocks,
                                                std::uint64_t seed);

// ---- Reading the power-of-two trick ---------------------------------------------------------
// For a value that is a sum of distinct 2^j: "a..b" when it holds x_a..x_b, "j" for one
// input, "∅" for the empty sum, and "?" when the inputs are not one contiguous range.
std::string held_range(double value);
// The range as (first, last); first > last for the empty sum; (−1, −1) when not contiguous.
std::pair<int, int> held_range_bounds(double value);

// x_j = 2^j, j = 0..n−1 (n ≤ 52, so every sum is exact in fp64).
std::vector<double> power_of_two_input(std::size_t n);

}  // namespace scan
