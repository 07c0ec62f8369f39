// What the sections of chapter 08's program share (sections.hpp): input types, runs, the
// configurations and their bytes.
#include "sections.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>

namespace ch08 {
namespace {

DataType dtype_from_name(const std::string& name) {
  if (name == "fp16") return DataType::float16;
  if (name == "bf16") return DataType::bfloat16;
  return DataType::float32;
}

}  // namespace

const char* dtype_name(DataType t) {
  switch (t) {
    case DataType::float32: return "fp32";
    case DataType::float16: return "fp16";
    case DataType::bfloat16: return "bf16";
  }
  return "?";
}
int dtype_bytes(DataType t) { return t == DataType::float32 ? 4 : 2; }
std::vector<DataType> selected_dtypes(const Options& o) {
  std::vector<DataType> types;
  for (const char* name : {"fp32", "fp16", "bf16"})
    if (std::find(o.dtypes.begin(), o.dtypes.end(), name) != o.dtypes.end()) types.push_back(dtype_from_name(name));
  return types;
}

std::string version_label(Kernel k) {
  return k == Kernel::automatic ? "auto" : fmt::format("{} {}", int(k), selective_scan::version_of(k)->name);
}

std::vector<Run> selected_runs(const common::CommonOptions& options) {
  std::vector<Run> runs;
  for (const auto& k : selective_scan::kVersions) {
    if (!common::kernel_selected(options, int(k.id)) || !selective_scan::version_built(k.id)) continue;
    runs.push_back({k.id, false});
    if (k.id == Kernel::ring) runs.push_back({k.id, true});
  }
  if (options.kernels.empty()) runs.push_back({Kernel::automatic, false});  // the default, by itself
  return runs;
}

std::string megabytes(std::int64_t bytes) { return fmt::format("{:.1f}", double(bytes) / 1e6); }

std::vector<double> normal_values(std::size_t count, std::uint64_t seed, double scale) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> normal(0.0, scale);
  std::vector<double> v(count);
  for (double& x : v) x = normal(rng);
  return v;
}

std::string config_label(DataType type, std::int64_t batch, std::int64_t dim, std::int64_t seqlen, int dstate,
                         bool variable_BC) {
  return fmt::format("{} ({}, {}, {}, {}){}", dtype_name(type), batch, dim, seqlen, dstate,
                     variable_BC ? "" : " B, C const");
}
Config make_config(DataType type, std::int64_t batch, std::int64_t dim, std::int64_t seqlen, int dstate,
                   bool variable_BC) {
  return {config_label(type, batch, dim, seqlen, dstate, variable_BC), type, batch, dim, seqlen, dstate, variable_BC};
}

std::vector<Config> bench_configs() {
  std::vector<Config> configs;
  for (const auto& [batch, dim, seqlen] :
       {std::array<std::int64_t, 3>{8, 1536, 2048}, {1, 5120, 8192}, {16, 1536, 512}})
    for (DataType type : {DataType::float32, DataType::bfloat16})
      configs.push_back(make_config(type, batch, dim, seqlen, 16));
  configs.push_back(make_config(DataType::float32, 8, 1536, 2048, 64));
  configs.push_back(make_config(DataType::float32, 1, 1536, 32768, 16));
  configs.push_back(make_config(DataType::float32, 8, 1536, 2048, 16, false));
  configs.push_back(make_config(DataType::float16, 8, 1536, 2048, 16));
  // The official test suite's shape (batch 2, dim 4, dstate 8) at one of its short sequences.
  configs.push_back(make_config(DataType::float32, 2, 4, 512, 8));
  return configs;
}

// The official kernel's benchmark data (official_baseline.md): u, z ~ N(0,1); δraw = 0.5·N(0,1); A_n = −(n+1)·U(0.5, 1.5);
// delta_bias = softplus⁻¹(dt), dt log-uniform in [1e-3, 0.1]; B, C, D ~ N(0,1).
Problem benchmark_problem(const Config& c, std::uint64_t seed) {
  Problem p;
  p.batch = c.batch, p.dim = c.dim, p.seqlen = c.seqlen, p.dstate = c.dstate;
  p.variable_B = p.variable_C = c.variable_BC;
  p.has_D = p.has_z = p.has_delta_bias = p.delta_softplus = true;
  const std::size_t sequence = std::size_t(p.sequence_elements());
  p.u = normal_values(sequence, seed);
  p.z = normal_values(sequence, seed + 1);
  p.delta = normal_values(sequence, seed + 2, 0.5);
  std::mt19937_64 rng(seed + 3);
  std::uniform_real_distribution<double> scale(0.5, 1.5), log_dt(std::log(1e-3), std::log(0.1));
  std::normal_distribution<double> normal;
  for (std::int64_t d = 0; d < p.dim; ++d) {
    for (int n = 0; n < p.dstate; ++n) p.A.push_back(Complex(-(n + 1) * scale(rng), 0));
    p.D.push_back(normal(rng));
    p.delta_bias.push_back(std::log(std::expm1(std::exp(log_dt(rng)))));
  }
  const std::size_t projection = std::size_t(c.variable_BC ? p.batch * p.dstate * p.seqlen : p.dim * p.dstate);
  for (std::size_t i = 0; i < projection; ++i) p.B.push_back(Complex(normal(rng), 0));
  for (std::size_t i = 0; i < projection; ++i) p.C.push_back(Complex(normal(rng), 0));
  return p;
}

ch08::ByteShape byte_shape(const Config& c) {
  ch08::ByteShape s;
  s.batch = c.batch, s.dim = c.dim, s.seqlen = c.seqlen, s.dstate = c.dstate;
  s.input_bytes = dtype_bytes(c.type);
  s.variable_B = s.variable_C = c.variable_BC;
  s.has_last_state = true;
  return s;
}

}  // namespace ch08
