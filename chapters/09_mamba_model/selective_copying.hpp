// The selective-copying task (Mamba paper §4.1.1 and Appendix E.1), scaled down.
//
// Token 0 is noise, token 1 the "copy now" marker, tokens 2..vocab-1 are data. A sequence is a
// body of `body_length` positions holding `n_data` data tokens at random distinct positions (in
// the order they appear), noise everywhere else, then `n_data` markers. At the j-th marker the
// model must output the j-th data token; no other position is scored.
//
// The spacing of the data is random, so no fixed convolution kernel can pick them out: a model
// must decide from each token's content whether to remember it. That is what selection is for.
#pragma once

#include <random>
#include <vector>

namespace ch09 {

constexpr int kNoiseToken = 0;
constexpr int kMarkerToken = 1;
constexpr int kFirstDataToken = 2;

struct Batch {
  int batch = 0, seqlen = 0;
  std::vector<int> tokens;   // (batch, seqlen) row-major
  std::vector<int> targets;  // (batch, seqlen); -1 where nothing is scored
};

// seqlen = body_length + n_data. Draws only through rng() (not <random>'s distributions, which
// differ between standard libraries), so a seed gives the same sequences everywhere.
Batch make_selective_copying(int batch, int body_length, int n_data, int vocab, std::mt19937_64& rng);

// The two random streams of a training run's seed: the sequences it trains on, and the held-out
// sequences it is measured on. The CPU and the GPU training draw from the same two.
std::mt19937_64 training_stream(unsigned seed);
std::mt19937_64 held_out_stream(unsigned seed);

// A curriculum: the body length of training step `step` (from 0) of `steps`, growing linearly from
// `from` to `body_length` over the first half of the run, then `body_length`. from = 0: no
// curriculum, every step has the full body. Short bodies first let a selective model find the
// mechanism (write data, ignore noise) where it is easy to find, before the noise grows.
int curriculum_body_length(int from, int body_length, int step, int steps);

struct Accuracy {
  long correct = 0, scored = 0;
  double fraction() const { return scored ? double(correct) / double(scored) : 0.0; }
  Accuracy& operator+=(const Accuracy& other) {
    correct += other.correct, scored += other.scored;
    return *this;
  }
};

// Token accuracy of logits (batch, vocab, seqlen): the argmax at each scored position against
// its target (ties go to the lower token).
Accuracy token_accuracy(const std::vector<double>& logits, int vocab, const Batch& batch);
Accuracy token_accuracy(const std::vector<float>& logits, int vocab, const Batch& batch);

// Sequences copied whole: scored counts the sequences, correct those whose every scored position
// is right. Copying is the task: an output with one token of sixteen wrong is a failed copy.
Accuracy whole_sequence_accuracy(const std::vector<double>& logits, int vocab, const Batch& batch);
Accuracy whole_sequence_accuracy(const std::vector<float>& logits, int vocab, const Batch& batch);

}  // namespace ch09
