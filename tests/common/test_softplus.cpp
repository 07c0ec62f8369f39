#include <catch2/catch.hpp>

#include "softplus.hpp"

#include <cmath>

TEST_CASE("softplus is log(1 + e^x), and x itself past the cut at 20") {
  CHECK(common::softplus(0.0) == Approx(std::log(2.0)).epsilon(1e-15));
  CHECK(common::softplus(-30.0) == Approx(std::exp(-30.0)).epsilon(1e-12));  // log1p keeps the tiny value
  CHECK(common::softplus(20.0) == std::log1p(std::exp(20.0)));               // 20 itself is below the cut
  CHECK(common::softplus(20.5) == 20.5);
  CHECK(common::softplus(1e6) == 1e6);  // no overflow of e^x
  CHECK(common::softplus(20.5f) == 20.5f);
  CHECK(common::softplus(1.0f) == Approx(std::log1p(std::exp(1.0))).epsilon(1e-7));
}
