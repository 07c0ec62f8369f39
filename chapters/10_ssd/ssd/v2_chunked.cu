// Version 2: the chunked SSD in the official forward's five stages (ssd_chunked.hpp gives each
// in fp64), each a kernel or a batch of matrix products:
//   1 chunk_cumsum   dt' and its running sum acs inside each chunk, one thread a (b, h, chunk);
//   2 chunk_states   s_c = (x scaled by dt' exp(acs_last - acs))ᵀ B: a (p × Q)(Q × n) product a
//                    (b, chunk, head), cuBLAS;
//   3 pass_states    h_c = exp(acs_last) h_{c-1} + s_c across chunks, one thread a state
//                    element: chapter 06's recurrence, one level up;
//   4 chunk_cb       C Bᵀ, a (Q × n)(n × Q) product a (b, chunk, group), cuBLAS, then masked and
//                    decayed per head into M (the chunk's block of the semiseparable matrix:
//                    v2_decay_mask.cu, exercise 2);
//   5 chunk_scan     y = M x + exp(acs) C h_{c-1} + D x, two products a (b, chunk, head), cuBLAS,
//                    then the gate.
// Everything runs in fp32 on fp32 copies of the inputs, padded to whole chunks (a padded position
// has dt' = 0 and x = 0, so it changes nothing). The products run on cuBLAS's fp32 path, not on
// tensor cores, and M is written to memory whole: (batch, chunks, heads, Q, Q) floats, x's
// elements times Q / head_dim. Version 3 keeps it on chip.
// With seq_idx a term counts only where its two ends lie in one sequence (ssd_chunked.hpp).
#include "v2_chunked.hpp"

#include "check.hpp"
#include "device_math.cuh"
#include "launch.cuh"
#include "sizes_fit.hpp"
#include "v2_decay_mask.cuh"

#include <cublas_v2.h>

#include <algorithm>
#include <limits>
#include <map>
#include <string>

namespace ssd::detail {
namespace {

using selective_scan::detail::from_float;
using selective_scan::detail::silu;
using selective_scan::detail::softplus;
using selective_scan::detail::to_float;

void check_cublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw Error(std::string("ssd: ") + what + " failed: " + cublasGetStatusString(status));
}

// One cuBLAS handle a device and host thread, made on first use and kept: making one costs far
// more than a call.
cublasHandle_t cublas_for(cudaStream_t stream) {
  thread_local std::map<int, cublasHandle_t> handles;
  int device = 0;
  SSD_CHECK(cudaGetDevice(&device));
  cublasHandle_t& handle = handles[device];
  if (!handle) check_cublas(cublasCreate(&handle), "cublasCreate");
  check_cublas(cublasSetStream(handle, stream), "cublasSetStream");
  return handle;
}

// Inputs to fp32, (batch, padded, per_position), zero past the sequence.
template <class T>
__global__ void widen_kernel(const T* in, float* out, Geometry g, std::int64_t per_position) {
  SSD_GRID_STRIDE(e, g.s.batch * g.padded * per_position) {
    const std::int64_t t = e / per_position % g.padded, b = e / per_position / g.padded;
    out[e] = t < g.s.seqlen ? to_float(in[(b * g.s.seqlen + t) * per_position + e % per_position]) : 0.f;
  }
}

// The sequence number of every padded position, (batch, padded); past the end, the last one's.
__global__ void sequence_numbers_kernel(const std::int32_t* seq_idx, std::int32_t* out, Geometry g) {
  SSD_GRID_STRIDE(e, g.s.batch * g.padded) {
    const std::int64_t t = e % g.padded, b = e / g.padded;
    out[e] = seq_idx ? seq_idx[b * g.s.seqlen + std::min(t, g.s.seqlen - 1)] : 0;
  }
}

// [snippet:v2_chunk_cumsum]
// Stage 1: dt' (clamped, after bias and softplus) and its running sum times A inside each chunk,
// (batch, heads, padded); dt' = 0 past the sequence, so the sum stays put there.
template <class T>
__global__ void chunk_cumsum_kernel(const T* dt, const float* A, const float* bias, bool apply_softplus, float lo,
                                    float hi, float* dt_out, float* acs, Geometry g) {
  SSD_GRID_STRIDE(e, g.s.batch * g.s.heads * g.chunks) {
    const std::int64_t c = e % g.chunks, bh = e / g.chunks;
    const int h = int(bh % g.s.heads);
    const std::int64_t b = bh / g.s.heads;
    float sum = 0.f;
    for (std::int64_t t = c * g.Q; t < (c + 1) * g.Q; ++t) {
      float step = 0.f;
      if (t < g.s.seqlen) {
        float v = to_float(dt[(b * g.s.seqlen + t) * g.s.heads + h]) + (bias ? bias[h] : 0.f);
        if (apply_softplus) v = softplus(v);
        step = fminf(fmaxf(v, lo), hi);
      }
      sum += step * A[h];
      dt_out[bh * g.padded + t] = step;
      acs[bh * g.padded + t] = sum;
    }
  }
}
// [/snippet:v2_chunk_cumsum]

// Stage 2's left operand: x_j dt'_j exp(acs_last − acs_j), zero where j's sequence is not the
// last position's; (batch, chunks, heads, Q, head_dim).
__global__ void scaled_x_kernel(const float* x, const float* dt, const float* acs, const std::int32_t* seq, float* out,
                                Geometry g) {
  const int P = g.s.head_dim;
  SSD_GRID_STRIDE(e, g.s.batch * g.padded * g.width()) {
    const int i = int(e % P);
    const std::int64_t j = e / P / g.s.heads % g.padded, b = e / P / g.s.heads / g.padded;
    const int h = int(e / P % g.s.heads);
    const std::int64_t c = j / g.Q, last = std::min((c + 1) * g.Q, g.s.seqlen) - 1;
    const std::int64_t row = (b * g.s.heads + h) * g.padded;
    const bool same = seq[b * g.padded + j] == seq[b * g.padded + last];
    const float w = same && j <= last ? dt[row + j] * expf(acs[row + last] - acs[row + j]) : 0.f;
    out[(((b * g.chunks + c) * g.s.heads + h) * g.Q + j % g.Q) * P + i] = w * x[e];
  }
}

// [snippet:v2_pass_states]
// Stage 3: one thread a (b, h, i, k) walks the chunks, carrying the state: h_c = decay_c h_{c−1}
// + s_c, decay_c = exp(acs at the chunk's last position), 0 where a sequence starts inside the
// chunk. Writes the state entering every chunk, (batch, chunks, heads, head_dim, dstate), and
// the final states.
__global__ void pass_states_kernel(const float* states, const float* acs, const std::int32_t* seq, const float* initial,
                                   float* entering, float* final_states, Geometry g) {
  const std::int64_t per_head = std::int64_t(g.s.head_dim) * g.s.dstate;
  SSD_GRID_STRIDE(e, g.s.batch * g.s.heads * per_head) {
    const std::int64_t b = e / per_head / g.s.heads, within = e % per_head;
    const int h = int(e / per_head % g.s.heads);
    float carried = initial ? initial[e] : 0.f;
    // The state before position 0 belongs to sequence number 0.
    std::int32_t before = 0;
    for (std::int64_t c = 0; c < g.chunks; ++c) {
      const std::int64_t at = ((b * g.chunks + c) * g.s.heads + h) * per_head + within;
      entering[at] = carried;
      const std::int64_t last = std::min((c + 1) * g.Q, g.s.seqlen) - 1;
      const std::int32_t last_seq = seq[b * g.padded + last];
      const float decay = last_seq == before ? expf(acs[(b * g.s.heads + h) * g.padded + last]) : 0.f;
      carried = decay * carried + states[at];
      before = last_seq;
    }
    if (final_states) final_states[e] = carried;
  }
}
// [/snippet:v2_pass_states]

// Packed sequences' own final states (batch 1), one thread a (sequence, h, i, k): the state after
// the sequence's last position e, in chunk c. The state entering chunk c is the sequence's where
// it began before the chunk (or is sequence 0, whose initial states enter chunk 0), decayed over
// the chunk up to e by exp(acs_e); the chunk's own terms of the sequence up to e are added as
// stage 2 adds a whole chunk's.
__global__ void sequence_final_states_kernel(const float* x, const float* B, const float* dt, const float* acs,
                                             const float* entering, const std::int32_t* cu_seqlens,
                                             std::int64_t sequences, float* out, Geometry g) {
  const int P = g.s.head_dim, N = g.s.dstate, heads_per_group = g.s.heads / g.s.groups;
  const std::int64_t per_head = std::int64_t(P) * N;
  SSD_GRID_STRIDE(e, sequences * g.s.heads * per_head) {
    const int k = int(e % N), i = int(e / N % P), h = int(e / per_head % g.s.heads);
    // Clamped to the row, so that cu_seqlens disagreeing with it cannot read past the tensors.
    const std::int64_t seq = e / per_head / g.s.heads;
    const std::int64_t end = min(max(std::int64_t(cu_seqlens[seq + 1]), std::int64_t(0)), g.s.seqlen);
    const std::int64_t begin = min(max(std::int64_t(cu_seqlens[seq]), std::int64_t(0)), end);
    float state = 0.f;
    if (end > begin) {
      const std::int64_t last = end - 1, c = last / g.Q, first = c * g.Q, row = std::int64_t(h) * g.padded;
      if (begin < first || begin == 0)
        state = expf(acs[row + last]) * entering[(c * g.s.heads + h) * per_head + std::int64_t(i) * N + k];
      for (std::int64_t j = begin > first ? begin : first; j <= last; ++j)
        state += expf(acs[row + last] - acs[row + j]) * dt[row + j] * x[j * g.width() + std::int64_t(h) * P + i] *
                 B[j * g.projection() + std::int64_t(h / heads_per_group) * N + k];
    }
    out[e] = state;
  }
}

// Stage 5's last step: y = within + exp(acs) h-term (where the state reaches t) + D x, gated,
// rounded to the output type; only the sequence's positions.
template <class T>
__global__ void finish_kernel(const float* within, const float* from_state, const float* acs, const std::int32_t* seq,
                              const float* x, const float* D, bool D_per_channel, const T* z, T* y, Geometry g) {
  const int P = g.s.head_dim;
  SSD_GRID_STRIDE(e, g.s.batch * g.s.seqlen * g.width()) {
    const int i = int(e % P), h = int(e / P % g.s.heads);
    const std::int64_t t = e / g.width() % g.s.seqlen, b = e / g.width() / g.s.seqlen;
    const std::int64_t padded_at = (b * g.padded + t) * g.width() + h * P + i;
    const std::int64_t first = t / g.Q * g.Q;
    const std::int32_t before = first == 0 ? 0 : seq[b * g.padded + first - 1];
    float u = within[padded_at];
    if (seq[b * g.padded + t] == before) u += expf(acs[(b * g.s.heads + h) * g.padded + t]) * from_state[padded_at];
    if (D) u += D[D_per_channel ? h * P + i : h] * x[padded_at];
    if (z) u *= silu(to_float(z[e]));
    y[e] = from_float<T>(u);
  }
}

// Where one matrix of a batch of products starts: the offset of batch row b, of chunk c and of the
// head (or group) k it belongs to.
struct Strides {
  std::int64_t batch, chunk, k;
};

// Pointer arrays for a batch of products, one entry a (b, chunk, head) -- or a (b, chunk, group)
// where the batch runs over groups. a and c belong to the entry's head (group); b to its head, or
// to the head's group where b_by_group (B and C, shared by a group's heads).
struct ProductPointers {
  const float** a;
  const float** b;
  float** c;
};
__global__ void pointers_kernel(ProductPointers out, const float* a, Strides sa, const float* b, Strides sb,
                                bool b_by_group, float* c, Strides sc, Geometry g, bool batch_by_group) {
  const std::int64_t inner = batch_by_group ? g.s.groups : g.s.heads;
  const int heads_per_group = g.s.heads / g.s.groups;
  SSD_GRID_STRIDE(e, g.s.batch * g.chunks * inner) {
    const std::int64_t k = e % inner, chunk = e / inner % g.chunks, row = e / inner / g.chunks;
    const std::int64_t b_k = b_by_group && !batch_by_group ? k / heads_per_group : k;
    out.a[e] = a + row * sa.batch + chunk * sa.chunk + k * sa.k;
    out.b[e] = b + row * sb.batch + chunk * sb.chunk + b_k * sb.k;
    out.c[e] = c + row * sc.batch + chunk * sc.chunk + k * sc.k;
  }
}

// The pointer arrays of one batch of products, in stream-ordered scratch.
class Products {
 public:
  Products(std::int64_t count, bool by_group, const Geometry& g, cudaStream_t stream)
      : count_(count),
        by_group_(by_group),
        g_(g),
        stream_(stream),
        a_(std::size_t(count), stream),
        b_(std::size_t(count), stream),
        c_(std::size_t(count), stream) {}
  // Points entry (b, chunk, k) at its matrices; then a(), b(), c() are the arrays cuBLAS takes.
  void point(const float* a, Strides sa, const float* b, Strides sb, bool b_by_group, float* c, Strides sc) {
    pointers_kernel<<<blocks_for(count_, 256), 256, 0, stream_>>>({a_.get(), b_.get(), c_.get()}, a, sa, b, sb,
                                                                  b_by_group, c, sc, g_, by_group_);
    SSD_CHECK_LAUNCH();
  }
  const float* const* a() const { return a_.get(); }
  const float* const* b() const { return b_.get(); }
  float* const* c() const { return c_.get(); }
  int count() const { return int(count_); }

 private:
  std::int64_t count_;
  bool by_group_;
  Geometry g_;
  cudaStream_t stream_;
  Scratch<const float*> a_, b_;
  Scratch<float*> c_;
};

}  // namespace

std::string chunked_refuses(const ForwardParams& p) {
  if (p.chunk_size < 1) return "chunk_size must be at least 1";
  // The sizes have passed check_sizes: each tensor's count fits. What version 2 adds: M, Q² a chunk
  // and head, and cuBLAS's 32-bit dimensions, leading dimensions and batch counts.
  const Sizes& s = p.sizes;
  const std::int64_t Q = std::min(p.chunk_size, s.seqlen), chunks = (s.seqlen + Q - 1) / Q;
  if (std::string problem = selective_scan::detail::product_does_not_fit(
          "version 2's blocks M", "batch·chunks·heads·chunk²", {s.batch, chunks, s.heads, Q, Q}, 4, "floats");
      !problem.empty())
    return problem;
  constexpr std::int64_t kInt = std::numeric_limits<int>::max();
  if (s.batch * chunks * s.heads > kInt || std::int64_t(s.heads) * s.head_dim > kInt ||
      std::int64_t(s.groups) * s.dstate > kInt)
    return "version 2 takes at most 2^31 - 1 (batch, chunk, head) products, and heads·head_dim and groups·dstate "
           "below 2^31 (cuBLAS's 32-bit sizes)";
  return {};
}

// [snippet:v2_forward]
void chunked_forward(const ForwardParams& p, cudaStream_t stream) {
  const Sizes& s = p.sizes;
  Geometry g{s, std::min<std::int64_t>(p.chunk_size, s.seqlen), 0, 0};
  g.chunks = (s.seqlen + g.Q - 1) / g.Q;
  g.padded = g.chunks * g.Q;
  const std::int64_t P = s.head_dim, N = s.dstate, W = g.width(), G = g.projection();
  const std::int64_t positions = s.batch * g.padded, heads_rows = s.batch * s.heads * g.padded;
  const std::int64_t per_chunk_heads = s.batch * g.chunks * s.heads, per_chunk_groups = s.batch * g.chunks * s.groups;

  Scratch<float> x(std::size_t(positions * W), stream), B(std::size_t(positions * G), stream),
      C(std::size_t(positions * G), stream), dt(std::size_t(heads_rows), stream), acs(std::size_t(heads_rows), stream),
      xs(std::size_t(positions * W), stream), states(std::size_t(per_chunk_heads * P * N), stream),
      entering(std::size_t(per_chunk_heads * P * N), stream), cb(std::size_t(per_chunk_groups * g.Q * g.Q), stream),
      M(std::size_t(per_chunk_heads * g.Q * g.Q), stream), within(std::size_t(positions * W), stream),
      from_state(std::size_t(positions * W), stream);
  Scratch<std::int32_t> seq(std::size_t(positions), stream);
  const int threads = 256;

  by_type(p.input_type, [&](auto zero) {
    using T = decltype(zero);
    widen_kernel<<<blocks_for(positions * W, threads), threads, 0, stream>>>(static_cast<const T*>(p.x), x.get(), g, W);
    widen_kernel<<<blocks_for(positions * G, threads), threads, 0, stream>>>(static_cast<const T*>(p.B), B.get(), g, G);
    widen_kernel<<<blocks_for(positions * G, threads), threads, 0, stream>>>(static_cast<const T*>(p.C), C.get(), g, G);
    chunk_cumsum_kernel<<<blocks_for(s.batch * s.heads * g.chunks, threads), threads, 0, stream>>>(
        static_cast<const T*>(p.dt), p.A, p.dt_bias, p.dt_softplus, p.dt_min, p.dt_max, dt.get(), acs.get(), g);
  });
  sequence_numbers_kernel<<<blocks_for(positions, threads), threads, 0, stream>>>(p.seq_idx, seq.get(), g);
  SSD_CHECK_LAUNCH();

  // Every product below is a row-major C = op(A) op(B) written as cuBLAS's column-major Cᵀ =
  // op(B)ᵀ op(A)ᵀ: a row-major matrix is the column-major transpose with the same leading
  // dimension, so no matrix is copied.
  cublasHandle_t handle = cublas_for(stream);
  const float one = 1.f, zero = 0.f;
  Products by_head(per_chunk_heads, false, g, stream), by_group(per_chunk_groups, true, g, stream);
  const Strides x_like{g.padded * W, g.Q * W, P};                                        // x, within, from_state
  const Strides projection{g.padded * G, g.Q * G, N};                                    // B, C
  const Strides chunk_x{g.chunks * s.heads * g.Q * P, s.heads * g.Q * P, g.Q * P};       // xs
  const Strides state{g.chunks * s.heads * P * N, s.heads * P * N, P * N};               // states, entering
  const Strides square{g.chunks * s.heads * g.Q * g.Q, s.heads * g.Q * g.Q, g.Q * g.Q};  // M
  const Strides group_square{g.chunks * s.groups * g.Q * g.Q, s.groups * g.Q * g.Q, g.Q * g.Q};  // C·B

  // Stage 2: s (p × n) = xsᵀ B_chunk, that is sᵀ = B_chunkᵀ xs.
  scaled_x_kernel<<<blocks_for(positions * W, threads), threads, 0, stream>>>(x.get(), dt.get(), acs.get(), seq.get(),
                                                                              xs.get(), g);
  SSD_CHECK_LAUNCH();
  by_head.point(xs.get(), chunk_x, B.get(), projection, true, states.get(), state);
  check_cublas(cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_T, int(N), int(P), int(g.Q), &one, by_head.b(), int(G),
                                  by_head.a(), int(P), &zero, by_head.c(), int(N), by_head.count()),
               "cublasSgemmBatched (chunk states)");

  // Stage 3.
  pass_states_kernel<<<blocks_for(s.batch * W * N, threads), threads, 0, stream>>>(
      states.get(), acs.get(), seq.get(), p.initial_states, entering.get(), p.final_states, g);
  SSD_CHECK_LAUNCH();
  if (p.sequence_final_states) {
    sequence_final_states_kernel<<<blocks_for(p.sequences * W * N, threads), threads, 0, stream>>>(
        x.get(), B.get(), dt.get(), acs.get(), entering.get(), p.cu_seqlens, p.sequences, p.sequence_final_states, g);
    SSD_CHECK_LAUNCH();
  }

  // Stage 4: C·B (Q × Q) = C_chunk B_chunkᵀ, that is (C·B)ᵀ = B_chunk C_chunkᵀ; then M per head.
  by_group.point(C.get(), projection, B.get(), projection, true, cb.get(), group_square);
  check_cublas(cublasSgemmBatched(handle, CUBLAS_OP_T, CUBLAS_OP_N, int(g.Q), int(g.Q), int(N), &one, by_group.b(),
                                  int(G), by_group.a(), int(G), &zero, by_group.c(), int(g.Q), by_group.count()),
               "cublasSgemmBatched (C·B)");
  decay_mask(cb.get(), dt.get(), acs.get(), seq.get(), M.get(), g, stream);

  // Stage 5: within (Q × p) = M x_chunk, that is withinᵀ = x_chunkᵀ Mᵀ; and from_state (Q × p) =
  // C_chunk h_enteringᵀ, that is from_stateᵀ = h_entering C_chunkᵀ.
  by_head.point(x.get(), x_like, M.get(), square, false, within.get(), x_like);
  check_cublas(cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(P), int(g.Q), int(g.Q), &one, by_head.a(),
                                  int(W), by_head.b(), int(g.Q), &zero, by_head.c(), int(W), by_head.count()),
               "cublasSgemmBatched (within chunks)");
  by_head.point(entering.get(), state, C.get(), projection, true, from_state.get(), x_like);
  check_cublas(cublasSgemmBatched(handle, CUBLAS_OP_T, CUBLAS_OP_N, int(P), int(g.Q), int(N), &one, by_head.a(), int(N),
                                  by_head.b(), int(G), &zero, by_head.c(), int(W), by_head.count()),
               "cublasSgemmBatched (from the entering state)");

  by_type(p.input_type, [&](auto zero) {
    using T = decltype(zero);
    finish_kernel<<<blocks_for(s.batch * s.seqlen * W, threads), threads, 0, stream>>>(
        within.get(), from_state.get(), acs.get(), seq.get(), x.get(), p.D, p.D_per_channel, static_cast<const T*>(p.z),
        static_cast<T*>(p.y), g);
  });
  SSD_CHECK_LAUNCH();
}
// [/snippet:v2_forward]

}  // namespace ssd::detail
