#include "selective_copying.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <string>

namespace ch09 {
namespace {

// A uniform integer in [0, n), by rejection so that no value is favoured.
int uniform_below(std::mt19937_64& rng, int n) {
  const std::uint64_t range = std::uint64_t(n);
  const std::uint64_t limit = std::mt19937_64::max() - std::mt19937_64::max() % range;
  std::uint64_t draw;
  do draw = rng();
  while (draw >= limit);
  return int(draw % range);
}

// Token accuracy (per_sequence false) or whole-sequence accuracy (true) of logits (batch, vocab, L).
template <class T>
Accuracy accuracy_of(const std::vector<T>& logits, int vocab, const Batch& batch, bool per_sequence) {
  const std::size_t L = std::size_t(batch.seqlen);
  if (logits.size() != std::size_t(batch.batch) * std::size_t(vocab) * L)
    throw std::invalid_argument("token_accuracy: logits are not (batch, vocab, seqlen)");
  Accuracy tokens, sequences;
  for (std::size_t b = 0; b < std::size_t(batch.batch); ++b) {
    const long wrong_before = tokens.scored - tokens.correct;
    for (std::size_t t = 0; t < L; ++t) {
      const int target = batch.targets[b * L + t];
      if (target < 0) continue;
      const T* column = logits.data() + b * std::size_t(vocab) * L + t;  // stride L over the vocabulary
      int best = 0;
      for (int v = 1; v < vocab; ++v)
        if (column[std::size_t(v) * L] > column[std::size_t(best) * L]) best = v;
      tokens.correct += best == target;
      ++tokens.scored;
    }
    sequences.correct += tokens.scored - tokens.correct == wrong_before;
    ++sequences.scored;
  }
  return per_sequence ? sequences : tokens;
}

}  // namespace

int curriculum_body_length(int from, int body_length, int step, int steps) {
  if (from <= 0 || from >= body_length) return body_length;
  const int half = std::max(1, steps / 2);
  if (step >= half) return body_length;
  return from + int((long long)(body_length - from) * step / half);
}

std::mt19937_64 training_stream(unsigned seed) {
  return std::mt19937_64(std::uint64_t(seed) * 0x9E3779B97F4A7C15ull + 1);
}
std::mt19937_64 held_out_stream(unsigned seed) { return std::mt19937_64(std::uint64_t(seed) + 0x5EED); }

// [snippet:make_selective_copying]
Batch make_selective_copying(int batch, int body_length, int n_data, int vocab, std::mt19937_64& rng) {
  if (batch < 1 || n_data < 1 || body_length < n_data || vocab <= kFirstDataToken)
    throw std::invalid_argument(
        "make_selective_copying: needs batch >= 1, 1 <= n_data <= body_length, vocab > 2 (got " +
        std::to_string(batch) + ", " + std::to_string(n_data) + ", " + std::to_string(body_length) + ", " +
        std::to_string(vocab) + ")");
  Batch out;
  out.batch = batch;
  out.seqlen = body_length + n_data;
  out.tokens.assign(std::size_t(batch) * std::size_t(out.seqlen), kNoiseToken);
  out.targets.assign(out.tokens.size(), -1);
  std::vector<int> positions(static_cast<std::size_t>(body_length));
  for (int b = 0; b < batch; ++b) {
    int* tokens = out.tokens.data() + std::size_t(b) * std::size_t(out.seqlen);
    int* targets = out.targets.data() + std::size_t(b) * std::size_t(out.seqlen);
    // n_data distinct positions: the first n_data of a partial Fisher-Yates shuffle, sorted.
    std::iota(positions.begin(), positions.end(), 0);
    for (int i = 0; i < n_data; ++i)
      std::swap(positions[std::size_t(i)], positions[std::size_t(i + uniform_below(rng, body_length - i))]);
    std::sort(positions.begin(), positions.begin() + n_data);
    for (int j = 0; j < n_data; ++j) {
      const int symbol = kFirstDataToken + uniform_below(rng, vocab - kFirstDataToken);
      tokens[positions[std::size_t(j)]] = symbol;
      tokens[body_length + j] = kMarkerToken;
      targets[body_length + j] = symbol;  // the j-th marker asks for the j-th data token
    }
  }
  return out;
}
// [/snippet:make_selective_copying]

Accuracy token_accuracy(const std::vector<double>& logits, int vocab, const Batch& batch) {
  return accuracy_of(logits, vocab, batch, false);
}
Accuracy token_accuracy(const std::vector<float>& logits, int vocab, const Batch& batch) {
  return accuracy_of(logits, vocab, batch, false);
}
Accuracy whole_sequence_accuracy(const std::vector<double>& logits, int vocab, const Batch& batch) {
  return accuracy_of(logits, vocab, batch, true);
}
Accuracy whole_sequence_accuracy(const std::vector<float>& logits, int vocab, const Batch& batch) {
  return accuracy_of(logits, vocab, batch, true);
}

}  // namespace ch09
