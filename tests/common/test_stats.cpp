#include <catch2/catch.hpp>

#include "stats.hpp"
#include "timing.hpp"

TEST_CASE("summarize gives the median, min and max of the samples") {
  const auto odd = common::summarize({5, 1, 9, 3, 7});
  CHECK(odd.median_ms == 5);
  CHECK(odd.min_ms == 1);
  CHECK(odd.max_ms == 9);
  CHECK(odd.repetitions == 5);
  CHECK(common::summarize({4, 1, 3, 2}).median_ms == 2.5);   // even count: mean of the middle two
  CHECK(common::summarize({1, 1, 1, 1000}).median_ms == 1);  // one outlier does not move it
  CHECK_THROWS(common::summarize({}));
}

TEST_CASE("gigabytes_per_second counts 10^9 bytes per second") {
  CHECK(common::gigabytes_per_second(2e9, 1000) == Approx(2.0));
  CHECK(common::gigabytes_per_second(4e9, 1) == Approx(4000.0));
  CHECK_THROWS(common::gigabytes_per_second(1, 0));
}

TEST_CASE("time_cpu runs the warm-up and every repetition") {
  int calls = 0;
  const auto t = common::time_cpu([&] { ++calls; }, 2, 7);
  CHECK(calls == 9);
  CHECK(t.repetitions == 7);
  CHECK(t.min_ms <= t.median_ms);
  CHECK(t.median_ms <= t.max_ms);
}
