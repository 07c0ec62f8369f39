#include "step_shape.hpp"

#include "official_times.hpp"

#include <fmt/format.h>

#include <limits>
#include <stdexcept>

namespace ch08::step_bench {
namespace {

using selective_scan::DataType;

// The fp64 reference holds the state a few times over on the host: 2^28 states are 2 GiB a copy.
constexpr std::int64_t kMostStates = std::int64_t(1) << 28;

std::size_t bytes_of(DataType type) { return type == DataType::float32 ? 4 : 2; }

// "1,5120,16" -> {1, 5120, 16}; `separator` ',' (an argument) or 'x' (a CSV's shape cell). Throws
// std::invalid_argument naming the field that is not a positive integer below 2^31.
std::vector<std::int64_t> sizes_of(const std::string& text, char separator) {
  std::vector<std::int64_t> sizes;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find(separator, at), text.size());
    const std::string field = text.substr(at, end - at);
    std::size_t used = 0;
    std::int64_t value = 0;
    try {
      value = std::stoll(field, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (field.empty() || used != field.size() || value < 1)
      throw std::invalid_argument(fmt::format("'{}' is not a positive integer", field));
    if (value > std::numeric_limits<std::int32_t>::max())
      throw std::invalid_argument(fmt::format("'{}' is past 2^31 - 1", field));
    sizes.push_back(value);
    at = end + 1;
  }
  return sizes;
}

// A shape of `sizes` (3: Mamba-1; 4 or 5: Mamba-2), the step's limits checked.
Shape shape_of(DataType type, const std::vector<std::int64_t>& sizes) {
  Shape s;
  s.type = type;
  if (sizes.size() == 3) {
    s.form = Form::mamba1;
    s.batch = sizes[0], s.head_dim = sizes[1], s.dstate = int(sizes[2]);
  } else if (sizes.size() == 4 || sizes.size() == 5) {
    s.form = Form::mamba2;
    s.batch = sizes[0], s.heads = sizes[1], s.head_dim = sizes[2], s.dstate = int(sizes[3]);
    s.groups = sizes.size() == 5 ? int(sizes[4]) : 1;
  } else {
    throw std::invalid_argument("three sizes (b,d,n: Mamba-1) or four or five (b,h,p,n[,g]: Mamba-2)");
  }
  if (s.dstate > selective_scan::kMaxStates)
    throw std::invalid_argument(fmt::format("dstate is at most {}", selective_scan::kMaxStates));
  if (s.heads % s.groups != 0) throw std::invalid_argument("heads is not a multiple of groups");
  if (double(s.batch) * double(s.heads) * double(s.head_dim) * double(s.dstate) > double(kMostStates))
    throw std::invalid_argument(
        "past 2^28 states (batch x heads x head_dim x dstate), the fp64 reference's share of host memory");
  return s;
}

// "fp32", "bf16" or "fp16" as the library's type.
DataType type_named(const std::string& name) {
  if (name != "fp32" && name != "bf16" && name != "fp16") throw std::invalid_argument("the type is fp32, bf16 or fp16");
  return name == "fp32" ? DataType::float32 : name == "bf16" ? DataType::bfloat16 : DataType::float16;
}

}  // namespace

std::string Shape::dtype() const {
  return type == DataType::float32 ? "fp32" : type == DataType::bfloat16 ? "bf16" : "fp16";
}

std::string Shape::official_spec() const {
  if (form == Form::mamba1) return fmt::format("{}:{},{},{}", dtype(), batch, head_dim, dstate);
  return fmt::format("{}:{},{},{},{}{}", dtype(), batch, heads, head_dim, dstate,
                     groups == 1 ? "" : fmt::format(",{}", groups));
}

std::string Shape::official_shape() const {
  std::string shape = official_spec().substr(official_spec().find(':') + 1);
  for (char& c : shape)
    if (c == ',') c = 'x';
  return shape;
}

std::string Shape::label() const {
  if (form == Form::mamba1) return fmt::format("{} Mamba-1 ({}, {}, {})", dtype(), batch, head_dim, dstate);
  return fmt::format("{} Mamba-2 ({}, {}x{}, {}){}", dtype(), batch, heads, head_dim, dstate,
                     groups == 1 ? "" : fmt::format(" g{}", groups));
}

double Shape::bytes_moved(DataType state_type) const {
  const double channels = double(batch * heads * head_dim), input = double(bytes_of(type));
  const double state = 2.0 * double(states()) * double(bytes_of(state_type));
  const double x_z_out = 3.0 * channels * input;
  const double B_C = 2.0 * double(batch * groups * dstate) * input;
  if (form == Form::mamba1) {
    const double dt = channels * input;
    const double weights = double(head_dim * dstate + 2 * head_dim) * 4;  // A, D, dt_bias
    return state + x_z_out + dt + B_C + weights;
  }
  const double dt = double(batch * heads) * input;
  const double weights = 3.0 * double(heads) * 4;  // A, D, dt_bias: one a head
  return state + x_z_out + dt + B_C + weights;
}

std::vector<Shape> default_shapes() {
  std::vector<Shape> shapes;
  for (DataType type : {DataType::bfloat16, DataType::float32})
    for (std::int64_t batch : {1, 8, 64}) shapes.push_back(shape_of(type, {batch, 5120, 16}));
  for (DataType type : {DataType::bfloat16, DataType::float32})
    for (std::int64_t batch : {1, 8, 64}) shapes.push_back(shape_of(type, {batch, 80, 64, 128}));
  return shapes;
}

Shape parse_shape(const std::string& spec) {
  const auto bad = [&](const std::string& why) {
    return std::invalid_argument(fmt::format(
        "--shape {}: {} (expected TYPE:B,D,N for Mamba-1 or TYPE:B,H,P,N[,G] for Mamba-2, e.g. bf16:64,5120,16)", spec,
        why));
  };
  const std::size_t colon = spec.find(':');
  if (colon == std::string::npos) throw bad("no type");
  try {
    return shape_of(type_named(spec.substr(0, colon)), sizes_of(spec.substr(colon + 1), ','));
  } catch (const std::invalid_argument& e) {
    throw bad(e.what());
  }
}

std::map<std::string, OfficialTime> read_official_csv(const std::string& path) {
  std::map<std::string, OfficialTime> times;
  // device, what, dtype, shape, fwd_ms, fwd_bwd_ms, fwd_kernels_ms, fwd_bwd_kernels_ms
  ch08::for_each_csv_row(path,
                         "a triton_bench.py step row (device,what,dtype,shape,fwd_ms,fwd_bwd_ms,fwd_kernels_ms,"
                         "fwd_bwd_kernels_ms)",
                         [&](const std::vector<std::string>& c) {
                           if (c.size() != 8 || c[1] != "step") throw std::invalid_argument("not a step row");
                           const Shape shape = shape_of(type_named(c[2]), sizes_of(c[3], 'x'));
                           times[shape.official_spec()] = {std::stod(c[4]), std::stod(c[6]), c[0]};
                         });
  return times;
}

}  // namespace ch08::step_bench
