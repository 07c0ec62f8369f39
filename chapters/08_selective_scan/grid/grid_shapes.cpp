#include "grid_shapes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace ch08::grid {

using selective_scan::DataType;

std::string Shape::dtype() const {
  return type == DataType::float32 ? "fp32" : type == DataType::bfloat16 ? "bf16" : "fp16";
}

std::string Shape::label() const {
  return fmt::format("{} ({}, {}, {}, {}) g{}{}", dtype(), batch, dim, seqlen, dstate, groups,
                     z && D && delta_bias ? "" : " no z/D/bias");
}

std::string Shape::official_spec() const { return ch08::official_spec(dtype(), batch, dim, seqlen, dstate, groups); }

DataType type_named(const std::string& name) {
  if (name == "fp32") return DataType::float32;
  if (name == "bf16") return DataType::bfloat16;
  if (name == "fp16") return DataType::float16;
  throw std::invalid_argument("'" + name + "' is not a type (fp32, bf16 or fp16)");
}

namespace {

Shape make(DataType type, std::int64_t batch, std::int64_t dim, std::int64_t seqlen, int dstate, int groups = 1) {
  Shape s;
  s.type = type, s.batch = batch, s.dim = dim, s.seqlen = seqlen, s.dstate = dstate, s.groups = groups;
  return s;
}

constexpr DataType kTypes[] = {DataType::float32, DataType::bfloat16, DataType::float16};

// The official kernel's six timed shapes (official_baseline.md).
std::vector<Shape> anchors() {
  std::vector<Shape> shapes;
  for (auto [b, d, l] : {std::tuple{8, 1536, 2048}, std::tuple{1, 5120, 8192}, std::tuple{16, 1536, 512}})
    for (DataType t : kTypes) shapes.push_back(make(t, b, d, l, 16));
  return shapes;
}

// The heat map: channels (batch x dim) across seqlen, Mamba's 16 states. Shapes past 2^29
// sequence elements are left out (their tensors alone would pass 20 GB in fp32).
const std::pair<std::int64_t, std::int64_t> kChannelRows[] = {{1, 4},    {2, 64},   {1, 256},  {4, 256},
                                                              {2, 1536}, {8, 1536}, {1, 5120}, {4, 5120}};
const std::int64_t kSeqlens[] = {33, 256, 2048, 8192, 32768};

std::vector<Shape> heat_map() {
  std::vector<Shape> shapes;
  for (DataType t : kTypes)
    for (auto [batch, dim] : kChannelRows)
      for (std::int64_t seqlen : kSeqlens)
        if (batch * dim * seqlen <= (std::int64_t(1) << 29)) shapes.push_back(make(t, batch, dim, seqlen, 16));
  return shapes;
}

// Where version 5 may cut sequences into time segments: the heat map's rows of fewer channels
// than fill the device, from 256 steps, and the other axes' small shape.
std::vector<Shape> cut() {
  std::vector<Shape> shapes;
  for (DataType t : kTypes) {
    for (auto [batch, dim] : {std::pair{2, 64}, std::pair{1, 256}, std::pair{4, 256}, std::pair{2, 1536}})
      for (std::int64_t seqlen : {256, 2048, 8192, 32768}) shapes.push_back(make(t, batch, dim, seqlen, 16));
    shapes.push_back(make(t, 1, 256, 4096, 16));
  }
  return shapes;
}

// The other axes, each changed from a large and a small shape.
std::vector<Shape> other_axes() {
  std::vector<Shape> shapes;
  for (DataType t : kTypes) {
    for (int dstate : {1, 4, 8, 32, 64, 128, 256}) {
      shapes.push_back(make(t, 8, 1536, 2048, dstate));
      shapes.push_back(make(t, 1, 256, 4096, dstate));
    }
    for (int groups : {2, 4}) {
      shapes.push_back(make(t, 8, 1536, 2048, 16, groups));
      shapes.push_back(make(t, 1, 256, 4096, 16, groups));
    }
    for (Shape s : {make(t, 8, 1536, 2048, 16), make(t, 1, 256, 4096, 16), make(t, 2, 4, 512, 8)}) {
      s.z = s.D = s.delta_bias = false;
      shapes.push_back(s);
    }
    shapes.push_back(make(t, 2, 4, 512, 8));  // the official test suite's shape
    shapes.push_back(make(t, 16, 5120, 1024, 16));
    shapes.push_back(make(t, 3, 100, 1000, 16));  // nothing a power of two
  }
  return shapes;
}

// Few states: the other axes' shapes at 1 to 16 states.
std::vector<Shape> few_states() {
  std::vector<Shape> shapes;
  for (DataType t : kTypes)
    for (int dstate : {1, 2, 4, 8, 16}) {
      shapes.push_back(make(t, 8, 1536, 2048, dstate));
      shapes.push_back(make(t, 1, 256, 4096, dstate));
    }
  return shapes;
}

// Many states: the other axes' shapes from 32 to 256 states.
std::vector<Shape> many_states() {
  std::vector<Shape> shapes;
  for (DataType t : kTypes)
    for (int dstate : {32, 64, 128, 256}) {
      shapes.push_back(make(t, 8, 1536, 2048, dstate));
      shapes.push_back(make(t, 1, 256, 4096, dstate));
    }
  return shapes;
}

}  // namespace

std::vector<std::string> grid_names() {
  return {"anchors", "small", "cut", "states", "many_states", "heat", "axes", "full"};
}

Shape parse_shape(const std::string& spec) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument(
        fmt::format("--shape {}: {} (expected TYPE:BATCH,DIM,SEQLEN,DSTATE[,GROUPS], "
                    "e.g. bf16:2,1536,2048,16)",
                    spec, why));
  };
  const std::size_t colon = spec.find(':');
  if (colon == std::string::npos) throw bad("no type");
  const std::string type = spec.substr(0, colon);
  if (type != "fp32" && type != "bf16" && type != "fp16") throw bad("the type is fp32, bf16 or fp16");
  std::vector<std::int64_t> sizes;
  std::size_t at = colon + 1;
  while (at <= spec.size()) {
    const std::size_t comma = std::min(spec.find(',', at), spec.size());
    const std::string field = spec.substr(at, comma - at);
    std::size_t used = 0;
    std::int64_t value = 0;
    try {
      value = std::stoll(field, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (field.empty() || used != field.size() || value < 1) throw bad("'" + field + "' is not a positive integer");
    if (value > std::numeric_limits<std::int32_t>::max()) throw bad("'" + field + "' is past 2^31 - 1");
    sizes.push_back(value);
    at = comma + 1;
  }
  if (sizes.size() != 4 && sizes.size() != 5) throw bad("four or five sizes");
  if (sizes[3] > selective_scan::kMaxStates) throw bad(fmt::format("dstate is at most {}", selective_scan::kMaxStates));
  if (double(sizes[0]) * double(sizes[1]) * double(sizes[2]) > 0x1p40) throw bad("past 2^40 sequence elements");
  const int groups = sizes.size() == 5 ? int(sizes[4]) : 1;
  if (sizes[1] % groups != 0) throw bad("dim is not a multiple of groups");
  return make(type_named(type), sizes[0], sizes[1], sizes[2], int(sizes[3]), groups);
}

std::vector<Shape> grid_named(const std::string& name) {
  if (name == "anchors") return anchors();
  if (name == "small") {
    std::vector<Shape> shapes{make(DataType::float32, 2, 4, 512, 8), make(DataType::bfloat16, 1, 64, 300, 16),
                              make(DataType::float32, 1, 32, 5000, 64, 2)};
    shapes[1].z = false;
    return shapes;
  }
  if (name == "cut") return cut();
  if (name == "states") return few_states();
  if (name == "many_states") return many_states();
  if (name == "heat") return heat_map();
  if (name == "axes") return other_axes();
  std::vector<Shape> shapes = heat_map();
  const std::vector<Shape> more = other_axes();
  shapes.insert(shapes.end(), more.begin(), more.end());
  if (name == "full") return shapes;
  throw std::invalid_argument("unknown grid '" + name + "'");
}

}  // namespace ch08::grid
