// Chapter 07's GPU exercise (exercise 4: version 3's kernel, reverse_block_scan.cu). In the
// `exercises` preset the stub runs here, and every case must fail until the reader writes the
// kernel. The kernel gets the fp64 forward pass's h (rounded to fp32), so only its own work is
// checked, against the fp64 reverse pass written out below: rscan::backward would not do, as it
// runs exercises 1 and 2, which are stubs in that build too.
#include "ch07_test_support.hpp"
#include "device_buffer.hpp"
#include "gpu_reverse.hpp"
#include "gpu_test.hpp"

#include <cmath>
#include <cstddef>
#include <span>
#include <string>
#include <vector>

namespace {

// Spare elements after the last sequence's gradients, NaN, that the kernel must leave alone.
constexpr std::size_t kGuard = 256;

// "sequence s, step k" for a flat index, in the failure message.
std::string where(rscan::Shape shape, std::size_t i) {
  return "sequence " + std::to_string(i / shape.length) + ", step k = " + std::to_string(i % shape.length);
}

// g_k = dy_k + a_(k+1) g_(k+1) from each sequence's end (nothing past it), and g_k h_(k-1)
// (h_(-1) = 0), in fp64.
rscan::Gradients reverse_pass_fp64(rscan::Shape shape, const std::vector<double>& a, const std::vector<double>& h,
                                   const std::vector<double>& dy) {
  rscan::Gradients out{std::vector<double>(shape.size()), std::vector<double>(shape.size())};
  for (std::size_t s = 0; s < shape.sequences; ++s) {
    const std::size_t first = s * shape.length;
    double g_next = 0, a_next = 0;
    for (std::size_t k = shape.length; k-- > 0;) {
      const double g = dy[first + k] + a_next * g_next;
      out.g[first + k] = g;
      out.grad_a[first + k] = g * (k > 0 ? h[first + k - 1] : 0.0);
      g_next = g, a_next = a[first + k];
    }
  }
  return out;
}

void check_version_3(rscan::Shape shape, unsigned seed) {
  const Inputs in = random_inputs(shape, seed);
  const auto h = rscan::forward(shape, in.a, in.b);
  const auto dy = rscan::log_cosh_loss_gradient(h, in.target);
  const auto expected = reverse_pass_fp64(shape, in.a, h, dy);
  const std::size_t n = shape.size();
  const auto a32 = rscan::to_float(in.a), b32 = rscan::to_float(in.b), dy32 = rscan::to_float(dy),
             h32 = rscan::to_float(h);
  common::DeviceBuffer<float> a{std::span<const float>(a32)}, b{std::span<const float>(b32)},
      dy_d{std::span<const float>(dy32)}, h_d{std::span<const float>(h32)}, grad_a(n + kGuard), grad_b(n + kGuard);
  grad_a.poison();
  grad_b.poison();
  rscan::DeviceProblem p;
  p.sequences = shape.sequences;
  p.length = shape.length;
  p.a = a.data();
  p.b = b.data();
  p.dy = dy_d.data();
  p.h = h_d.data();
  p.grad_a = grad_a.data();
  p.grad_b = grad_b.data();
  rscan::run_backward(rscan::Kernel::block_reverse, p);
  const auto all_a = grad_a.download(), all_b = grad_b.download();
  const std::vector<float> got_a(all_a.begin(), all_a.begin() + n), got_b(all_b.begin(), all_b.begin() + n);
  const auto at = [&](std::size_t i) { return where(shape, i); };
  const auto compared_b = common::compare(got_b, expected.g, kGradB);
  const auto compared_a = common::compare(got_a, expected.grad_a, kGradA);
  INFO("reverse_block_scan_kernel, " << shape.sequences << " sequences x " << shape.length << " steps (chunks of "
                                     << rscan::kBlockThreads << "), random_inputs seed " << seed);
  INFO("dL/db = g: " << compared_b.summary(at));
  CHECK(compared_b.ok);
  INFO("dL/da = g_k h_(k-1): " << compared_a.summary(at));
  CHECK(compared_a.ok);
  std::size_t written_past_end = 0;
  for (std::size_t i = n; i < n + kGuard; ++i) written_past_end += !std::isnan(all_a[i]) + !std::isnan(all_b[i]);
  INFO("gradient elements written past the last sequence (they must stay NaN): " << written_past_end);
  CHECK(written_past_end == 0);
}

}  // namespace

TEST_CASE("exercise 4: version 3 within one chunk (1 step up to a full chunk of 256)", "[exercise][gpu]") {
  REQUIRE_GPU();
  // g_k needs a_(k+1) g_(k+1) from the step after it: a g that stops at dy, or takes a_k in place
  // of a_(k+1), fails here; so does a grad_a that multiplies by h_k instead of h_(k-1).
  for (std::size_t length : {1, 2, 31, 32, 33, 255, 256}) check_version_3({3, length}, 700 + unsigned(length));
}

TEST_CASE("exercise 4: version 3 carries g from each chunk into the one before it", "[exercise][gpu]") {
  REQUIRE_GPU();
  // Chunks walked from the first instead of the last, a carry left out, or a carry not updated
  // with the chunk's total fail from the second chunk on.
  for (std::size_t length : {257, 512, 1000, 5003}) check_version_3({2, length}, 800 + unsigned(length));
}

TEST_CASE("exercise 4: version 3 keeps every sequence to itself", "[exercise][gpu]") {
  REQUIRE_GPU();
  // Many blocks: each starts from g = 0 past its own end and h = 0 before its own start, and
  // writes nothing past its last step (the last sequence has NaN guards after it).
  check_version_3({160, 33}, 901);
  check_version_3({131, 257}, 902);
}
