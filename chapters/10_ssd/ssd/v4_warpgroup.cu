// Version 4: version 3's forward walk, its products on Hopper's warpgroup instruction (wgmma).
//
// The block, its unit and the walk are version 3's (v3_fused.cu): 8 warps take a (batch row,
// head, 64 channels) and walk its chunks of 64 positions in order, the state in their fp32
// registers from chunk to chunk, steps 1 to 4 in each. What changes is who moves the operands.
// Version 3's warps each load theirs from shared memory into registers (ldmatrix) and multiply
// 16 × 8 × 16 tiles (mma.sync): a profile found that walk issue-bound. Here the 8 warps are two
// warpgroups, and each multiplies its whole 64-row share of a product in one instruction per 16 of
// k, the tensor cores reading both operands from shared memory themselves. Warpgroup w computes
// what version 3's warps 4w..4w+3 did, in the same registers: columns [32 w, 32 w + 32) of G, yh
// and y, states [w NS/2, (w + 1) NS/2) of h. The tiles are laid out for the tensor cores to read
// (warpgroup_mma.cuh): blocks of 64 columns, rows of 128 bytes swizzled, where version 3 padded
// its rows for ldmatrix. M is written whole, zeros above the diagonal, since a warpgroup's product
// covers every row.
//
// Two more ideas, since wgmma alone left the walk slower than version 3's: the products run while
// the warps do something else, and the copies run a chunk ahead. A chunk's tiles are copied into
// one of two stages while the walk multiplies the other chunk's, so that the walk no longer waits
// a load's latency at each chunk; step 2's products run while warp 0 computes step 1 and the
// others weight x, and step 4's while the warps write M (step 3).
//
// Not yet: fp32 inputs (version 3 multiplies them as bf16 pairs), version 3's segments for small
// batches (a block a (row, head, 64 channels), so a call of few units leaves multiprocessors idle),
// the entering states the backward reads, and bulk tensor copies (TMA) by a producer warp.
#include "v4_warpgroup.hpp"

#include "async_copy.cuh"
#include "check.hpp"
#include "device_facts.hpp"
#include "fused_args.hpp"
#include "launch.cuh"
#include "v3_tiles.cuh"
#include "warpgroup_mma.cuh"

#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

namespace ssd::detail {
namespace {

using selective_scan::detail::allow_shared_memory;
using selective_scan::detail::device_limits;
using selective_scan::detail::to_float;
using v3::sigmoid_fast;
namespace wg = warpgroup_mma;

using v3::for_each_piece;
using v3::kLog2e;
using v3::kMaxStates;
using v3::kP;
using v3::kQ;
using v3::kThreads;
using v3::kWarps;

constexpr int kBlockBytes = 64 * wg::kRowBytes;  // a 64 × 64 tile of 16-bit numbers

// The block's shared memory for NS states, in blocks of kBlockBytes. Two stages, each one chunk's
// x, z (positions × channels), B and C (positions × states): the walk multiplies one while the next
// chunk's copies land in the other. Then the block's own y, weighted x, M (positions × positions)
// and entering state (channels × states); then a float or int32 a position as version 3 keeps
// them. The start is aligned to the swizzle's 1024 bytes in the kernel, which may cost up to 1024
// bytes more.
template <int NS>
struct Layout {
  static constexpr int kStateBlocks = NS / 64;
  enum : int { kX, kZ, kB, kC = kB + kStateBlocks, kStageBlocks = kC + kStateBlocks };
  enum : int { kY = 2 * kStageBlocks, kScaledX, kM, kState, kBlocks = kState + kStateBlocks };
  static constexpr std::size_t kTileBytes = std::size_t(kBlocks) * kBlockBytes;
  static constexpr std::size_t bytes = kTileBytes + 5 * kQ * 4 + wg::kGroupBytes;
};

// The address of element (row, column) of a tile of 64-column blocks.
template <class T>
__device__ __forceinline__ T* element(unsigned char* tile, int row, int column) {
  return reinterpret_cast<T*>(tile + (column >> 6) * kBlockBytes + wg::swizzled_offset(row, column & 63));
}

// kQ × kCols of T (kCols a multiple of 64) into a tile of 64-column blocks from global rows
// `from_stride` apart, zero outside [0, valid_rows) × [0, valid_cols); as version 3's load_tile:
// 16-byte copies behind the thread with `in_vectors`, else one element at a time. Eight
// neighbours of a row stay together in the swizzle.
template <int kCols, class T>
__device__ __forceinline__ void load_blocks(unsigned char* tile, const T* from, std::int64_t from_stride,
                                            int valid_rows, int valid_cols, bool in_vectors) {
  for_each_piece<kQ, kCols>([&](int r, int c) {
    T* const out = element<T>(tile, r, c);
    const T* const in = from + r * from_stride + c;
    if (in_vectors) {
      const bool inside = r < valid_rows && c < valid_cols;  // valid_cols is then a multiple of 8
      async_copy::copy16(out, inside ? in : from, inside);
    } else {
      for (int k = 0; k < 8; ++k) out[k] = r < valid_rows && c + k < valid_cols ? in[k] : v3::from_float<T>(0.f);
    }
  });
}

// rows × cols (at most kQ × 64) of a one-block tile into global rows `to_stride` apart.
template <class T>
__device__ __forceinline__ void store_block(T* to, std::int64_t to_stride, unsigned char* tile, int rows, int cols,
                                            bool in_vectors) {
  for_each_piece<kQ, 64>([&](int r, int c) {
    if (r >= rows || c >= cols) return;
    const T* const in = element<T>(tile, r, c);
    if (in_vectors) {
      *reinterpret_cast<uint4*>(to + r * to_stride + c) = *reinterpret_cast<const uint4*>(in);
    } else {
      for (int k = 0; k < 8 && c + k < cols; ++k) to[r * to_stride + c + k] = in[k];
    }
  });
}

// Two floats as T into a tile at (row, column), column even.
template <class T>
__device__ __forceinline__ void put_two(unsigned char* tile, int row, int column, float first, float second) {
  *element<std::uint32_t>(tile, row, column) = warp_mma::pack<T>(first, second);
}

template <class T, int NS>
__global__ void __launch_bounds__(kThreads, NS == 64 ? 2 : 1) warpgroup_forward_kernel(FusedArgs a) {
#if !SSD_HAS_WGMMA
  __trap();  // warpgroup_refuses keeps a call from here: wgmma is in the sm_90a target alone
#else
  using L = Layout<NS>;
  extern __shared__ unsigned char raw[];
  // The swizzle permutes by the shared address's bits 7-9: the tiles start on 1024 bytes.
  const auto raw_address = static_cast<std::uint32_t>(__cvta_generic_to_shared(raw));
  unsigned char* const tiles = raw + ((wg::kGroupBytes - raw_address % wg::kGroupBytes) % wg::kGroupBytes);
  unsigned char *const ys = tiles + L::kY * kBlockBytes, *const scaled_x = tiles + L::kScaledX * kBlockBytes;
  unsigned char *const ms = tiles + L::kM * kBlockBytes, *const hs = tiles + L::kState * kBlockBytes;
  float* const step = reinterpret_cast<float*>(tiles + L::kTileBytes);
  float *const acs = step + kQ, *const weight = acs + kQ, *const decay_to = weight + kQ;
  std::int32_t* const seq = reinterpret_cast<std::int32_t*>(decay_to + kQ);

  const Sizes& s = a.s;
  const int channel_block = int(blockIdx.x % a.channel_blocks);
  const std::int64_t bh = blockIdx.x / a.channel_blocks, b = bh / s.heads;
  const int h = int(bh % s.heads), group = h / (s.heads / s.groups);
  const int p0 = channel_block * kP, channels = min(kP, s.head_dim - p0);
  const std::int64_t width = std::int64_t(s.heads) * s.head_dim, projection = std::int64_t(s.groups) * s.dstate;
  const int warp = int(threadIdx.x) / 32, lane = int(threadIdx.x) % 32, g = lane / 4, q = lane % 4;
  const int row0 = 16 * (warp % 4), half = warp / 4;  // half: this thread's warpgroup
  const float A2 = a.A[h] * kLog2e;
  const T *const x = static_cast<const T*>(a.x), *const z = static_cast<const T*>(a.z);
  T* const y = static_cast<T*>(a.y);

  // The state h[p][n], in the warpgroup's accumulators of its products (warpgroup_mma.cuh) of
  // kStateWidth states each: state[i][4 j + e] is row p = row0 + g (+8 for e ≥ 2), state
  // n = half NS/2 + 64 i + 8 j + 2 q (+1 for odd e) -- version 3's lanes and states.
  constexpr int kStateWidth = NS / 2 < 64 ? NS / 2 : 64, kStateProducts = NS / 2 / kStateWidth;
  float state[kStateProducts][kStateWidth / 2];
  const std::int64_t states_at = ((b * s.heads + h) * s.head_dim + p0) * s.dstate;
  const auto state_row = [&](int e) { return row0 + g + e / 2 * 8; };
  const auto state_column = [&](int i, int k) { return half * NS / 2 + 64 * i + 8 * (k / 4) + 2 * q + k % 2; };
#pragma unroll
  for (int i = 0; i < kStateProducts; ++i)
#pragma unroll
    for (int k = 0; k < kStateWidth / 2; ++k) {
      const int p = state_row(k % 4), n = state_column(i, k);
      state[i][k] =
          a.initial_states && p < channels && n < s.dstate ? a.initial_states[states_at + p * s.dstate + n] : 0.f;
    }

  // D of this thread's channels of y, p = 32 half + 8 j + 2 q (+ 1); 0 without D and past the head.
  float d_of[4][2];
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k < 2; ++k) {
      const int p = 32 * half + 8 * j + 2 * q + k;
      d_of[j][k] = !a.D || p >= channels ? 0.f : a.D[a.D_per_channel ? h * s.head_dim + p0 + p : h];
    }

  // [snippet:v4_ahead]
  // Chunk c: its first position in the (batch, seqlen) rows, its positions, and its stage.
  const std::int64_t chunks = (s.seqlen + kQ - 1) / kQ;
  const auto first_position = [&](std::int64_t c) { return b * s.seqlen + c * kQ; };
  const auto positions = [&](std::int64_t c) { return int(min(std::int64_t(kQ), s.seqlen - c * kQ)); };
  const auto stage = [&](std::int64_t c) { return tiles + c % 2 * L::kStageBlocks * kBlockBytes; };
  // Chunk c's tiles into its stage, issued as one group of copies behind the threads (empty past
  // the last chunk, so that every chunk's group is the second newest when the walk waits for it).
  const auto copy_ahead = [&](std::int64_t c) {
    if (c < chunks) {
      const std::int64_t at = first_position(c), x_at = at * width + std::int64_t(h) * s.head_dim + p0;
      const std::int64_t projection_at = at * projection + std::int64_t(group) * s.dstate;
      const int len = positions(c);
      unsigned char* const to = stage(c);
      load_blocks<kP>(to + L::kX * kBlockBytes, x + x_at, width, len, channels, a.x_in_vectors);
      if (z) load_blocks<kP>(to + L::kZ * kBlockBytes, z + x_at, width, len, channels, a.x_in_vectors);
      load_blocks<NS>(to + L::kB * kBlockBytes, static_cast<const T*>(a.B) + projection_at, projection, len, s.dstate,
                      a.bc_in_vectors);
      load_blocks<NS>(to + L::kC * kBlockBytes, static_cast<const T*>(a.C) + projection_at, projection, len, s.dstate,
                      a.bc_in_vectors);
    }
    async_copy::commit();
  };
  copy_ahead(0);
  v3::FetchedStep<T> fetched{};  // dt and the sequence number of this thread's position, a chunk ahead
  if (threadIdx.x < kQ) fetched = v3::fetch_step<T>(a, first_position(0), h, positions(0));
  std::int32_t seq_before = 0;  // the sequence of the position before the chunk (0 before the first)

  for (std::int64_t c = 0; c < chunks; ++c) {
    const std::int64_t at = first_position(c), x_at = at * width + std::int64_t(h) * s.head_dim + p0;
    const int len = positions(c);
    unsigned char* const here = stage(c);
    unsigned char *const xs = here + L::kX * kBlockBytes, *const zs = here + L::kZ * kBlockBytes;
    unsigned char *const bs = here + L::kB * kBlockBytes, *const cs = here + L::kC * kBlockBytes;

    // The next chunk's tiles and steps set off; this chunk's steps and the entering state in T,
    // [p][n] (the operand of yh, rows p), stored while this chunk's tiles land.
    copy_ahead(c + 1);
    if (threadIdx.x < kQ) {
      v3::store_step(step, seq, fetched, a, h, len);
      if (c + 1 < chunks) fetched = v3::fetch_step<T>(a, first_position(c + 1), h, positions(c + 1));
    }
#pragma unroll
    for (int i = 0; i < kStateProducts; ++i)
#pragma unroll
      for (int k = 0; k < kStateWidth / 2; k += 2)
        put_two<T>(hs, state_row(k % 4), state_column(i, k), state[i][k], state[i][k + 1]);
    async_copy::wait_all_but<1>();
    wg::shared_writes_visible();  // the tensor cores read what these threads wrote
    __syncthreads();
    // [/snippet:v4_ahead]

    // [snippet:v4_products]
    // Step 2, set off: G = C Bᵀ (rows t, this warpgroup's 32 columns s) and yh = C hᵀ (its 32
    // channels), over the states 16 at a time, both reading the same k-step of C.
    float gt[16] = {}, yt[16] = {};
    wg::fence();
#pragma unroll
    for (int k = 0; k < NS / 16; ++k) {
      const int block = k / 4 * kBlockBytes, rows = 32 * half * wg::kRowBytes;
      const std::uint64_t c_step = wg::k_major_step(cs + block, k % 4);
      wg::multiply<T, false, false, 32>(gt, c_step, wg::k_major_step(bs + block + rows, k % 4), k > 0);
      wg::multiply<T, false, false, 32>(yt, c_step, wg::k_major_step(hs + block + rows, k % 4), k > 0);
    }
    wg::commit();
    // [/snippet:v4_products]

    // Step 1 while the tensor cores run, then step 4's left operand: x weighted, eight elements at
    // a time (a 16-byte piece of a row).
    if (warp == 0) v3::forward_weights(step, seq, seq_before, A2, acs, weight, decay_to);
    __syncthreads();
    for_each_piece<kQ, kP>([&](int t, int p) {
      const uint4 in = *element<uint4>(xs, t, p);
      const std::uint32_t* const pairs = reinterpret_cast<const std::uint32_t*>(&in);
      std::uint32_t out[4];
      for (int k = 0; k < 4; ++k) {
        const float2 v = warp_mma::unpack<T>(pairs[k]);
        out[k] = warp_mma::pack<T>(v.x * weight[t], v.y * weight[t]);
      }
      *element<uint4>(scaled_x, t, p) = *reinterpret_cast<const uint4*>(out);
    });
    wg::shared_writes_visible();
    __syncthreads();

    // Step 4, set off: the state through the chunk, h = decay h + (weighted x)ᵀ B: the weighted x's
    // rows t hold the 64 channels (MN-major), B's rows t hold this warpgroup's states. Step 2's
    // products are the older group: waiting for them leaves these running through step 3.
    const float chunk_decay = seq[kQ - 1] == seq_before ? exp2f(acs[kQ - 1]) : 0.f;
#pragma unroll
    for (int i = 0; i < kStateProducts; ++i)
#pragma unroll
      for (int k = 0; k < kStateWidth / 2; ++k) state[i][k] *= chunk_decay;
    wg::fence();
#pragma unroll
    for (int k = 0; k < kQ / 16; ++k)
#pragma unroll
      for (int i = 0; i < kStateProducts; ++i) {
        const int n0 = half * NS / 2 + 64 * i;
        wg::multiply<T, true, true, kStateWidth>(state[i], wg::mn_major_step(scaled_x, k),
                                                 wg::mn_major_step(bs + n0 / 64 * kBlockBytes + n0 % 64 * 2, k), true);
      }
    wg::commit();
    wg::wait<1>();
    wg::pin(gt);
    wg::pin(yt);

    // Step 3: yh decayed to each row; M into shared memory, whole (zero where s > t or where t and
    // s lie in different sequences).
    for (int r = 0; r < 2; ++r) {
      const int t = row0 + g + 8 * r;
      for (int j = 0; j < 4; ++j) yt[4 * j + 2 * r] *= decay_to[t], yt[4 * j + 2 * r + 1] *= decay_to[t];
    }
    v3::lane_share_of_m([&](int j, int i) { return gt[4 * j + i]; },
                        [&](int t, int u, float first, float second) { put_two<T>(ms, t, u, first, second); }, acs,
                        step, seq, row0, 32 * half);
    wg::shared_writes_visible();
    __syncthreads();
    // y += M x over every s (M holds the zeros), this warpgroup's 32 channels: 64 bytes into x's rows.
    wg::fence();
#pragma unroll
    for (int k = 0; k < kQ / 16; ++k)
      wg::multiply<T, false, true, 32>(yt, wg::k_major_step(ms, k), wg::mn_major_step(xs + 64 * half, k), true);
    wg::commit();
    wg::wait<0>();
    wg::pin(yt);
#pragma unroll
    for (int i = 0; i < kStateProducts; ++i) wg::pin(state[i]);
    for (int j = 0; j < 4; ++j)  // y + D x, gated, into its tile
      for (int e = 0; e < 4; e += 2) {
        const int t = row0 + g + e / 2 * 8, p = 32 * half + 8 * j + 2 * q;
        const float2 xv = warp_mma::unpack<T>(*element<std::uint32_t>(xs, t, p));
        float u[2] = {yt[4 * j + e] + d_of[j][0] * xv.x, yt[4 * j + e + 1] + d_of[j][1] * xv.y};
        if (z) {
          const float2 zv = warp_mma::unpack<T>(*element<std::uint32_t>(zs, t, p));
          u[0] *= zv.x * sigmoid_fast(zv.x), u[1] *= zv.y * sigmoid_fast(zv.y);
        }
        put_two<T>(ys, t, p, u[0], u[1]);
      }
    seq_before = seq[kQ - 1];
    __syncthreads();  // y's tile is whole, and the next chunk may overwrite what this one read
    store_block(y + x_at, width, ys, len, channels, a.x_in_vectors);
  }

  if (a.final_states)
#pragma unroll
    for (int i = 0; i < kStateProducts; ++i)
#pragma unroll
      for (int k = 0; k < kStateWidth / 2; ++k) {
        const int p = state_row(k % 4), n = state_column(i, k);
        if (p < channels && n < s.dstate) a.final_states[states_at + p * s.dstate + n] = state[i][k];
      }
#endif
}

template <class T, int NS>
void launch(const FusedArgs& args, cudaStream_t stream) {
  const auto kernel = warpgroup_forward_kernel<T, NS>;
  const std::size_t bytes = Layout<NS>::bytes;
  allow_shared_memory(reinterpret_cast<const void*>(kernel), int(bytes));
  const std::int64_t units = args.s.batch * args.s.heads * args.channel_blocks;
  kernel<<<unsigned(units), kWarps * 32, bytes, stream>>>(args);
  SSD_CHECK_LAUNCH();
}

std::size_t shared_bytes(int dstate) {
  const int tile = v3::state_tile(dstate);
  return tile == 64 ? Layout<64>::bytes : tile == 128 ? Layout<128>::bytes : Layout<256>::bytes;
}

}  // namespace

std::string warpgroup_refuses(const ForwardParams& p) {
  if (p.input_type == DataType::float32)
    return "version 4 takes fp16 and bf16 inputs (version 3 multiplies fp32 as bf16 pairs)";
  if (p.sizes.dstate > kMaxStates) return "version 4 takes at most 256 states";
  if (p.sequence_final_states) return "version 4 does not give packed sequences' own final states (version 2 does)";
  const std::int64_t blocks = p.sizes.batch * p.sizes.heads * ((p.sizes.head_dim + kP - 1) / kP);
  if (blocks > std::numeric_limits<int>::max())
    return "version 4 takes at most 2^31 - 1 blocks of (batch row, head, 64 channels)";
#if !defined(BOOK_SM90A_CODE)
  return "version 4 needs this library built for sm_90a (Hopper's warpgroup products); it was not";
#else
  const auto limits = device_limits();
  if (!limits) return {};  // no device answers (a machine without a GPU): the launch will say so
  if (limits->major != 9 || limits->minor != 0)
    return "version 4 needs a GPU of compute capability 9.0 (its sm_90a code, wgmma, runs there alone)";
  const std::size_t needed = shared_bytes(p.sizes.dstate);
  if (needed > std::size_t(limits->shared_per_block_optin))
    return "version 4 needs " + std::to_string(needed) + " bytes of shared memory a block for " +
           std::to_string(p.sizes.dstate) + " states; this GPU gives " + std::to_string(limits->shared_per_block_optin);
  return {};
#endif
}

void warpgroup_forward(const ForwardParams& p, cudaStream_t stream) {
  const FusedArgs args = fused_args_of(p);
  by_type(p.input_type, [&](auto zero) {
    using T = decltype(zero);
    if constexpr (std::is_same_v<T, float>) {  // warpgroup_refuses keeps fp32 from here
      throw Error("ssd version 4: fp16 and bf16 inputs only");
    } else {
      const int tile = v3::state_tile(args.s.dstate);
      if (tile == 64) return launch<T, 64>(args, stream);
      if (tile == 128) return launch<T, 128>(args, stream);
      launch<T, 256>(args, stream);
    }
  });
}

}  // namespace ssd::detail
