// ssd::validate on random parameter sets, on the CPU: it never crashes, it answers in one line or
// not at all, forward() and backward() refuse exactly what it refuses (before anything touches a
// GPU), sizes whose tensors would pass 2^63 - 1 bytes are refused, and so is an output that
// overlaps another tensor of its call.
#include "device_ssd.hpp"
#include "ssd.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

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
  // (2·3 rows, 2 chunks, 8 × 16 bf16: 3,072 bytes), then what rounding them to 16 bits left, as
  // the walk's lanes hold it: 64 channels × a tile of 64 states in bf16 for each row's one block of
  // channels and chunk (12 × 8,192 bytes). fp32 doubles the first two (19,200 is whole already) and
  // has no remainders, where version 3 takes fp32: a block with its pairs' 148,736 bytes (Hopper,
  // the A100; no GPU).
  CHECK(ssd::saved_bytes(f) == 9728 + 3072 + 12 * 8192);
  ssd::ForwardParams fp32 = f;
  fp32.input_type = ssd::DataType::float32;
  if (ssd::validate(fp32).empty()) CHECK(ssd::saved_bytes(fp32) == 19200 + 6144);

  f.saved = saved;
  CHECK(ssd::validate(f).empty());
  f.saved = saved + 16;
  CHECK_THAT(ssd::validate(f), Catch::Contains("256-byte boundary"));
  f.saved = saved;
  f.kernel = ssd::Kernel::recurrence;
  CHECK_THAT(ssd::validate(f), Catch::Contains("saved is version 3's"));
  fp32.saved = saved, fp32.kernel = ssd::Kernel::automatic;  // fp32 past 128 states: version 3 does not take it
  fp32.sizes.dstate = 200;
  CHECK_THAT(ssd::validate(fp32), Catch::Contains("version 3 does not take this call"));
  CHECK_THROWS_WITH(ssd::saved_bytes(fp32), Catch::Contains("ssd::saved_bytes: "));

  // A deterministic backward is version 1's, which does not read saved; so is version 3's elsewhere
  // where a block cannot have its backward's 103,684 bytes (Ada, most Ampere cards).
  f.kernel = ssd::Kernel::automatic;
  ssd::BackwardParams b = ch10::sizes_only_backward(shape, ssd::DataType::bfloat16, ssd::Kernel::automatic);
  b.forward = f;
  b.deterministic = true;
  CHECK_THAT(ssd::validate(b), Catch::Contains("saved is read by version 3's backward alone"));
  b.deterministic = false;
  if (ch10::gpu_backward_refusal(shape, ssd::DataType::bfloat16, ssd::Kernel::fused).empty())
    CHECK(ssd::validate(b).empty());
  else
    CHECK_THAT(ssd::validate(b), Catch::Contains("saved is read by version 3's backward alone"));
}

TEST_CASE("an output that shares a byte with another tensor of its call is refused, in place too") {
  const ch10::Shape shape{2, 100, 3, 8, 1, 16};  // x: 4,800 bf16, 9,600 bytes
  ssd::ForwardParams f = ch10::sizes_only(shape, ssd::DataType::bfloat16, ssd::Kernel::automatic);
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
  // Outputs against each other: the final states (2·3·8·16 floats) laid over y's last element.
  f.final_states = reinterpret_cast<float*>(static_cast<unsigned char*>(f.y) + 9600 - 4);
  CHECK_THAT(ssd::validate(f), Catch::StartsWith("final_states overlaps y"));
  f.final_states = nullptr;

  ssd::BackwardParams b = ch10::sizes_only_backward(shape, ssd::DataType::bfloat16, ssd::Kernel::automatic);
  REQUIRE(ssd::validate(b).empty());
  b.dx = const_cast<void*>(b.dy);
  CHECK_THAT(ssd::validate(b), Catch::StartsWith("dx overlaps dy"));
  CHECK_THROWS_WITH(ssd::backward(b), Catch::StartsWith("ssd::backward: dx overlaps dy"));
  b.dx = b.forward.y;  // the backward does not read the forward's y: dx may reuse it
  CHECK(ssd::validate(b).empty());
  b.dB = static_cast<float*>(const_cast<void*>(b.forward.B));
  CHECK_THAT(ssd::validate(b), Catch::StartsWith("dB overlaps B"));
}

namespace {

// A tensor of a call laid at a random place in a small stretch of addresses (never read), with the
// bytes ssd.hpp's layouts give it: what the fuzz below holds the library's verdict against.
struct Placed {
  std::string name;
  std::uintptr_t bytes, begin = 0;
  bool output;
  std::uintptr_t end() const { return begin + bytes; }
};

bool meet(const Placed& a, const Placed& b) { return a.begin < b.end() && b.begin < a.end(); }

// Whether some output meets another tensor; and, where `refusal` names "a overlaps b:", whether a is
// an output and the two meet.
bool any_overlap(const std::vector<Placed>& all) {
  for (const Placed& a : all)
    for (const Placed& b : all)
      if (&a != &b && a.output && meet(a, b)) return true;
  return false;
}
bool names_an_overlap(const std::string& refusal, const std::vector<Placed>& all) {
  const std::size_t at = refusal.find(" overlaps "), colon = refusal.find(':');
  if (at == std::string::npos || colon == std::string::npos || colon < at) return false;
  const std::string first = refusal.substr(0, at), second = refusal.substr(at + 10, colon - at - 10);
  const auto named = [&](const std::string& name) {
    return std::find_if(all.begin(), all.end(), [&](const Placed& p) { return p.name == name; });
  };
  const auto a = named(first), b = named(second);
  return a != all.end() && b != all.end() && a->output && meet(*a, *b);
}

}  // namespace

TEST_CASE("overlap on random layouts: refused exactly where an output meets another tensor, the two named") {
  std::mt19937_64 rng(20261201);
  const std::uintptr_t base = std::uintptr_t(0x3) << 40;  // placeholders: never read
  int refused = 0, accepted = 0, with_saved_checked = 0;
  for (int trial = 0; trial < 4000; ++trial) {
    const int groups = 1 + int(rng() % 2);
    const ch10::Shape shape{1 + std::int64_t(rng() % 2),
                            1 + std::int64_t(rng() % 40),
                            groups * (1 + int(rng() % 2)),
                            1 + int(rng() % 8),
                            groups,
                            1 + int(rng() % 16)};
    const ssd::DataType type = rng() % 2 ? ssd::DataType::float32 : ssd::DataType::bfloat16;
    const std::int64_t typed = type == ssd::DataType::float32 ? 4 : 2;
    const std::int64_t sequence = shape.batch * shape.seqlen * shape.heads * shape.head_dim,
                       steps = shape.batch * shape.seqlen * shape.heads,
                       projection = shape.batch * shape.seqlen * shape.groups * shape.dstate,
                       states = shape.batch * shape.heads * shape.head_dim * shape.dstate;
    const bool backward = rng() % 2, with_z = rng() % 2, with_D = rng() % 2, D_per_channel = rng() % 2,
               with_bias = rng() % 2, with_initial = rng() % 2, with_final = rng() % 2,
               with_dinitial = with_initial && rng() % 2;
    // A third of the calls are version 3's with `saved`: the forward's output, the backward's input.
    // (Where version 3 takes the sizes: a GPU without its shared memory refuses them.)
    const bool with_saved = rng() % 3 == 0 && ssd::validate(ch10::sizes_only(shape, type, ssd::Kernel::fused)).empty();
    const ssd::Kernel kernel = with_saved ? ssd::Kernel::fused : ssd::Kernel::recurrence;
    const std::int64_t saved_bytes =
        with_saved ? std::int64_t(ssd::saved_bytes(ch10::sizes_only(shape, type, kernel))) : 0;
    // Every tensor at a random place in a stretch three times their bytes, so that some meet: 4-byte
    // places, 256-byte ones for saved (validate's rule).
    std::vector<Placed> all;
    std::int64_t total = 0;
    const auto want = [&](const char* name, bool present, std::int64_t bytes, bool output) {
      if (present) all.push_back({name, std::uintptr_t(bytes), 0, output}), total += bytes;
    };
    want("x", true, sequence * typed, false);
    want("dt", true, steps * typed, false);
    want("A", true, shape.heads * 4, false);
    want("B", true, projection * typed, false);
    want("C", true, projection * typed, false);
    want("D", with_D, (D_per_channel ? shape.heads * shape.head_dim : shape.heads) * 4, false);
    want("z", with_z, sequence * typed, false);
    want("dt_bias", with_bias, shape.heads * 4, false);
    want("initial_states", with_initial, states * 4, false);
    want("final_states", with_final, states * 4, true);  // the forward's, and version 1's backward writes them again
    want("saved", with_saved, saved_bytes, !backward);
    if (backward) {
      want("dy", true, sequence * typed, false);
      want("dx", true, sequence * typed, true);
      want("ddt", true, steps * typed, true);
      want("dA", true, shape.heads * 4, true);
      want("dB", true, projection * 4, true);
      want("dC", true, projection * 4, true);
      want("dD", with_D, (D_per_channel ? shape.heads * shape.head_dim : shape.heads) * 4, true);
      want("dz", with_z, sequence * typed, true);
      want("ddt_bias", with_bias, shape.heads * 4, true);
      want("dinitial_states", with_dinitial, states * 4, true);
    } else {
      want("y", true, sequence * typed, true);
    }
    const std::uintptr_t stretch = std::uintptr_t(3 * total);
    for (Placed& p : all) {
      const std::uintptr_t place = p.name == "saved" ? 256 : 4;
      p.begin = base + place * (rng() % (stretch / place + 1));
    }
    // The call with its tensors where `place` puts the one named.
    const auto validate = [&](const auto& place) {
      const auto at = [&](const char* name) -> void* {
        for (std::size_t k = 0; k < all.size(); ++k)
          if (all[k].name == name) return place(k);
        return nullptr;
      };
      ssd::ForwardParams f = ch10::sizes_only(shape, type, kernel);
      f.x = at("x"), f.dt = at("dt"), f.A = static_cast<const float*>(at("A"));
      f.B = at("B"), f.C = at("C"), f.D = static_cast<const float*>(at("D")), f.D_per_channel = D_per_channel;
      f.z = at("z"), f.dt_bias = static_cast<const float*>(at("dt_bias"));
      f.initial_states = static_cast<const float*>(at("initial_states"));
      f.final_states = static_cast<float*>(at("final_states"));
      f.saved = at("saved");
      if (!backward) {
        f.y = at("y");
        return ssd::validate(f);
      }
      // The backward does not read the forward's y: it keeps sizes_only's, far from the stretch.
      ssd::BackwardParams b = ch10::sizes_only_backward(shape, type, kernel);
      b.forward = f;
      b.dy = at("dy"), b.dx = at("dx"), b.ddt = at("ddt"), b.dA = static_cast<float*>(at("dA"));
      b.dB = static_cast<float*>(at("dB")), b.dC = static_cast<float*>(at("dC")), b.dD = static_cast<float*>(at("dD"));
      b.dz = at("dz"), b.ddt_bias = static_cast<float*>(at("ddt_bias"));
      b.dinitial_states = static_cast<float*>(at("dinitial_states"));
      return ssd::validate(b);
    };
    // Where the call is refused with its tensors apart (version 3 on a GPU without its shared
    // memory), overlap is not what decides: such a call is left out.
    const std::string apart =
        validate([&](std::size_t k) { return reinterpret_cast<void*>((std::uintptr_t(0x200) + k) << 40); });
    if (!apart.empty()) continue;
    const std::string refusal = validate([&](std::size_t k) { return reinterpret_cast<void*>(all[k].begin); });
    INFO("trial " << trial << (backward ? ", backward: " : ", forward: ") << refusal);
    CHECK(refusal.empty() != any_overlap(all));
    if (!refusal.empty()) CHECK(names_an_overlap(refusal, all));
    ++(refusal.empty() ? accepted : refused);
    with_saved_checked += with_saved;
  }
  CHECK(refused > 500);
  CHECK(accepted > 500);
  // Version 3 takes 16-bit inputs at up to 128 states on every GPU since sm_80 (and without one).
  if (ssd::validate(ch10::sizes_only({1, 64, 1, 64, 1, 16}, ssd::DataType::bfloat16, ssd::Kernel::fused)).empty())
    CHECK(with_saved_checked > 300);
}
