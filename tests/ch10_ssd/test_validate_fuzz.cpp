// ssd::validate on random parameter sets, on the CPU: it never crashes, it answers in one line or
// not at all, forward() and backward() refuse exactly what it refuses (before anything touches a
// GPU), sizes whose tensors would pass 2^63 - 1 bytes are refused, and so is an output that
// overlaps another tensor of its call.
#include "device_ssd.hpp"
#include "ssd.hpp"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

namespace {

float never_read[1];

// The k-th tensor of a call with no memory behind it, 2^58 bytes from the next: apart for every
// size validate accepts here, which the library compares and never reads.
const void* placeholder(int k) { return reinterpret_cast<const void*>(std::uintptr_t(k + 1) << 58); }

std::int64_t random_size(std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0: return 0;
    case 1: return -std::int64_t(rng() % 5);
    case 2: return std::int64_t(1) << (rng() % 62);  // up to 2^61
    default: return 1 + std::int64_t(rng() % 300);
  }
}

}  // namespace

TEST_CASE("validate on random parameters: one line or none, and forward refuses what it refuses") {
  std::mt19937_64 rng(20261128);
  int refused = 0, accepted = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    ssd::ForwardParams f;
    const auto small = [&](std::int64_t v) {
      return int(std::max<std::int64_t>(std::min<std::int64_t>(v, 1 << 30), -5));
    };
    f.sizes = {random_size(rng),
               random_size(rng),
               small(random_size(rng)),
               small(random_size(rng)),
               small(1 + std::int64_t(rng() % 4)),
               small(random_size(rng))};
    f.input_type = ssd::DataType(rng() % 3);
    f.kernel = ssd::Kernel(rng() % 4);  // 3 is no version
    f.chunk_size = random_size(rng);
    f.dt_min = rng() % 7 == 0 ? std::nanf("") : float(rng() % 3) * 0.01f;
    f.dt_max = rng() % 5 == 0 ? std::numeric_limits<float>::infinity() : float(rng() % 3) * 0.01f;
    int k = 0;
    for (const void** p : {&f.x, &f.dt, &f.B, &f.C}) *p = rng() % 20 ? placeholder(k++) : nullptr;
    f.A = rng() % 20 ? static_cast<const float*>(placeholder(k++)) : nullptr;
    f.y = rng() % 20 ? const_cast<void*>(placeholder(k++)) : nullptr;
    const std::string problem = ssd::validate(f);
    INFO("trial " << trial << ": " << problem);
    CHECK(problem.find('\n') == std::string::npos);
    if (!problem.empty()) {
      ++refused;
      CHECK_THROWS_WITH(ssd::forward(f), "ssd::forward: " + problem);
      ssd::BackwardParams b;
      b.forward = f;
      CHECK_THROWS_AS(ssd::backward(b), ssd::Error);
    } else {
      ++accepted;
      const ssd::Sizes& s = f.sizes;
      // Accepted sizes must count without wrapping: x's bytes below 2^63.
      const long double x_bytes = 4.0L * s.batch * s.seqlen * s.heads * s.head_dim;
      CHECK(x_bytes < 9.3e18L);
    }
  }
  CHECK(refused > 1000);
  CHECK(accepted > 100);
}

TEST_CASE("sizes whose tensors pass 2^63 - 1 bytes are refused in one line") {
  ssd::ForwardParams f;
  f.x = f.dt = f.B = f.C = never_read;
  f.A = never_read;
  f.y = never_read;
  f.sizes = {std::int64_t(1) << 40, std::int64_t(1) << 20, 64, 64, 1, 16};
  CHECK_THAT(ssd::validate(f), Catch::Contains("x would take more than 2^63 - 1 bytes"));
  f.sizes = {1, std::int64_t(1) << 40, 8, 64, 1, 16};
  f.kernel = ssd::Kernel::chunked;
  f.chunk_size = std::int64_t(1) << 30;
  CHECK_THAT(ssd::validate(f), Catch::Contains("version 2's blocks M"));
}

TEST_CASE("a forward's saved: its size, and refused where version 3 would not fill or read it") {
  alignas(256) static unsigned char saved[512];
  const ch10::Shape shape{2, 100, 3, 8, 1, 16};  // two chunks of 64 a row
  ssd::ForwardParams f = ch10::sizes_only(shape, ssd::DataType::bfloat16, ssd::Kernel::fused);
  // u (2·100·3·8 bf16, 9,600 bytes, to 9,728 on a 256-byte boundary), then the entering states
  // (2·3 rows, 2 chunks, 8 × 16 bf16: 3,072 bytes); fp32 doubles both (19,200 is whole already).
  CHECK(ssd::saved_bytes(f) == 9728 + 3072);
  f.input_type = ssd::DataType::float32;
  CHECK(ssd::saved_bytes(f) == 19200 + 6144);

  f.saved = saved;
  CHECK(ssd::validate(f).empty());
  f.saved = saved + 16;
  CHECK_THAT(ssd::validate(f), Catch::Contains("256-byte boundary"));
  f.saved = saved;
  f.kernel = ssd::Kernel::recurrence;
  CHECK_THAT(ssd::validate(f), Catch::Contains("saved is version 3's"));
  f.kernel = ssd::Kernel::automatic;  // fp32 past 128 states: version 3 does not take it
  f.sizes.dstate = 200;
  CHECK_THAT(ssd::validate(f), Catch::Contains("version 3 does not take this call"));
  CHECK_THROWS_WITH(ssd::saved_bytes(f), Catch::Contains("ssd::saved_bytes: "));

  // A deterministic backward is version 1's, which does not read saved.
  f.sizes.dstate = 16;
  ssd::BackwardParams b = ch10::sizes_only_backward(shape, ssd::DataType::float32, ssd::Kernel::fused);
  b.forward = f;
  b.deterministic = true;
  CHECK_THAT(ssd::validate(b), Catch::Contains("saved is read by version 3's backward alone"));
  b.deterministic = false;
  CHECK(ssd::validate(b).empty());
}

TEST_CASE("an output that shares a byte with another tensor of its call is refused, in place too") {
  const ch10::Shape shape{2, 100, 3, 8, 1, 16};  // x: 4,800 bf16, 9,600 bytes
  ssd::ForwardParams f = ch10::sizes_only(shape, ssd::DataType::bfloat16, ssd::Kernel::fused);
  REQUIRE(ssd::validate(f).empty());
  const auto* x = static_cast<const unsigned char*>(f.x);
  f.y = const_cast<unsigned char*>(x);  // in place
  CHECK(ssd::validate(f) ==
        "y overlaps x: an output may share no byte with another tensor of the call (not even in place)");
  CHECK_THROWS_WITH(ssd::forward(f), "ssd::forward: " + ssd::validate(f));
  f.y = const_cast<unsigned char*>(x + 9600 - 2);  // x's last element
  CHECK_THAT(ssd::validate(f), Catch::StartsWith("y overlaps x"));
  f.y = const_cast<unsigned char*>(x + 9600);  // just past it
  CHECK(ssd::validate(f).empty());
  // Outputs against each other: the final states (2·3·8·16 floats) laid over y's first bytes.
  f.final_states = reinterpret_cast<float*>(static_cast<unsigned char*>(f.y) + 9600 - 4);
  CHECK_THAT(ssd::validate(f), Catch::StartsWith("final_states overlaps y"));
  f.final_states = nullptr;

  ssd::BackwardParams b = ch10::sizes_only_backward(shape, ssd::DataType::bfloat16, ssd::Kernel::fused);
  REQUIRE(ssd::validate(b).empty());
  b.dx = const_cast<void*>(b.dy);
  CHECK_THAT(ssd::validate(b), Catch::StartsWith("dx overlaps dy"));
  CHECK_THROWS_WITH(ssd::backward(b), Catch::StartsWith("ssd::backward: dx overlaps dy"));
  b.dx = b.forward.y;  // the backward does not read the forward's y: dx may reuse it
  CHECK(ssd::validate(b).empty());
  b.dB = static_cast<float*>(const_cast<void*>(b.forward.B));
  CHECK_THAT(ssd::validate(b), Catch::StartsWith("dB overlaps B"));
}
