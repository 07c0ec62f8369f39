// Version 3: version 2's five stages in one kernel, their products on the tensor cores.
//
// One block of 8 warps takes a (batch row, head, 64 channels of the head) and walks its chunks of
// 64 positions in order, carrying the state (64 channels × the states) in the warps' fp32
// accumulators from chunk to chunk: stage 3's scan across chunks becomes the walk itself, and
// nothing but the inputs and y crosses memory (version 2 writes M, the chunk states and four fp32
// copies). A chunk, Q = 64 positions t (and s ≤ t), its state h entering:
//   1 dt' and the running sum acs of A dt' (one warp's shuffle scan);
//   2 G = C Bᵀ (Q × Q) and yh = C hᵀ (Q × channels) in one pass over the states: both read C;
//   3 M = G exp(acs_t − acs_s) dt'_s where s ≤ t in one sequence, rounded to the input type into
//     shared memory; y = exp(acs_t) yh + M x + D x, gated, written;
//   4 h = exp(acs_last) h + (x dt' exp(acs_last − acs))ᵀ B, the mma accumulating into h itself.
// Step 4 runs between M's making and M x, so that B, C and the weighted x are done with early:
// the next chunk's B, C, x (into the weighted x's tile) and dt are fetched then, its z once the
// gate has read this chunk's, each travelling while this chunk computes.
// The products' operands are the input type (fp16 or bf16: what the tensor cores multiply), M and
// the scaled x rounded to it, as the official kernels round them; every sum is fp32. The state
// enters step 2 rounded to the input type too, and stays fp32 in the accumulators. fp32 inputs
// are multiplied as bf16 pairs (v3_tiles.cuh, Operand): every operand's tile twice, hi then lo, each
// product three mma.sync, y stored from the registers; nearly twice the shared memory, so 128
// states at most.
// Where the caller asks for the final states, 16-bit inputs' weighted x is split the same way
// (what its rounding left in a tile of its own, a second mma.sync in step 4): they are fp32, so
// their error is the products' rounding, not their type's, and rounded as the official kernels
// round their weighted B, ours erred by up to 1.14 times theirs (appendix A, 2026-12-01). So it is
// where the walk keeps the entering states for the backward, which then also keeps what rounding
// each to 16 bits left (store_remainders): every chunk passes a state, and with chunks of 64, four
// times as many roundings as the official kernels' default chunks of 256 make, each kept in 16 bits
// put the backward's dA behind theirs (appendix A, 2026-12-02).
//
// With seq_idx a term counts only where its two ends lie in one sequence, as version 2 counts them.
//
// A forward that keeps its saved for the backward writes, beside y, the state entering each chunk
// and, where there is a gate, y before it (u, the backward's gate reads it), each lane its own two
// values from the registers that gate them: no second pass over u and z to gate y afterwards.
//
// Where the (row, head, channel block) units are fewer than the blocks the GPU holds at once (a
// small batch), each row is cut into segments of whole chunks, a block a segment, in two launches:
// the summaries (each segment but the last walked from a zero state through steps 1 and 4 alone:
// the state it leaves and its total decay, chapter 06's pair), then the walks, each starting from
// the summaries before it folded into its entering state.
#include "v3_fused.hpp"

#include "check.hpp"
#include "device_facts.hpp"
#include "fused_args.hpp"
#include "launch.cuh"
#include "layouts.hpp"
#include "param_checks.hpp"
#include "v3_segments.cuh"
#include "v3_tiles.cuh"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace ssd::detail {
namespace {

using selective_scan::detail::device_limits;
using selective_scan::detail::element_bytes;
using selective_scan::detail::to_float;
namespace mma = warp_mma;

using namespace v3;

// The block's shared memory for NS states (the call's rounded up): tiles of 16-bit operands (for
// fp32 inputs, kPairs, twice over: the pairs' hi halves, then their lo halves, kElements further),
// then a float or int32 a position of the chunk for dt', acs, the weights of x in the state's
// update, the decay of the entering state to each position, and the sequence numbers. y's tile,
// where 16-bit inputs gather y for 16-byte stores, is not there for fp32 ones: they store y from
// the registers, since a tile of pairs costs a split and a sum a number (appendix A, 2026-12-01).
// Nor are their z and x among the pairs, as the copies bring them: z is never multiplied, and x
// is split when the walk weights it (into its tile of pairs and the weighted x's), so fp32's lie as
// they are after the floats (kRawZ and kRawX, bytes), copied as 16-bit inputs' are, where pairs
// made by the threads on the way in would pass through registers.
template <int NS, bool kPairs>
struct Shared {
  static constexpr int kXRow = kP + kPad, kStateRow = NS + kPad, kChunkRow = kQ + kPad;
  static constexpr int kX = 0, kZ = kX + kQ * kXRow, kY = kZ + (kPairs ? 0 : kQ * kXRow),
                       kScaledX = kY + (kPairs ? 0 : kQ * kXRow), kB = kScaledX + kQ * kXRow, kC = kB + kQ * kStateRow,
                       kM = kC + kQ * kStateRow, kState = kM + kQ * kChunkRow, kElements = kState + kP * kStateRow;
  static constexpr std::size_t kRawZ = kElements * 2 * (kPairs ? 2 : 1) + 5 * kQ * 4, kRawX = kRawZ + kQ * kXRow * 4;
  static constexpr std::size_t bytes() { return kRawZ + (kPairs ? 2 * kQ * kXRow * 4 : 0); }
};
// After them where the weighted x is split (16-bit inputs): its lo halves.
constexpr std::size_t kSplitBytes = kQ * (kP + kPad) * 2;

// Shared memory a block needs with `dstate` states, for 16-bit inputs or fp32 ones (as pairs).
std::size_t shared_bytes(int dstate, bool pairs) {
  const int tile = state_tile(dstate);
  if (pairs) return tile == 64 ? Shared<64, true>::bytes() : Shared<128, true>::bytes();  // fp32: 128 states at most
  return tile == 64    ? Shared<64, false>::bytes()
         : tile == 128 ? Shared<128, false>::bytes()
                       : Shared<256, false>::bytes();
}

// What a launch does with segment blockIdx.x / units: a summary walks it from a zero state and
// writes only the state it leaves and its total decay (no y); the walk proper writes y, and for the
// backward also the state entering each chunk and u. Three instantiations, so that the forward alone
// pays no registers for the backward's states.
enum class Pass { summary, output, output_and_states };

// T is the inputs' type; the tensor cores multiply Operand<T>'s (fp32 inputs as bf16 pairs).
// Two blocks a multiprocessor where their shared memory fits (16-bit inputs, at most 128 states):
// the register cap that keeps them, 128 a thread, is asked for, not left to the compiler's choice.
template <class T>
constexpr int kWalkBlocks(int states) {
  return !Operand<T>::pairs && states <= 128 ? 2 : 1;
}

template <class T, int NS, Pass kPass>
__global__ void __launch_bounds__(kThreads, kWalkBlocks<T>(NS)) fused_forward_kernel(FusedArgs a) {
  constexpr bool kSummary = kPass == Pass::summary;
  using M = typename Operand<T>::type;
  constexpr bool kPairs = Operand<T>::pairs;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
  __trap();  // fused_refuses keeps a call from here: no mma.sync on these operands before sm_80
#else
  using L = Shared<NS, kPairs>;
  // Where a tile's lo halves lie, in elements and in bytes after its hi ones (0 without pairs).
  constexpr int kLo = kPairs ? L::kElements : 0, kLoBytes = kLo * int(sizeof(M));
  extern __shared__ __align__(16) unsigned char shared[];
  M* const tiles = reinterpret_cast<M*>(shared);
  M *const ys = tiles + L::kY, *const bs = tiles + L::kB, *const cs = tiles + L::kC;
  // z's tile, of the inputs' own type (fp32's after the floats, Shared).
  T* const zs = kPairs ? reinterpret_cast<T*>(shared + L::kRawZ) : reinterpret_cast<T*>(tiles + L::kZ);
  float* const raw_x = reinterpret_cast<float*>(shared + L::kRawX);  // fp32's x as it comes (Shared)
  // x and the weighted x trade their two tiles each chunk: the next chunk's x lands in the tile that
  // step 4 has just read, while M x and the gate still read this chunk's.
  M *xs = tiles + L::kX, *scaled_x = tiles + L::kScaledX;
  M *const ms = tiles + L::kM, *const hs = tiles + L::kState;
  float* const step = reinterpret_cast<float*>(tiles + L::kElements * (kPairs ? 2 : 1));
  float *const acs = step + kQ, *const weight = acs + kQ, *const decay_to = weight + kQ;
  std::int32_t* const seq = reinterpret_cast<std::int32_t*>(decay_to + kQ);
  const bool split = !kPairs && a.split_weighted_x;
  M* const scaled_x_lo = reinterpret_cast<M*>(shared + L::bytes());  // with `split` only

  const Sizes& s = a.s;
  const std::int64_t units = s.batch * s.heads * a.channel_blocks;
  const int channel_block = int(blockIdx.x % a.channel_blocks), segment = int(blockIdx.x / units);
  const std::int64_t bh = blockIdx.x % units / a.channel_blocks, b = bh / s.heads;
  const int h = int(bh % s.heads), group = h / (s.heads / s.groups);
  const int p0 = channel_block * kP, channels = min(kP, s.head_dim - p0);
  const std::int64_t width = std::int64_t(s.heads) * s.head_dim, projection = std::int64_t(s.groups) * s.dstate;
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32, g = lane / 4, q = lane % 4;
  const int row0 = 16 * (warp % 4), half = warp / 4;
  const float A2 = a.A[h] * kLog2e;  // acs is kept in base 2: exp(x) = exp2(x log2 e), one MUFU instruction
  const T *const x = static_cast<const T*>(a.x), *const z = static_cast<const T*>(a.z);
  T *const y = static_cast<T*>(a.y), *const ungated_y = static_cast<T*>(a.ungated_y);

  // The state h[p][n]: this lane holds rows p = row0 + g (+ 8), columns n = half NS/2 + 8 j + 2 q (+ 1).
  // A segment's walk enters with the initial state carried through the segments before it: h =
  // decay h + the state each leaves; a summary, with zero. The segments are the outer loop, so that
  // a segment's loads of the lane's 32 elements are issued together: one trip to memory a segment,
  // not one an element and segment.
  constexpr int kStateTiles = NS / 16;
  float state[kStateTiles][4] = {};
  const std::int64_t states_at = ((b * s.heads + h) * s.head_dim + p0) * s.dstate;
  const std::int64_t all_states = s.batch * s.heads * std::int64_t(s.head_dim) * s.dstate;
  const auto carry_in = [&](const float* from, float decay) {
    for (int j = 0; j < kStateTiles; ++j)
      for (int e = 0; e < 4; ++e) {
        const int p = row0 + g + e / 2 * 8, n = half * NS / 2 + 8 * j + 2 * q + e % 2;
        state[j][e] = decay * state[j][e] + (from && p < channels && n < s.dstate ? from[p * s.dstate + n] : 0.f);
      }
  };
  if constexpr (kSummary) let_walk_start();
  carry_in(!kSummary && a.initial_states ? a.initial_states + states_at : nullptr, 0.f);

  // D of this lane's channels of y, p = 32 half + 8 j + 2 q (+ 1); 0 without D and past the head.
  float d_of[4][2];
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 2; ++k) {
      const int p = 32 * half + 8 * j + 2 * q + k;
      d_of[j][k] = !a.D || p >= channels ? 0.f : a.D[a.D_per_channel ? h * s.head_dim + p0 + p : h];
    }

  const std::int64_t first_chunk = segment * a.segment_chunks;
  const std::int64_t end_chunk = min((s.seqlen + kQ - 1) / kQ, first_chunk + a.segment_chunks);
  // Where chunk c lies: its first position's index into dt and B (at) and into x (x_at), its length.
  struct Place {
    std::int64_t at, x_at;
    int len;
  };
  const auto place_of = [&](std::int64_t c) {
    const std::int64_t t0 = c * kQ, at = b * s.seqlen + t0;
    return Place{at, at * width + std::int64_t(h) * s.head_dim + p0, int(min(std::int64_t(kQ), s.seqlen - t0))};
  };
  // The next chunk's inputs travel while this chunk computes (a summary reads neither C nor z):
  // dt and the sequence numbers, B, C and x once step 4 has read B, C and the weighted x (one group
  // of copies, waited for at the next chunk's top); z once the gate is done (a group of its own, waited
  // for before the next chunk's M x). fp32's pairs wait in registers until their tiles are put
  // (StagedTile): B and C through M x and the gate.
  StagedTile<T, kQ, NS> next_b, next_c;
  FetchedStep<T> next_step{};
  const bool gated = z && !kSummary;
  const auto fetch_projections = [&](const Place& k) {
    if (threadIdx.x < kQ) next_step = fetch_step<T>(a, k.at, h, k.len);
    const std::int64_t at = k.at * projection + std::int64_t(group) * s.dstate;
    next_b.fetch(bs, L::kStateRow, kLo, static_cast<const T*>(a.B) + at, projection, k.len, s.dstate, a.bc_in_vectors);
    if (!kSummary)
      next_c.fetch(cs, L::kStateRow, kLo, static_cast<const T*>(a.C) + at, projection, k.len, s.dstate,
                   a.bc_in_vectors);
  };
  const auto put_projections = [&] {
    next_b.put(bs, L::kStateRow, kLo);
    if (!kSummary) next_c.put(cs, L::kStateRow, kLo);
  };
  // x into `to`, the tile the weighted x has left (fp32: into its own, read by the weighting).
  const auto fetch_x = [&](M* to, const Place& k) {
    if constexpr (kPairs)
      load_tile<kQ, kP>(raw_x, L::kXRow, x + k.x_at, width, k.len, channels, a.x_in_vectors);
    else
      load_tile<kQ, kP>(to, L::kXRow, x + k.x_at, width, k.len, channels, a.x_in_vectors);
  };
  const auto fetch_z = [&](const Place& k) {
    if (gated) load_tile<kQ, kP>(zs, L::kXRow, z + k.x_at, width, k.len, channels, a.x_in_vectors);
  };
  if (first_chunk < end_chunk) {
    const Place first = place_of(first_chunk);
    fetch_projections(first), fetch_x(xs, first);
    put_projections();
    async_copy::commit();
    fetch_z(first);
    async_copy::commit();
  }
  // The summaries before this segment, once their launch is done (the first chunk's copies travel
  // meanwhile).
  if (!kSummary && segment > 0) wait_for_summaries();
  for (int before = 0; !kSummary && before < segment; ++before)
    carry_in(a.segment_states + before * all_states + states_at, a.segment_decays[before * s.batch * s.heads + bh]);
  float segment_decay = 1.f;  // the product of the chunks' decays (a summary's)
  for (std::int64_t c = first_chunk; c < end_chunk; ++c) {
    const Place here = place_of(c);
    const std::int64_t at = here.at, x_at = here.x_at;
    const int len = here.len;
    // The state before the chunk belongs to the sequence of the position before it (0 before the first).
    const std::int32_t seq_before = a.seq_idx && c > 0 ? a.seq_idx[at - 1] : 0;

    // Before the fetched tiles are waited for (z may travel on): the entering state in T, [p][n]
    // (the right operand of C hᵀ; a summary does not read it), and dt' from the fetched dt (0 past
    // the sequence, so that acs stays put there) with the sequence numbers (past the sequence, the
    // last position's).
    if (!kSummary) store_accumulators<kPairs>(hs, L::kStateRow, state, row0, half * NS / 2, kLo);
    if (threadIdx.x < kQ) store_step(step, seq, next_step, a, h, len);
    async_copy::wait_all_but<1>();  // all but z
    __syncthreads();
    // The entering state's tile, whole now, copied out from shared memory in rows: from the
    // accumulators, each lane's scattered pairs cost the walk registers it needs elsewhere.
    if constexpr (kPass == Pass::output_and_states) {
      T* const entering =
          static_cast<T*>(a.entering_states) + ((bh * ((s.seqlen + kQ - 1) / kQ) + c) * s.head_dim + p0) * s.dstate;
      // fp32 as hi + lo: the state as the products here took it.
      store_operand_tile<kP, NS>(entering, s.dstate, hs, L::kStateRow, kLo, channels, s.dstate, a.states_in_vectors);
      if constexpr (!kPairs) {  // and what the tile's rounding left, from the registers
        std::uint32_t words[2 * kStateTiles];
        remainder_words<M>(words, state);
        const std::int64_t chunks = (s.seqlen + kQ - 1) / kQ;
        store_remainders<kStateTiles>(static_cast<unsigned char*>(a.entering_lo) +
                                          remainders_at<NS>(bh, a.channel_blocks, channel_block, chunks, c),
                                      words);
      }
    }
    if (warp == 0) forward_weights(step, seq, seq_before, A2, acs, weight, decay_to);
    __syncthreads();

    // Step 4's left operand, ready for after step 3: x weighted, eight elements at a time (fp32:
    // from x as it came, split into x's pairs on the way).
    const int split_lo = int(scaled_x_lo - scaled_x);  // elements from the weighted x to its lo halves
    for (int i = int(threadIdx.x); i < kQ * kP / 8; i += kWarps * 32) {
      const int t = i / (kP / 8), p = i % (kP / 8) * 8;
      float v[8];
      if constexpr (kPairs) {
        const float4* const from = reinterpret_cast<const float4*>(raw_x + t * L::kXRow + p);
        const float4 first = from[0], second = from[1];
        v[0] = first.x, v[1] = first.y, v[2] = first.z, v[3] = first.w;
        v[4] = second.x, v[5] = second.y, v[6] = second.z, v[7] = second.w;
        if (!kSummary) put_eight<true>(xs + t * L::kXRow + p, kLo, v);  // M x and D x read it
      } else {
        get_eight<false>(v, xs + t * L::kXRow + p, 0);
      }
      for (float& e : v) e *= weight[t];
      if (split)
        put_eight<true>(scaled_x + t * L::kXRow + p, split_lo, v);
      else
        put_eight<kPairs>(scaled_x + t * L::kXRow + p, kLo, v);
    }

    float yt[4][4] = {};  // yh, then y: this warp's 16 rows t, its half of the channels (a summary's: unused)
    if constexpr (!kSummary) {
      // [snippet:v3_products]
      // Step 2: this warp's 16 rows t of G (columns s in its half) and of yh (channels in its half).
      // A G tile wholly above the diagonal (every s > t) is not needed.
      float gt[4][4] = {};
      const bool needs_g = 32 * half <= row0 + 15;
      for (int k0 = 0; k0 < NS; k0 += 16) {
        Fragment<kPairs> ca, bb;
        ca.load(cs + (row0 + lane % 16) * L::kStateRow + k0 + lane / 16 * 8, kLoBytes);
        for (int pair = 0; pair < 2; ++pair) {
          const int col = 32 * half + 16 * pair + lane % 8 + lane / 16 * 8, k = k0 + lane / 8 % 2 * 8;
          if (needs_g) {
            bb.load(bs + col * L::kStateRow + k, kLoBytes);
            multiply_add_fragments<M>(gt[2 * pair], ca, bb, 0);
            multiply_add_fragments<M>(gt[2 * pair + 1], ca, bb, 2);
          }
          bb.load(hs + col * L::kStateRow + k, kLoBytes);
          multiply_add_fragments<M>(yt[2 * pair], ca, bb, 0);
          multiply_add_fragments<M>(yt[2 * pair + 1], ca, bb, 2);
        }
      }
      // [/snippet:v3_products]

      // Step 3: yh decayed to each row; M into shared memory.
      for (int r = 0; r < 2; ++r) {
        const int t = row0 + g + 8 * r;
        for (int j = 0; j < 4; ++j) yt[j][2 * r] *= decay_to[t], yt[j][2 * r + 1] *= decay_to[t];
      }
      if (needs_g)
        lane_share_of_m([&](int j, int i) { return gt[j][i]; },
                        [&](int t, int u, float first, float second) {
                          put_two<kPairs>(ms + t * L::kChunkRow + u, kLo, first, second);
                        },
                        acs, step, seq, row0, 32 * half);
    }
    async_copy::wait_all();  // z, for the gate
    __syncthreads();         // M, the weighted x and z are whole (each is read across warps below)

    // [snippet:v3_state]
    // Step 4 (before M x, to free B and C early): the state through the chunk; this warp's rows p,
    // its half of the states.
    const float chunk_decay = seq[kQ - 1] == seq_before ? exp2f(acs[kQ - 1]) : 0.f;
    segment_decay *= chunk_decay;
    for (int j = 0; j < kStateTiles; ++j)
      for (int e = 0; e < 4; ++e) state[j][e] *= chunk_decay;
    for (int k0 = 0; k0 < kQ; k0 += 16) {
      Fragment<kPairs> xa, bb;
      M* const xa_at = scaled_x + (k0 + lane % 8 + lane / 16 * 8) * L::kXRow + row0 + lane / 8 % 2 * 8;
      xa.template load<true>(xa_at, kLoBytes);
      if (split) warp_mma::load_tiles_transposed(xa.lo, xa_at + split_lo);
      for (int pair = 0; pair < kStateTiles / 2; ++pair) {
        bb.template load<true>(
            bs + (k0 + lane % 8 + lane / 8 % 2 * 8) * L::kStateRow + half * NS / 2 + 16 * pair + lane / 16 * 8,
            kLoBytes);
        multiply_add_fragments<M>(state[2 * pair], xa, bb, 0);
        multiply_add_fragments<M>(state[2 * pair + 1], xa, bb, 2);
        if (split) {  // what the weighted x's rounding left
          warp_mma::multiply_add<M>(state[2 * pair], xa.lo, bb.hi[0], bb.hi[1]);
          warp_mma::multiply_add<M>(state[2 * pair + 1], xa.lo, bb.hi[2], bb.hi[3]);
        }
      }
    }
    // [/snippet:v3_state]
    __syncthreads();  // every warp has read B, C and the weighted x: the next chunk's B, C and x may come
    const bool more = c + 1 < end_chunk;
    const Place next = place_of(c + 1);
    if (more) {
      fetch_projections(next);
      fetch_x(scaled_x, next);
    }
    async_copy::commit();

    if constexpr (!kSummary) {
      for (int k0 = 0; k0 <= row0; k0 += 16) {  // y += M x, over s ≤ t only
        Fragment<kPairs> ma, xb;
        ma.load(ms + (row0 + lane % 16) * L::kChunkRow + k0 + lane / 16 * 8, kLoBytes);
        for (int pair = 0; pair < 2; ++pair) {
          xb.template load<true>(
              xs + (k0 + lane % 8 + lane / 8 % 2 * 8) * L::kXRow + 32 * half + 16 * pair + lane / 16 * 8, kLoBytes);
          multiply_add_fragments<M>(yt[2 * pair], ma, xb, 0);
          multiply_add_fragments<M>(yt[2 * pair + 1], ma, xb, 2);
        }
      }
      for (int j = 0; j < 4; ++j)  // y + D x, gated, into its tile (fp32: to memory)
        for (int e = 0; e < 4; e += 2) {
          const int t = row0 + g + e / 2 * 8, p = 32 * half + 8 * j + 2 * q;
          float u[2] = {yt[j][e], yt[j][e + 1]};
          // x and z at (t, p) and (t, p + 1)
          const float2 xv = get_two<kPairs>(xs + t * L::kXRow + p, kLo);
          const float2 zv = z ? get_two_inputs(zs + t * L::kXRow + p) : float2{};
          u[0] += d_of[j][0] * xv.x, u[1] += d_of[j][1] * xv.y;
          if constexpr (kPass == Pass::output_and_states)
            if (ungated_y && t < len)
              store_two(ungated_y + x_at + t * width + p, u[0], u[1], channels - p, a.x_in_vectors);
          if (z) u[0] *= zv.x * sigmoid_fast(zv.x), u[1] *= zv.y * sigmoid_fast(zv.y);
          if constexpr (kPairs) {
            if (t < len) store_two(y + x_at + t * width + p, u[0], u[1], channels - p, a.x_in_vectors);
          } else {
            put_two<false>(ys + t * L::kXRow + p, 0, u[0], u[1]);
          }
        }
      __syncthreads();  // y's tile is whole, and every warp has read x and z
    }
    if (more) {
      fetch_z(next);
      put_projections();
    }
    async_copy::commit();
    if constexpr (!kSummary && !kPairs)
      store_tile<kQ, kP>(y + x_at, width, ys, L::kXRow, len, channels, a.x_in_vectors);
    const auto swap = xs;  // the next chunk's x is in the weighted x's tile
    xs = scaled_x, scaled_x = swap;
  }

  // What the block leaves: a summary its segment's pair, the last segment's walk the final states.
  float* const out =
      kSummary ? a.segment_states + segment * all_states : (segment == a.segments - 1 ? a.final_states : nullptr);
  if (kSummary && channel_block == 0 && threadIdx.x == 0)
    a.segment_decays[segment * s.batch * s.heads + bh] = segment_decay;
  if (out)
    for (int j = 0; j < kStateTiles; ++j)
      for (int e = 0; e < 4; ++e) {
        const int p = row0 + g + e / 2 * 8, n = half * NS / 2 + 8 * j + 2 * q + e % 2;
        if (p < channels && n < s.dstate) out[states_at + p * s.dstate + n] = state[j][e];
      }
#endif
}

template <class T, int NS>
void launch(FusedArgs args, cudaStream_t stream) {
  // The split weighted x where its tile fits (not at 128 states on a GPU of 99 KB a block).
  const std::size_t plain = Shared<NS, Operand<T>::pairs>::bytes(), split = plain + kSplitBytes;
  const auto limits = device_limits();
  const bool split_fits = !Operand<T>::pairs && limits && split <= std::size_t(limits->shared_per_block_optin);
  args.split_weighted_x = args.split_weighted_x && split_fits;
  const std::size_t bytes = args.split_weighted_x ? split : plain;
  const auto walk = args.entering_states ? fused_forward_kernel<T, NS, Pass::output_and_states>
                                         : fused_forward_kernel<T, NS, Pass::output>;
  launch_segments(args, kForwardSegments, fused_forward_kernel<T, NS, Pass::summary>, bytes, walk, bytes, stream,
                  split_fits ? split : plain);
}

}  // namespace

std::string fused_refuses(const ForwardParams& p) {
  const bool pairs = p.input_type == DataType::float32;  // fp32 numbers multiplied as bf16 pairs
  if (p.sizes.dstate > kMaxStates) return "version 3 takes at most 256 states";
  if (pairs && p.sizes.dstate > kMaxPairedStates)
    return "version 3 takes fp32 inputs with at most " + std::to_string(kMaxPairedStates) +
           " states (their bf16 pairs double its shared memory)";
  if (p.sequence_final_states) return "version 3 does not give packed sequences' own final states (version 2 does)";
  const std::int64_t blocks = p.sizes.batch * p.sizes.heads * ((p.sizes.head_dim + kP - 1) / kP);
  if (blocks > std::numeric_limits<int>::max())
    return "version 3 takes at most 2^31 - 1 blocks of (batch row, head, 64 channels)";
  const auto limits = device_limits();
  if (!limits) return {};  // no device answers (a machine without a GPU): the launch will say so
  if (limits->major < 8) return "version 3 needs a GPU of compute capability 8.0 or later (mma.sync on fp16 and bf16)";
  // An A100 or a Hopper GPU gives a block 163 KB or more; Ada and most Ampere cards 99 KB, which
  // holds tiles of up to 128 states (with fp32's pairs, 64 states on the former, none on the latter).
  const std::size_t needed = shared_bytes(p.sizes.dstate, pairs);
  if (needed > std::size_t(limits->shared_per_block_optin))
    return "version 3 needs " + std::to_string(needed) + " bytes of shared memory a block for " +
           std::to_string(p.sizes.dstate) + " states; this GPU gives " + std::to_string(limits->shared_per_block_optin);
  return {};
}

FusedArgs fused_args_of(const ForwardParams& p) {
  const Sizes& s = p.sizes;
  return {s,
          p.x,
          p.dt,
          p.B,
          p.C,
          p.z,
          p.y,
          p.A,
          p.D,
          p.dt_bias,
          p.initial_states,
          p.final_states,
          p.seq_idx,
          p.D_per_channel,
          p.dt_softplus,
          p.dt_min,
          p.dt_max,
          (s.head_dim + kP - 1) / kP,
          1,
          0,
          nullptr,
          nullptr,
          nullptr,
          nullptr,
          in_vectors(p.x, s.head_dim) && in_vectors(p.y, s.head_dim) && (!p.z || in_vectors(p.z, s.head_dim)),
          in_vectors(p.B, s.dstate) && in_vectors(p.C, s.dstate),
          false,
          p.final_states != nullptr};
}

namespace {

void launch_by_type(const FusedArgs& args, DataType type, cudaStream_t stream) {
  by_type(type, [&](auto zero) {
    using T = decltype(zero);
    const int tile = state_tile(args.s.dstate);
    if (tile == 64) return launch<T, 64>(args, stream);
    if (tile == 128) return launch<T, 128>(args, stream);
    if constexpr (Operand<T>::pairs)  // fused_refuses keeps fp32 from here
      throw Error("ssd version 3: fp32 inputs take at most " + std::to_string(kMaxPairedStates) + " states");
    else
      launch<T, 256>(args, stream);
  });
}

}  // namespace

void fused_forward(const ForwardParams& p, cudaStream_t stream) {
  launch_by_type(fused_args_of(p), p.input_type, stream);
}

namespace {

// The walk that also leaves the state entering each chunk in `entering_states` (and for 16-bit
// inputs what their rounding left in `entering_lo`), for the backward; its weighted x split.
void forward_keeping_states(FusedArgs args, const SavedParts& parts, DataType type, cudaStream_t stream) {
  args.entering_states = parts.entering_states, args.entering_lo = parts.entering_lo;
  args.states_in_vectors = in_vectors(parts.entering_states, args.s.dstate);
  args.split_weighted_x = true;
  launch_by_type(args, type, stream);
}

constexpr std::size_t whole_lines(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

// The bytes of a forward's `saved`: u, then the entering states, then for 16-bit inputs their
// remainders (16 bits each, (batch, heads, channel blocks, chunks) blocks of 64 × the state tile),
// each part starting on a 256-byte boundary (the states' tiles are read 16 bytes a lane).
struct SavedSizes {
  std::size_t u, states, remainders;
};
SavedSizes saved_sizes(const ForwardParams& p) {
  const Sizes& s = p.sizes;
  const std::size_t chunks = std::size_t((s.seqlen + kQ - 1) / kQ), rows = std::size_t(s.batch * s.heads);
  const std::size_t bytes = element_bytes(p.input_type);
  const std::size_t u = std::size_t(s.batch * s.seqlen * s.heads) * std::size_t(s.head_dim) * bytes;
  const std::size_t states = rows * chunks * std::size_t(s.head_dim) * std::size_t(s.dstate) * bytes;  // fp32: hi + lo
  const std::size_t blocks = rows * std::size_t((s.head_dim + kP - 1) / kP) * chunks;
  const std::size_t remainders =
      p.input_type == DataType::float32 ? 0 : blocks * kP * std::size_t(state_tile(s.dstate)) * 2;
  return {whole_lines(u), whole_lines(states), remainders};
}

}  // namespace

SavedParts saved_parts(const ForwardParams& p, void* saved) {
  const SavedSizes sizes = saved_sizes(p);
  unsigned char* const at = static_cast<unsigned char*>(saved);
  return {at, at + sizes.u, sizes.remainders ? at + sizes.u + sizes.states : nullptr};
}

std::size_t fused_saved_bytes(const ForwardParams& p) {
  const SavedSizes sizes = saved_sizes(p);
  return sizes.u + sizes.states + sizes.remainders;
}

void fused_forward_states(const ForwardParams& p, const SavedParts& parts, cudaStream_t stream) {
  ForwardParams ungated = p;  // y without its gate is u
  ungated.z = nullptr, ungated.y = parts.u, ungated.final_states = nullptr;
  forward_keeping_states(fused_args_of(ungated), parts, p.input_type, stream);
}

void fused_forward_saving(const ForwardParams& p, cudaStream_t stream) {
  const SavedParts parts = saved_parts(p, p.saved);
  FusedArgs args = fused_args_of(p);
  args.ungated_y = p.z ? parts.u : nullptr;  // the backward reads u behind a gate alone
  forward_keeping_states(args, parts, p.input_type, stream);
}

}  // namespace ssd::detail
