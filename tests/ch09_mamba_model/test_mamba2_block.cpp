// The fp64 Mamba-2 block (mamba2_block.hpp) against central finite differences: the gradient of
// a weighted sum of its output with respect to its input and every parameter. Two heads of 4
// channels, 3 states, a convolution of 3 taps, 2 sequences of 7 steps: every path of the block
// (gate, norm, convolution over x, B and C, the SSD's A, D, dt_bias) reaches the sum.
#include "ch09_test_support.hpp"
#include "mamba2_block.hpp"

#include <random>
#include <string>
#include <vector>

namespace {

struct Case {
  ch09::Mamba2Sizes sizes{4, 8, 4, 3, 3};
  std::size_t batch = 2, L = 7;
  std::vector<double> n, weight, params;  // input, the sum's weights, every parameter laid end to end
  std::vector<std::size_t> offsets;       // of each block in params, in Mamba2Blocks' order
};

Case make_case(unsigned seed) {
  Case c;
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, 1.0);
  const auto& s = c.sizes;
  const std::size_t counts[] = {std::size_t(s.in_proj_rows() * s.d_model),
                                std::size_t(s.conv_channels() * s.conv_width),
                                std::size_t(s.conv_channels()),
                                std::size_t(s.heads()),
                                std::size_t(s.heads()),
                                std::size_t(s.heads()),
                                std::size_t(s.d_inner),
                                std::size_t(s.d_model * s.d_inner)};
  for (std::size_t count : counts) {
    c.offsets.push_back(c.params.size());
    for (std::size_t i = 0; i < count; ++i) c.params.push_back(0.5 * normal(rng));
  }
  // A_log near log 1..2, the norm's weights near 1: the block's usual ranges.
  for (int h = 0; h < s.heads(); ++h) c.params[c.offsets[4] + std::size_t(h)] = 0.3 * h + 0.1 * normal(rng);
  for (int i = 0; i < s.d_inner; ++i) c.params[c.offsets[6] + std::size_t(i)] = 1.0 + 0.1 * normal(rng);
  c.n.resize(c.batch * std::size_t(s.d_model) * c.L);
  c.weight.resize(c.n.size());
  for (double& v : c.n) v = normal(rng);
  for (double& v : c.weight) v = normal(rng);
  return c;
}

template <class T>
ch09::Mamba2Blocks<T> blocks_of(T* p, const std::vector<std::size_t>& at) {
  return {p + at[0], p + at[1], p + at[2], p + at[3], p + at[4], p + at[5], p + at[6], p + at[7]};
}

double weighted_sum(const Case& c, const std::vector<double>& params, const std::vector<double>& n) {
  const ch09::Mamba2Trace tr = ch09::mamba2_forward(c.sizes, blocks_of(params.data(), c.offsets), n, c.batch, c.L);
  double sum = 0.0;
  for (std::size_t i = 0; i < tr.out.size(); ++i) sum += c.weight[i] * tr.out[i];
  return sum;
}

}  // namespace

TEST_CASE("the Mamba-2 block's gradients match finite differences, its input's and every parameter's") {
  const Case c = make_case(21);
  const ch09::Mamba2Trace tr = ch09::mamba2_forward(c.sizes, blocks_of(c.params.data(), c.offsets), c.n, c.batch, c.L);
  std::vector<double> grad(c.params.size(), 0.0);
  const std::vector<double> dn = ch09::mamba2_backward(c.sizes, blocks_of(c.params.data(), c.offsets), c.n, tr,
                                                       c.weight, blocks_of(grad.data(), c.offsets), c.batch, c.L);
  const double h = 1e-5;
  {
    std::vector<double> expected(c.n.size());
    for (std::size_t i = 0; i < c.n.size(); ++i) {
      std::vector<double> n = c.n;
      const double saved = n[i];
      n[i] = saved + h;
      const double up = weighted_sum(c, c.params, n);
      n[i] = saved - h;
      expected[i] = (up - weighted_sum(c, c.params, n)) / (2 * h);
    }
    CHECK_CLOSE("the input n", common::compare(dn, expected, {1e-8, 1e-6}));
  }
  const char* names[] = {"in_proj", "conv_weight", "conv_bias", "dt_bias", "A_log", "D", "norm", "out_proj"};
  for (std::size_t block = 0; block < 8; ++block) {
    const std::size_t begin = c.offsets[block], end = block + 1 < 8 ? c.offsets[block + 1] : c.params.size();
    std::vector<double> got(grad.begin() + std::ptrdiff_t(begin), grad.begin() + std::ptrdiff_t(end)), expected;
    double largest = 0.0;
    for (std::size_t i = begin; i < end; ++i) {
      std::vector<double> params = c.params;
      const double saved = params[i];
      params[i] = saved + h;
      const double up = weighted_sum(c, params, c.n);
      params[i] = saved - h;
      expected.push_back((up - weighted_sum(c, params, c.n)) / (2 * h));
      largest = std::max(largest, std::abs(expected.back()));
    }
    INFO(names[block] << ", largest |gradient| " << largest);
    CHECK(largest > 1e-6);  // the block reaches the sum
    CHECK_CLOSE(names[block], common::compare(got, expected, {1e-8, 1e-6}));
  }
}

TEST_CASE("the Mamba-2 block refuses a head size that does not divide d_inner") {
  ch09::Mamba2Sizes sizes{4, 8, 3, 2, 2};
  CHECK(sizes.validate().find("does not divide") != std::string::npos);
  const std::vector<double> params(1000, 0.0), n(4 * 5, 0.0);
  const std::vector<std::size_t> at(8, 0);
  CHECK_THROWS_AS(ch09::mamba2_forward(sizes, blocks_of(params.data(), at), n, 1, 5), std::invalid_argument);
}
