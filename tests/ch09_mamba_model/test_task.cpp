// The selective-copying generator's invariants and the token accuracy.
#include "ch09_test_support.hpp"

#include <set>

TEST_CASE("selective copying: data in order among noise, then one marker per data token") {
  std::mt19937_64 rng(5);
  const int body = 24, n_data = 6, vocab = 16;
  const ch09::Batch batch = ch09::make_selective_copying(40, body, n_data, vocab, rng);
  REQUIRE(batch.seqlen == body + n_data);
  REQUIRE(batch.tokens.size() == std::size_t(40 * batch.seqlen));
  REQUIRE(batch.targets.size() == batch.tokens.size());
  std::set<int> first_positions, symbols;
  for (int b = 0; b < batch.batch; ++b) {
    const int* tokens = batch.tokens.data() + b * batch.seqlen;
    const int* targets = batch.targets.data() + b * batch.seqlen;
    std::vector<int> data;
    for (int t = 0; t < body; ++t) {
      CHECK(targets[t] == -1);
      CHECK(tokens[t] != ch09::kMarkerToken);
      CHECK(tokens[t] < vocab);
      if (tokens[t] >= ch09::kFirstDataToken) {
        if (data.empty()) first_positions.insert(t);
        data.push_back(tokens[t]);
        symbols.insert(tokens[t]);
      } else {
        CHECK(tokens[t] == ch09::kNoiseToken);
      }
    }
    REQUIRE(data.size() == std::size_t(n_data));
    for (int j = 0; j < n_data; ++j) {
      CHECK(tokens[body + j] == ch09::kMarkerToken);
      CHECK(targets[body + j] == data[std::size_t(j)]);  // the j-th marker asks for the j-th data token
    }
  }
  CHECK(first_positions.size() > 5);                                    // the positions really vary
  CHECK(symbols.size() == std::size_t(vocab - ch09::kFirstDataToken));  // every data symbol occurs
}

TEST_CASE("selective copying: a seed gives the same sequences, another seed others") {
  std::mt19937_64 a(9), b(9), c(10);
  const ch09::Batch x = ch09::make_selective_copying(4, 32, 4, 16, a);
  const ch09::Batch y = ch09::make_selective_copying(4, 32, 4, 16, b);
  const ch09::Batch z = ch09::make_selective_copying(4, 32, 4, 16, c);
  CHECK(x.tokens == y.tokens);
  CHECK(x.tokens != z.tokens);
  // Every body position can hold data, the first and the last included (n_data = body_length).
  const ch09::Batch full = ch09::make_selective_copying(1, 3, 3, 16, a);
  for (int t = 0; t < 3; ++t) CHECK(full.tokens[std::size_t(t)] >= ch09::kFirstDataToken);
  CHECK_THROWS_AS(ch09::make_selective_copying(1, 3, 4, 16, a), std::invalid_argument);
  CHECK_THROWS_AS(ch09::make_selective_copying(1, 8, 2, 2, a), std::invalid_argument);
}

TEST_CASE("token accuracy counts the argmax at scored positions only") {
  ch09::Batch batch;
  batch.batch = 1;
  batch.seqlen = 3;
  batch.tokens = {0, 1, 1};
  batch.targets = {-1, 2, 0};
  // logits (1, vocab 3, 3): position 0 unscored, position 1 argmax 2 (right), position 2 argmax 1 (wrong).
  const std::vector<double> logits = {9, 0, 0,  //
                                      0, 1, 5,  //
                                      0, 2, 1};
  const ch09::Accuracy a = ch09::token_accuracy(logits, 3, batch);
  CHECK(a.scored == 2);
  CHECK(a.correct == 1);
  const ch09::Accuracy f = ch09::token_accuracy(std::vector<float>(logits.begin(), logits.end()), 3, batch);
  CHECK(f.correct == 1);
}

TEST_CASE("whole-sequence accuracy counts a sequence only when every scored token is right") {
  ch09::Batch batch;
  batch.batch = 3;
  batch.seqlen = 2;
  batch.tokens = {0, 1, 0, 1, 0, 1};
  batch.targets = {1, 0, -1, 1, 0, 1};
  // logits (3, vocab 2, 2): sequence 0 right at both scored positions; sequence 1 right at its one
  // scored position; sequence 2 right at position 0, wrong at position 1.
  const std::vector<double> logits = {0, 5, 1, 0,  //
                                      7, 0, 0, 1,  //
                                      1, 3, 0, 0};
  const ch09::Accuracy whole = ch09::whole_sequence_accuracy(logits, 2, batch);
  CHECK(whole.scored == 3);
  CHECK(whole.correct == 2);
  const ch09::Accuracy tokens = ch09::token_accuracy(logits, 2, batch);
  CHECK(tokens.scored == 5);
  CHECK(tokens.correct == 4);
  CHECK(ch09::whole_sequence_accuracy(std::vector<float>(logits.begin(), logits.end()), 2, batch).correct == 2);
}

TEST_CASE("the curriculum's body length grows from its start to the full body over the first half") {
  CHECK(ch09::curriculum_body_length(0, 256, 0, 100) == 256);    // no curriculum
  CHECK(ch09::curriculum_body_length(300, 256, 0, 100) == 256);  // a start past the body: none
  CHECK(ch09::curriculum_body_length(8, 32, 0, 100) == 8);
  CHECK(ch09::curriculum_body_length(8, 32, 25, 100) == 20);
  CHECK(ch09::curriculum_body_length(8, 32, 49, 100) == 31);
  CHECK(ch09::curriculum_body_length(8, 32, 50, 100) == 32);
  CHECK(ch09::curriculum_body_length(8, 32, 99, 100) == 32);
  int previous = 0;
  for (int step = 0; step < 1000; ++step) {
    const int body = ch09::curriculum_body_length(16, 256, step, 1000);
    CHECK(body >= previous);
    previous = body;
  }
}
