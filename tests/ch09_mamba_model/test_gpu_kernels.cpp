// Chapter 09's small kernels against their CPU pieces, on awkward sizes, every output poisoned
// (NaN) before the kernel runs.
#include "ch09_gpu_test_support.hpp"

#include "causal_conv1d.hpp"
#include "cpu_training.hpp"
#include "gpu_adamw.hpp"
#include "gpu_conv1d.hpp"
#include "gpu_cross_entropy.hpp"
#include "gpu_embedding.hpp"
#include "gpu_mamba2_ops.hpp"
#include "gpu_rms_norm.hpp"
#include "rms_norm.hpp"
#include "selective_copying.hpp"

#include <cmath>
#include <string>
#include <tuple>

namespace {

using namespace ch09_test;
using common::DeviceBuffer;

constexpr common::Tolerance kFp32{1e-5, 1e-4};

double silu(double x) { return x / (1.0 + std::exp(-x)); }
double silu_derivative(double x) {
  const double s = 1.0 / (1.0 + std::exp(-x));
  return s * (1.0 + x * (1.0 - s));
}

TEST_CASE("GPU RMSNorm over channels matches the CPU piece, forward and backward", "[gpu]") {
  REQUIRE_GPU();
  for (const auto& [batch, channels, seqlen] : {std::tuple{3, 5, 37}, std::tuple{1, 64, 1}, std::tuple{2, 7, 300}}) {
    INFO("batch " << batch << ", channels " << channels << ", seqlen " << seqlen);
    const std::size_t n = std::size_t(batch) * channels * seqlen, positions = std::size_t(batch) * seqlen;
    const std::vector<double> x = random_values(n, 1), w = random_values(channels, 2), dy = random_values(n, 3);
    const std::vector<double> dx_before = random_values(n, 4);

    std::vector<double> y(n), dx(n), dw(channels, 0.0), rstd(positions);
    std::vector<double> column(channels), out(channels), dcol(channels), dxcol(channels);
    for (int b = 0; b < batch; ++b)
      for (int t = 0; t < seqlen; ++t) {
        // The bindings copied in by name: clang 14, the sanitize preset's compiler, captures none.
        auto at = [&, channels = channels, seqlen = seqlen](int c) {
          return (std::size_t(b) * channels + c) * seqlen + t;
        };
        for (int c = 0; c < channels; ++c) column[c] = x[at(c)], dcol[c] = dy[at(c)];
        rstd[std::size_t(b) * seqlen + t] = ch09::rms_norm_forward(column, w, out);
        ch09::rms_norm_backward(column, w, rstd[std::size_t(b) * seqlen + t], dcol, dxcol, dw);
        for (int c = 0; c < channels; ++c) y[at(c)] = out[c], dx[at(c)] = dx_before[at(c)] + dxcol[c];
      }

    DeviceBuffer<float> d_x = upload(x), d_w = upload(w), d_dy = upload(dy), d_dx = upload(dx_before);
    DeviceBuffer<float> d_y = poisoned(n), d_rstd = poisoned(positions), d_dw = poisoned(channels);
    ch09::gpu::rms_norm_forward(d_x.data(), d_w.data(), d_y.data(), d_rstd.data(), batch, channels, seqlen);
    ch09::gpu::rms_norm_backward(d_dy.data(), d_x.data(), d_rstd.data(), d_w.data(), d_dx.data(), true, d_dw.data(),
                                 batch, channels, seqlen);
    CHECK_CLOSE("y", common::compare(download(d_y), y, kFp32));
    CHECK_CLOSE("rstd", common::compare(download(d_rstd), rstd, kFp32));
    CHECK_CLOSE("dx (added)", common::compare(download(d_dx), dx, kFp32));
    CHECK_CLOSE("dw", common::compare(download(d_dw), dw, {1e-4, 1e-4}));
  }
}

TEST_CASE("GPU causal conv1d + SiLU matches the CPU piece, forward and backward, on a strided input", "[gpu]") {
  REQUIRE_GPU();
  const int width = 4;
  for (const auto& [batch, channels, seqlen] :
       {std::tuple{2, 3, 11}, std::tuple{3, 5, 2}, std::tuple{1, 1, 1}, std::tuple{2, 17, 259}}) {
    INFO("batch " << batch << ", channels " << channels << ", seqlen " << seqlen);
    const std::size_t n = std::size_t(batch) * channels * seqlen, row = std::size_t(seqlen);
    // x is the first half of a (batch, 2 channels, seqlen) tensor, as in the model.
    const long long stride = 2LL * channels * seqlen;
    const std::vector<double> xz = random_values(2 * n, 5), w = random_values(std::size_t(channels) * width, 6, 0.5);
    const std::vector<double> bias = random_values(channels, 7), dxs = random_values(n, 8);

    std::vector<double> xc(n), xs(n), dx(2 * n, 0.0), dw(w.size(), 0.0), dbias(channels, 0.0);
    std::vector<double> conv(row), dconv(row), dxrow(row);
    for (int b = 0; b < batch; ++b)
      for (int c = 0; c < channels; ++c) {
        const std::size_t in = b * stride + std::size_t(c) * seqlen, out = (std::size_t(b) * channels + c) * seqlen;
        const std::span<const double> x_row(xz.data() + in, row), w_row(w.data() + c * width, width);
        ch09::causal_conv1d_forward(x_row, w_row, bias[c], conv);
        for (std::size_t t = 0; t < row; ++t) {
          xc[out + t] = conv[t], xs[out + t] = silu(conv[t]);
          dconv[t] = dxs[out + t] * silu_derivative(conv[t]);
        }
        ch09::causal_conv1d_backward(x_row, w_row, dconv, dxrow, std::span<double>(dw.data() + c * width, width),
                                     dbias[c]);
        for (std::size_t t = 0; t < row; ++t) dx[in + t] = dxrow[t];
      }

    DeviceBuffer<float> d_xz = upload(xz), d_w = upload(w), d_bias = upload(bias), d_dxs = upload(dxs);
    DeviceBuffer<float> d_xc = poisoned(n), d_xs = poisoned(n), d_dxc = poisoned(n), d_dx = poisoned(2 * n);
    DeviceBuffer<float> d_dw = poisoned(w.size()), d_dbias = poisoned(channels);
    ch09::gpu::conv1d_silu_forward(d_xz.data(), stride, d_w.data(), d_bias.data(), d_xc.data(), d_xs.data(), batch,
                                   channels, seqlen, width);
    ch09::gpu::conv1d_silu_backward(d_dxs.data(), d_xc.data(), d_xz.data(), stride, d_w.data(), d_dxc.data(),
                                    d_dx.data(), stride, d_dw.data(), d_dbias.data(), batch, channels, seqlen, width);
    CHECK_CLOSE("xc", common::compare(download(d_xc), xc, kFp32));
    CHECK_CLOSE("xs", common::compare(download(d_xs), xs, kFp32));
    // Only the x half of dx is the kernel's; the other half must be untouched (still NaN).
    const std::vector<double> got_dx = download(d_dx);
    std::vector<double> got_x_half, want_x_half;
    bool other_half_untouched = true;
    for (int b = 0; b < batch; ++b)
      for (std::size_t i = 0; i < std::size_t(channels) * seqlen; ++i) {
        got_x_half.push_back(got_dx[b * stride + i]);
        want_x_half.push_back(dx[b * stride + i]);
        other_half_untouched = other_half_untouched && std::isnan(got_dx[b * stride + channels * row + i]);
      }
    CHECK_CLOSE("dx", common::compare(got_x_half, want_x_half, kFp32));
    CHECK(other_half_untouched);
    CHECK_CLOSE("dw", common::compare(download(d_dw), dw, {1e-4, 1e-4}));
    CHECK_CLOSE("dbias", common::compare(download(d_dbias), dbias, {1e-4, 1e-4}));
  }
}

TEST_CASE("GPU embedding gathers rows and sums their gradients per token", "[gpu]") {
  REQUIRE_GPU();
  const int vocab = 7, d_model = 5, batch = 3, seqlen = 13;
  const ch09::Batch tokens = random_batch(vocab, batch, seqlen, 9);
  const std::vector<double> E = random_values(std::size_t(vocab) * d_model, 10);
  const std::vector<double> dr = random_values(std::size_t(batch) * d_model * seqlen, 11);
  const std::vector<double> dE_before = random_values(E.size(), 12);
  std::vector<double> r(dr.size()), dE = dE_before;
  for (int b = 0; b < batch; ++b)
    for (int c = 0; c < d_model; ++c)
      for (int t = 0; t < seqlen; ++t) {
        const int token = tokens.tokens[std::size_t(b) * seqlen + t];
        const std::size_t i = (std::size_t(b) * d_model + c) * seqlen + t;
        r[i] = E[std::size_t(token) * d_model + c];
        dE[std::size_t(token) * d_model + c] += dr[i];
      }
  DeviceBuffer<int> d_tokens = upload(tokens.tokens);
  DeviceBuffer<float> d_E = upload(E), d_dr = upload(dr), d_dE = upload(dE_before), d_r = poisoned(r.size());
  ch09::gpu::embedding_forward(d_tokens.data(), d_E.data(), d_r.data(), batch, d_model, seqlen, vocab);
  ch09::gpu::embedding_backward(d_tokens.data(), d_dr.data(), d_dE.data(), batch, d_model, seqlen, vocab);
  CHECK_CLOSE("r", common::compare(download(d_r), r, {0, 0}));
  CHECK_CLOSE("dE (added)", common::compare(download(d_dE), dE, kFp32));

  // A token outside the vocabulary gives NaN, not a read out of bounds.
  std::vector<int> bad = tokens.tokens;
  bad[5] = vocab;
  DeviceBuffer<int> d_bad = upload(bad);
  ch09::gpu::embedding_forward(d_bad.data(), d_E.data(), d_r.data(), batch, d_model, seqlen, vocab);
  const std::vector<double> got = download(d_r);
  CHECK(std::isnan(got[5]));
  CHECK(std::isfinite(got[6]));
}

TEST_CASE("GPU cross-entropy: loss, gradient and correct count with ignored targets", "[gpu]") {
  REQUIRE_GPU();
  for (const auto& [batch, vocab, seqlen, all_ignored] : {std::tuple{3, 7, 19, false}, std::tuple{1, 16, 1, false},
                                                          std::tuple{2, 16, 273, false}, std::tuple{2, 5, 4, true}}) {
    INFO("batch " << batch << ", vocab " << vocab << ", seqlen " << seqlen);
    ch09::Batch data = random_batch(vocab, batch, seqlen, 13);
    if (all_ignored) std::fill(data.targets.begin(), data.targets.end(), -1);
    if (!all_ignored) data.targets[0] = 0;  // at least one scored position
    const std::size_t n = std::size_t(batch) * vocab * seqlen, positions = std::size_t(batch) * seqlen;
    const std::vector<double> logits = random_values(n, 14, 3.0);

    double loss = 0;
    long scored = 0;
    std::vector<double> dlogits(n, 0.0);
    for (std::size_t p = 0; p < positions; ++p)
      if (data.targets[p] >= 0) ++scored;
    for (int b = 0; b < batch; ++b)
      for (int t = 0; t < seqlen; ++t) {
        const int target = data.targets[std::size_t(b) * seqlen + t];
        if (target < 0) continue;
        auto at = [&, vocab = vocab, seqlen = seqlen](int v) { return (std::size_t(b) * vocab + v) * seqlen + t; };
        double largest = logits[at(0)], sum = 0;
        for (int v = 1; v < vocab; ++v) largest = std::max(largest, logits[at(v)]);
        for (int v = 0; v < vocab; ++v) sum += std::exp(logits[at(v)] - largest);
        const double lse = largest + std::log(sum);
        loss += lse - logits[at(target)];
        for (int v = 0; v < vocab; ++v)
          dlogits[at(v)] = (std::exp(logits[at(v)] - lse) - (v == target ? 1.0 : 0.0)) / double(scored);
      }
    if (scored > 0) loss /= double(scored);
    const ch09::Accuracy accuracy = ch09::token_accuracy(to_float(logits), vocab, data);

    DeviceBuffer<float> d_logits = upload(logits), d_dlogits = poisoned(n), d_loss = poisoned(positions);
    DeviceBuffer<float> d_lse = poisoned(positions);
    DeviceBuffer<int> d_targets = upload(data.targets), d_correct(positions);
    d_correct.poison();
    DeviceBuffer<ch09::gpu::LossMetrics> d_metrics(1);
    d_metrics.poison();
    ch09::gpu::cross_entropy_forward(d_logits.data(), d_targets.data(), d_loss.data(), d_lse.data(), d_correct.data(),
                                     d_metrics.data(), batch, vocab, seqlen);
    ch09::gpu::cross_entropy_backward(d_logits.data(), d_targets.data(), d_lse.data(), d_metrics.data(),
                                      d_dlogits.data(), batch, vocab, seqlen);
    const ch09::gpu::LossMetrics metrics = d_metrics.download()[0];
    CHECK_CLOSE("loss", common::compare(std::vector<double>{metrics.loss}, std::vector<double>{loss}, kFp32));
    CHECK(metrics.targets == scored);
    CHECK(metrics.correct == accuracy.correct);
    CHECK_CLOSE("dlogits", common::compare(download(d_dlogits), dlogits, {1e-7, 1e-4}));
  }
}

TEST_CASE("GPU AdamW matches cpu_training's step, clipping and weight decay included", "[gpu]") {
  REQUIRE_GPU();
  const std::size_t count = 1001;
  for (const double clip_norm : {0.0, 1.0}) {  // 1.0 clips: the gradients below have norm ~30
    INFO("clip_norm " << clip_norm);
    ch09::AdamWSettings settings;
    settings.clip_norm = clip_norm;
    std::vector<double> p = random_values(count, 15);
    std::vector<float> decay(count);
    for (std::size_t i = 0; i < count; ++i) decay[i] = i % 3 == 0 ? 1.0f : 0.0f;
    DeviceBuffer<float> d_p = upload(p), d_m(count), d_v(count), d_norm = poisoned(1);
    CUDA_CHECK(cudaMemset(d_m.data(), 0, d_m.bytes()));
    CUDA_CHECK(cudaMemset(d_v.data(), 0, d_v.bytes()));
    DeviceBuffer<float> d_decay{std::span<const float>(decay)};
    ch09::AdamWState state;
    const float lr = 1e-2f;
    for (int step = 1; step <= 3; ++step) {
      const std::vector<double> g = random_values(count, 100 + step);
      DeviceBuffer<float> d_g = upload(g);
      ch09::gpu::gradient_norm(d_g.data(), count, d_norm.data());
      ch09::gpu::adamw_step(d_p.data(), d_g.data(), d_m.data(), d_v.data(), d_decay.data(), count, settings, lr, step,
                            d_norm.data());
      const double norm = ch09::adamw_step(settings, lr, decay, p, g, state);
      CHECK_CLOSE("gradient norm", common::compare(download(d_norm), std::vector<double>{norm}, {0, 1e-5}));
    }
    CHECK_CLOSE("p", common::compare(download(d_p), p, {1e-6, 1e-5}));
    CHECK_CLOSE("m", common::compare(download(d_m), state.m, {1e-6, 1e-5}));
    CHECK_CLOSE("v", common::compare(download(d_v), state.v, {1e-6, 1e-5}));
  }
}

}  // namespace

TEST_CASE("GPU transposes between channels-first rows and chapter 10's time-major layout, and the Mamba-2 gate",
          "[gpu]") {
  REQUIRE_GPU();
  // A run of rows of a (batch, all_rows, seqlen) tensor, as the Mamba-2 layer takes x, B, C or dt
  // out of in_proj's output: sizes that leave tiles partly empty, and more than one tile of rows.
  for (const auto& [batch, seqlen, all_rows, first, rows] :
       {std::tuple{3, 37, 11, 2, 7}, std::tuple{1, 1, 11, 2, 7}, std::tuple{2, 300, 11, 2, 7},
        std::tuple{2, 37, 75, 3, 70}}) {
    INFO("batch " << batch << ", seqlen " << seqlen << ", rows [" << first << ", " << first + rows << ") of "
                  << all_rows);
    const std::size_t n = std::size_t(batch) * all_rows * seqlen, m = std::size_t(batch) * rows * seqlen;
    const std::vector<double> in = random_values(n, 5), back = random_values(m, 6), base = random_values(n, 7);
    std::vector<double> time_major(m), restored = base, added = base;
    for (int b = 0; b < batch; ++b)
      for (int r = 0; r < rows; ++r)
        for (int t = 0; t < seqlen; ++t) {
          const std::size_t row_at = (std::size_t(b) * all_rows + first + r) * seqlen + t;
          const std::size_t time_at = (std::size_t(b) * seqlen + t) * rows + r;
          time_major[time_at] = in[row_at];
          restored[row_at] = back[time_at];
          added[row_at] = base[row_at] + back[time_at];
        }
    const long long stride = static_cast<long long>(all_rows) * seqlen;
    DeviceBuffer<float> d_in = upload(in), d_back = upload(back), d_tm = poisoned(m);
    DeviceBuffer<float> d_restored = upload(base), d_added = upload(base);
    ch09::gpu::rows_to_time_major(d_in.data() + first * seqlen, stride, d_tm.data(), batch, rows, seqlen);
    ch09::gpu::time_major_to_rows(d_back.data(), d_restored.data() + first * seqlen, stride, false, batch, rows,
                                  seqlen);
    ch09::gpu::time_major_to_rows(d_back.data(), d_added.data() + first * seqlen, stride, true, batch, rows, seqlen);
    CHECK_CLOSE("to time-major", common::compare(download(d_tm), time_major, kFp32));
    CHECK_CLOSE("back to rows (the other rows untouched)", common::compare(download(d_restored), restored, kFp32));
    CHECK_CLOSE("back to rows, added", common::compare(download(d_added), added, kFp32));

    // The gate: z is rows [first, first + rows) of `in`; dz goes to rows [1, 1 + rows) of a
    // tensor of rows + 3 rows, so that z's and dz's strides and offsets differ.
    const int dz_rows = rows + 3, dz_first = 1;
    const std::vector<double> y = random_values(m, 8), dg = random_values(m, 9);
    std::vector<double> g(m), dy(m), dz(std::size_t(batch) * dz_rows * seqlen, 0.0);
    for (int b = 0; b < batch; ++b)
      for (int r = 0; r < rows; ++r)
        for (int t = 0; t < seqlen; ++t) {
          const std::size_t e = (std::size_t(b) * rows + r) * seqlen + t;
          const double z = in[(std::size_t(b) * all_rows + first + r) * seqlen + t];
          g[e] = y[e] * silu(z);
          dy[e] = dg[e] * silu(z);
          dz[(std::size_t(b) * dz_rows + dz_first + r) * seqlen + t] = dg[e] * y[e] * silu_derivative(z);
        }
    DeviceBuffer<float> d_y = upload(y), d_dg = upload(dg), d_g = poisoned(m), d_dy = poisoned(m),
                        d_dz = poisoned(dz.size());
    CUDA_CHECK(cudaMemset(d_dz.data(), 0, d_dz.bytes()));  // rows the gate does not reach stay 0
    ch09::gpu::gate_forward(d_y.data(), d_in.data() + first * seqlen, stride, d_g.data(), batch, rows, seqlen);
    ch09::gpu::gate_backward(d_dg.data(), d_y.data(), d_in.data() + first * seqlen, stride, d_dy.data(),
                             d_dz.data() + dz_first * seqlen, static_cast<long long>(dz_rows) * seqlen, batch, rows,
                             seqlen);
    CHECK_CLOSE("gate", common::compare(download(d_g), g, kFp32));
    CHECK_CLOSE("gate's dy", common::compare(download(d_dy), dy, kFp32));
    CHECK_CLOSE("gate's dz", common::compare(download(d_dz), dz, kFp32));
  }
}
