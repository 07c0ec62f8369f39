// validate() against adversarial parameter sets: seeded random calls with sizes 0, negative, 1 and
// huge, negative and huge strides, null and misaligned pointers, mismatched or unknown types,
// unknown kernel numbers, groups that do not divide dim. For every set:
//   - validate() returns normally, with "" or one line;
//   - a refused set makes forward(), backward() and plan_of() throw Error with that same line, so
//     they stopped at the check, before any CUDA call (the one way a line from the driver can come
//     back is validate()'s own question to it, repeated word for word);
//   - an accepted set has every derived count representable: the elements its strides reach, the
//     chunk states, the kept states and the workspace bound, counted here in 128 bits;
//   - the size queries return normally (0 for refused sizes), whatever they are given.
// A failing set prints its seed and its parameters; rerun one with SELECTIVE_SCAN_FUZZ_SEED=<seed>.
#include "selective_scan.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

using namespace selective_scan;

namespace {

__extension__ using Wide = __int128;  // exact for every product of the sizes below
constexpr Wide kMaxBytes = std::numeric_limits<std::int64_t>::max();
constexpr std::uint64_t kFirstSeed = 4300000;
constexpr int kCases = 60000;

// Addresses that are never dereferenced: a refused call stops at its check, an accepted one is
// never run. Each on 256 bytes, as cudaMalloc's are.
template <class T>
T* fake_address(int slot) {
  return reinterpret_cast<T*>(std::uintptr_t(0x10000000) + std::uintptr_t(slot) * 0x1000);
}

struct Call {
  ForwardParams f;
  BackwardParams b;  // b.forward is f, set just before the checks
};

std::int64_t element_bytes(DataType t) { return t == DataType::float32 ? 4 : 2; }

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : rng_(seed) {}

  Call make() {
    Call c;
    valid_shape(c);
    const int mutations = pick<int>({0, 0, 1, 1, 1, 2, 3});
    for (int m = 0; m < mutations; ++m) mutate(c);
    c.b.forward = c.f;
    return c;
  }

 private:
  std::mt19937_64 rng_;

  template <class T>
  T pick(std::initializer_list<T> values) {
    return values.begin()[std::uniform_int_distribution<std::size_t>(0, values.size() - 1)(rng_)];
  }
  bool coin(double p = 0.5) { return std::bernoulli_distribution(p)(rng_); }
  // Log-uniform in [1, 2^max_bits]: mostly small sizes, some near and past what fits.
  std::int64_t size(int max_bits) {
    const int bits = std::uniform_int_distribution<int>(0, max_bits)(rng_);
    return std::uniform_int_distribution<std::int64_t>(std::int64_t(1) << bits >> 1, (std::int64_t(1) << bits))(rng_);
  }
  std::int64_t adversarial_size() {
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    return pick<std::int64_t>({0, -1, 1, 2, -(std::int64_t(1) << 40), std::int64_t(1) << 31, std::int64_t(1) << 32,
                               std::int64_t(1) << 33, std::int64_t(1) << 62, kMax, kMax - 1, -kMax - 1, size(62)});
  }
  // A stride that fits the tensor when the product allows it, else a random large one.
  std::int64_t dense(std::initializer_list<std::int64_t> extents) {
    Wide product = 1;
    for (std::int64_t e : extents) product *= e;
    return product <= kMaxBytes && coin(0.9) ? std::int64_t(product) : size(62);
  }

  void valid_shape(Call& c) {
    Sizes& s = c.f.sizes;
    s.batch = size(coin(0.8) ? 4 : 34);
    s.dim = size(coin(0.8) ? 12 : 36);
    s.seqlen = size(coin(0.8) ? 14 : 40);
    s.dstate = int(size(8));
    const std::int64_t divisors[] = {1, 2, 4, 8, 3};
    s.groups = 1;
    for (std::int64_t g : divisors)
      if (s.dim % g == 0 && coin(0.3)) s.groups = int(g);
    c.f.input_type = pick({DataType::float32, DataType::float16, DataType::bfloat16});
    c.f.flags.complex = coin(0.25);
    c.f.flags.delta_softplus = coin();
    c.f.kernel =
        pick({Kernel::automatic, Kernel::naive, Kernel::blocked, Kernel::lanes, Kernel::registers, Kernel::ring});
    const DataType t = c.f.input_type;
    const std::int64_t pair = c.f.flags.complex ? 2 : 1;
    int slot = 0;
    const auto sequence = [&](auto& tensor) {
      tensor.data = fake_address<std::remove_pointer_t<decltype(tensor.data)>>(++slot);
      tensor.type = t;
      tensor.dim_stride = dense({s.seqlen});
      tensor.batch_stride = dense({s.dim, s.seqlen});
    };
    sequence(c.f.u), sequence(c.f.delta), sequence(c.f.out);
    if (coin(0.3)) sequence(c.f.z), sequence(c.f.out_z);
    c.f.A = fake_address<const float>(++slot);
    c.f.A_dim_stride = dense({s.dstate});
    for (StateProjection<const void*>* p : {&c.f.B, &c.f.C}) {
      p->variable = coin(0.8);
      p->data = fake_address<const void>(++slot);
      p->type = p->variable ? t : DataType::float32;
      p->state_stride = dense({s.seqlen, pair});
      p->group_stride = dense({s.dstate, s.seqlen, pair});
      p->batch_stride = dense({s.groups, s.dstate, s.seqlen, pair});
      p->dim_stride = dense({s.dstate});
    }
    if (coin()) c.f.D = fake_address<const float>(++slot);
    if (coin()) c.f.delta_bias = fake_address<const float>(++slot);
    if (coin(0.3)) c.f.initial_state = fake_address<const float>(++slot);
    c.f.chunk_states = fake_address<float>(++slot);
    if (coin()) c.f.last_state = fake_address<float>(++slot);
    if (coin(0.2)) c.f.state_checkpoints = fake_address<float>(++slot);
    if (coin(0.3)) c.f.workspace = fake_address<void>(++slot);
    sequence(c.b.dout), sequence(c.b.du), sequence(c.b.ddelta);
    if (c.f.z.data) sequence(c.b.dz);
    c.b.deterministic = coin(0.3);
    c.b.dA = fake_address<float>(++slot), c.b.dB = fake_address<float>(++slot), c.b.dC = fake_address<float>(++slot);
    if (c.f.D) c.b.dD = fake_address<float>(++slot);
    if (c.f.delta_bias) c.b.ddelta_bias = fake_address<float>(++slot);
    if (c.f.initial_state && coin()) c.b.dinitial_state = fake_address<float>(++slot);
    c.b.workspace = fake_address<void>(++slot);
  }

  // Every input, output and gradient sequence tensor of the call.
  template <class Visit>
  static void sequences(Call& c, Visit visit) {
    visit(c.f.u), visit(c.f.delta), visit(c.f.z), visit(c.f.out), visit(c.f.out_z);
    visit(c.b.dout), visit(c.b.du), visit(c.b.ddelta), visit(c.b.dz);
  }
  // Calls `change` on every pointer field of the call, as an address.
  template <class Change>
  static void pointers(Call& c, Change change) {
    const auto at = [&](auto& p) {
      p = reinterpret_cast<std::remove_reference_t<decltype(p)>>(change(reinterpret_cast<std::uintptr_t>(p)));
    };
    sequences(c, [&](auto& t) { at(t.data); });
    at(c.f.A), at(c.f.B.data), at(c.f.C.data), at(c.f.D), at(c.f.delta_bias), at(c.f.initial_state);
    at(c.f.chunk_states), at(c.f.last_state), at(c.f.state_checkpoints), at(c.f.workspace);
    at(c.b.dA), at(c.b.dB), at(c.b.dC), at(c.b.dD), at(c.b.ddelta_bias), at(c.b.dinitial_state), at(c.b.workspace);
  }
  static constexpr int kPointerFields = 26;
  // Changes one pointer field, chosen at random: `to` maps its address to the new one.
  template <class To>
  void change_one_pointer(Call& c, To to) {
    const int chosen = std::uniform_int_distribution<int>(0, kPointerFields - 1)(rng_);
    int field = 0;
    pointers(c, [&](std::uintptr_t address) { return field++ == chosen ? to(address) : address; });
  }

  void mutate(Call& c) {
    Sizes& s = c.f.sizes;
    switch (std::uniform_int_distribution<int>(0, 11)(rng_)) {
      case 0: (pick({&s.batch, &s.dim, &s.seqlen}))[0] = adversarial_size(); break;
      case 1:
        s.dstate = pick<int>({0, -1, 1, 256, 257, std::numeric_limits<int>::max(), std::numeric_limits<int>::min()});
        break;
      case 2: s.groups = pick<int>({0, -1, 3, 5, 7, 1 << 20, std::numeric_limits<int>::max()}); break;
      case 3: {  // a stride negative or huge
        std::int64_t* strides[] = {&c.f.u.batch_stride,  &c.f.delta.dim_stride,  &c.f.out.batch_stride,
                                   &c.f.B.batch_stride,  &c.f.C.state_stride,    &c.f.B.group_stride,
                                   &c.f.C.dim_stride,    &c.f.A_dim_stride,      &c.b.dout.dim_stride,
                                   &c.b.du.batch_stride, &c.b.ddelta.dim_stride, &c.f.z.batch_stride};
        *strides[std::uniform_int_distribution<int>(0, 11)(rng_)] = adversarial_size();
        break;
      }
      case 4: change_one_pointer(c, [](std::uintptr_t) { return std::uintptr_t(0); }); break;
      case 5: {  // misaligned
        const std::uintptr_t by = pick<std::uintptr_t>({1, 2, 3, 4, 8});
        change_one_pointer(c, [by](std::uintptr_t address) { return address ? address + by : address; });
        break;
      }
      case 6: {  // a tensor of another type
        const DataType other = pick({DataType::float32, DataType::float16, DataType::bfloat16, DataType(3)});
        pick({&c.f.u.type, &c.f.delta.type, &c.f.out.type, &c.f.B.type, &c.f.C.type, &c.b.dout.type, &c.b.du.type})[0] =
            other;
        break;
      }
      case 7: c.f.input_type = pick({DataType(3), DataType(-1), DataType(255)}); break;
      case 8: c.f.kernel = Kernel(pick<int>({-1, 6, 7, 100, std::numeric_limits<int>::min()})); break;
      case 9: {  // B or C switched between variable and constant without its layout following
        StateProjection<const void*>& p = coin() ? c.f.B : c.f.C;
        p.variable = !p.variable;
        break;
      }
      case 10:  // optional tensors given without their partners
        if (coin()) c.f.out_z = c.f.out;
        if (coin()) c.b.dz = c.b.du;
        if (coin()) c.f.D = fake_address<const float>(90);
        if (coin()) c.b.dinitial_state = fake_address<float>(91);
        break;
      case 11:  // the sizes of the issue that first found the overflow, and their neighbours
        s.batch = std::int64_t(1) << pick({31, 30, 20}), s.dim = std::int64_t(1) << pick({33, 20, 10});
        s.seqlen = std::int64_t(1) << pick({32, 40, 12});
        break;
    }
  }
};

std::string describe(const Call& c) {
  const ForwardParams& f = c.f;
  const BackwardParams& b = c.b;
  std::ostringstream o;
  const auto seq = [&](const char* name, const auto& t) {
    o << "  " << name << " " << t.data << " type " << int(t.type) << " strides " << t.batch_stride << ", "
      << t.dim_stride << "\n";
  };
  const auto projection = [&](const char* name, const StateProjection<const void*>& p) {
    o << "  " << name << (p.variable ? " variable " : " constant ") << p.data << " type " << int(p.type) << " strides "
      << p.batch_stride << ", " << p.group_stride << ", " << p.state_stride << ", " << p.dim_stride << "\n";
  };
  o << "  sizes batch " << f.sizes.batch << " dim " << f.sizes.dim << " seqlen " << f.sizes.seqlen << " dstate "
    << f.sizes.dstate << " groups " << f.sizes.groups << "; input_type " << int(f.input_type) << " complex "
    << f.flags.complex << " kernel " << int(f.kernel) << "\n";
  seq("u", f.u), seq("delta", f.delta), seq("z", f.z), seq("out", f.out), seq("out_z", f.out_z);
  o << "  A " << f.A << " stride " << f.A_dim_stride << "; D " << f.D << " delta_bias " << f.delta_bias
    << " initial_state " << f.initial_state << "\n";
  projection("B", f.B), projection("C", f.C);
  o << "  chunk_states " << f.chunk_states << " last_state " << f.last_state << " state_checkpoints "
    << f.state_checkpoints << " forward workspace " << f.workspace << "\n";
  seq("dout", b.dout), seq("du", b.du), seq("ddelta", b.ddelta), seq("dz", b.dz);
  o << "  dA " << b.dA << " dB " << b.dB << " dC " << b.dC << " dD " << b.dD << " ddelta_bias " << b.ddelta_bias
    << " dinitial_state " << b.dinitial_state << " workspace " << b.workspace << " deterministic " << b.deterministic;
  return o.str();
}

// The counts an accepted call derives, in 128 bits: each must be at most 2^63 - 1 bytes.
std::vector<std::pair<std::string, Wide>> derived_bytes(const ForwardParams& f, const BackwardParams& b) {
  const Sizes& s = f.sizes;
  const Wide pair = f.flags.complex ? 2 : 1, bd = Wide(s.batch) * s.dim;
  const Wide seqlen = s.seqlen, chunks = (seqlen + kChunkLength - 1) / kChunkLength;
  std::vector<std::pair<std::string, Wide>> counts;
  const auto sequence = [&](const char* name, const auto& t) {
    if (t.data)
      counts.emplace_back(
          name, (Wide(s.batch - 1) * t.batch_stride + Wide(s.dim - 1) * t.dim_stride + seqlen) * element_bytes(t.type));
  };
  sequence("u", f.u), sequence("delta", f.delta), sequence("z", f.z), sequence("out", f.out);
  sequence("out_z", f.out_z), sequence("dout", b.dout), sequence("du", b.du), sequence("ddelta", b.ddelta);
  sequence("dz", b.dz);
  counts.emplace_back("A", (Wide(s.dim - 1) * f.A_dim_stride + s.dstate) * 4 * pair);
  for (const auto* p : {&f.B, &f.C}) {
    const Wide reach = p->variable ? (Wide(s.batch - 1) * p->batch_stride + Wide(s.groups - 1) * p->group_stride +
                                      Wide(s.dstate - 1) * p->state_stride + seqlen * pair) *
                                         element_bytes(p->type)
                                   : (Wide(s.dim - 1) * p->dim_stride + s.dstate) * 4 * pair;
    counts.emplace_back(p == &f.B ? "B" : "C", reach);
  }
  counts.emplace_back("chunk_states", bd * chunks * s.dstate * pair * 4);
  counts.emplace_back("state_checkpoints", bd * ((seqlen + kStretch - 1) / kStretch) * s.dstate * 4);
  if (f.B.variable || f.C.variable)  // groups count only there
    counts.emplace_back("variable dB", Wide(s.batch) * s.groups * s.dstate * seqlen * pair * 4);
  // The bound sizes_fit.cpp states for the largest workspace: 64 bytes a channel, state + 1 and step.
  counts.emplace_back("workspace bound", bd * (s.dstate + 1) * (seqlen > 64 ? seqlen : 64) * 64);
  return counts;
}

struct Findings {
  std::vector<std::string> lines;
  void add(std::uint64_t seed, const Call& c, const std::string& what) {
    if (lines.size() < 5) lines.push_back("seed " + std::to_string(seed) + ": " + what + "\n" + describe(c));
  }
};

// The refusal's line, from an entry point that must throw it.
template <class Entry>
void expect_refusal(const char* entry, const std::string& line, Entry call, std::uint64_t seed, const Call& c,
                    Findings& findings) {
  const std::string prefixed = std::string("selective_scan::") + entry + ": " + line;
  try {
    call();
    findings.add(seed, c, std::string(entry) + "() returned for a refused call: " + line);
  } catch (const Error& e) {
    const bool from_the_driver = line.rfind("selective_scan: ", 0) == 0 && e.what() == line;
    if (e.what() != prefixed && !from_the_driver)
      findings.add(seed, c, std::string(entry) + "() threw '" + e.what() + "' where validate() said '" + line + "'");
  } catch (const std::exception& e) {
    findings.add(seed, c, std::string(entry) + "() threw something other than Error: " + e.what());
  }
}

// Whether the sizes alone are ones validate() must take: in range, and (counted here in 128
// bits) their chunk states, kept states and workspace bound within 2^63 - 1 bytes.
bool sizes_fit(const Sizes& s, bool is_complex) {
  if (s.batch < 1 || s.dim < 1 || s.seqlen < 1 || s.dstate < 1 || s.dstate > kMaxStates || s.groups < 1) return false;
  const Wide bd = Wide(s.batch) * s.dim, seqlen = s.seqlen;
  if (bd > kMaxBytes || seqlen * (s.dstate + 1) > kMaxBytes) return false;  // and so no product below wraps
  const Wide pair = is_complex ? 2 : 1;
  const Wide counts[] = {bd * ((seqlen + kChunkLength - 1) / kChunkLength) * s.dstate * pair * 4,
                         bd * ((seqlen + kStretch - 1) / kStretch) * s.dstate * 4,
                         bd * (s.dstate + 1) * (seqlen > 64 ? seqlen : 64) * 64};
  for (const Wide count : counts)
    if (count > kMaxBytes) return false;
  return true;
}

// The size queries return normally whatever they are given: a value, 0 for refused sizes, or
// the driver's Error where the plan needs a device.
void check_size_queries(const Call& c, std::uint64_t seed, Findings& findings) {
  const ForwardParams& f = c.f;
  const Sizes& s = f.sizes;
  const bool fit = sizes_fit(s, f.flags.complex);
  const std::int64_t chunk_floats = chunk_states_floats(s, f.flags.complex);
  if (!fit && chunk_floats != 0) findings.add(seed, c, "chunk_states_floats() is not 0 for refused sizes");
  if (fit) {
    const Wide pair = c.f.flags.complex ? 2 : 1;
    const Wide expected =
        Wide(s.batch) * s.dim * ((Wide(s.seqlen) + kChunkLength - 1) / kChunkLength) * s.dstate * pair;
    if (chunk_floats != expected) findings.add(seed, c, "chunk_states_floats() differs from the product");
  }
  const bool known_type =
      f.input_type == DataType::float32 || f.input_type == DataType::float16 || f.input_type == DataType::bfloat16;
  const bool known_kernel = f.kernel == Kernel::automatic || version_of(f.kernel);
  const bool divides = !(f.B.variable || f.C.variable) || (s.groups >= 1 && s.dim % s.groups == 0);
  const bool sizes_valid = fit && known_type && known_kernel && divides;
  try {
    const std::int64_t kept = state_checkpoints_floats(c.f);
    const std::size_t forward_bytes = forward_workspace_bytes(c.f), backward_bytes = backward_workspace_bytes(c.b);
    if (!sizes_valid && (kept != 0 || forward_bytes != 0 || backward_bytes != 0))
      findings.add(seed, c, "a size query is not 0 for refused sizes");
    if (kept < 0 || Wide(forward_bytes) > kMaxBytes || Wide(backward_bytes) > kMaxBytes)
      findings.add(seed, c, "a size query returned a count past 2^63 - 1");
  } catch (const Error&) {  // the plan asked the driver, and there is no device
  }
}

}  // namespace

TEST_CASE("validate() refuses every adversarial parameter set it cannot take, and forward() and backward() agree") {
  std::uint64_t first = kFirstSeed;
  int cases = kCases;
  if (const char* seed = std::getenv("SELECTIVE_SCAN_FUZZ_SEED")) first = std::strtoull(seed, nullptr, 10), cases = 1;
  Findings findings;
  int refused = 0, accepted = 0, refused_for_size = 0;
  for (int i = 0; i < cases; ++i) {
    const std::uint64_t seed = first + std::uint64_t(i);
    const Call c = Generator(seed).make();
    std::string forward_line, backward_line;
    try {
      forward_line = validate(c.f);
      backward_line = validate(c.b);
    } catch (const std::exception& e) {
      findings.add(seed, c, std::string("validate() threw: ") + e.what());
      continue;
    }
    for (const std::string* line : {&forward_line, &backward_line})
      if (line->find('\n') != std::string::npos) findings.add(seed, c, "a refusal of more than one line: " + *line);
    if (!forward_line.empty() && backward_line.empty())
      findings.add(seed, c, "the backward accepted a forward that validate() refuses: " + forward_line);
    if (!backward_line.empty()) {
      ++refused;
      if (backward_line.find("more than 2^63 - 1 bytes") != std::string::npos) ++refused_for_size;
      expect_refusal(
          "backward", backward_line, [&] { backward(c.b); }, seed, c, findings);
    } else {
      ++accepted;
      for (const auto& [name, bytes] : derived_bytes(c.f, c.b))
        if (bytes > kMaxBytes) findings.add(seed, c, "accepted, but " + name + " takes more than 2^63 - 1 bytes");
    }
    if (!forward_line.empty()) {
      expect_refusal(
          "forward", forward_line, [&] { forward(c.f); }, seed, c, findings);
      expect_refusal(
          "plan_of", forward_line, [&] { plan_of(c.f); }, seed, c, findings);
    }
    // Refused for its sizes' products exactly where they do not fit (counted here in 128 bits).
    const bool said_too_large = forward_line.find("would take more than 2^63 - 1 bytes") != std::string::npos;
    const bool in_range = c.f.sizes.batch >= 1 && c.f.sizes.dim >= 1 && c.f.sizes.seqlen >= 1 &&
                          c.f.sizes.dstate >= 1 && c.f.sizes.dstate <= kMaxStates && c.f.sizes.groups >= 1;
    if (said_too_large && sizes_fit(c.f.sizes, c.f.flags.complex))
      findings.add(seed, c, "refused as too large, but its counts fit: " + forward_line);
    if (in_range && !sizes_fit(c.f.sizes, c.f.flags.complex) && forward_line.empty())
      findings.add(seed, c, "accepted, but its sizes' counts do not fit");
    check_size_queries(c, seed, findings);
  }
  std::printf("validate() fuzz: %d sets from seed %llu: %d refused (%d for counts past 2^63 - 1 bytes), %d accepted\n",
              cases, static_cast<unsigned long long>(first), refused, refused_for_size, accepted);
  std::string report;
  for (const std::string& line : findings.lines) report += line + "\n";
  INFO(report);
  CHECK(findings.lines.empty());
  // A generator that produced nothing but refusals, or nothing but acceptances, would test little.
  if (cases > 1) {
    CHECK(accepted > cases / 20);
    CHECK(refused_for_size > cases / 100);
  }
}

TEST_CASE("sizes whose chunk states do not fit are refused with one line naming the product") {
  const std::int64_t batch = std::int64_t(1) << 31, dim = std::int64_t(1) << 33, seqlen = std::int64_t(1) << 32;
  ForwardParams f;
  f.sizes = {batch, dim, seqlen, 16, 1};
  void* p = fake_address<void>(1);
  f.u = {p, DataType::float32, 0, 0};  // zero strides: only the sizes' own products are too large
  f.delta = f.u;
  f.out = {p, DataType::float32, 0, 0};
  f.A = static_cast<const float*>(p);
  f.B = {true, p, DataType::float32, 0, 0, 0, 0};
  f.C = f.B;
  f.chunk_states = static_cast<float*>(p);
  const std::string line = validate(f);
  CHECK(line ==
        "chunk_states would take more than 2^63 - 1 bytes: batch * dim * ceil(seqlen / 2048) * dstate = "
        "2147483648 * 8589934592 * 2097152 * 16 floats");
  CHECK_THROWS_WITH(forward(f), "selective_scan::forward: " + line);
  CHECK(chunk_states_floats(f.sizes, false) == 0);
  CHECK(state_checkpoints_floats(f) == 0);
  CHECK(forward_workspace_bytes(f) == 0);
}
