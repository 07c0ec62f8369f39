#include "weights_file.hpp"

#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace ch09 {
namespace {

constexpr char kMagic[8] = {'M', 'A', 'M', 'B', 'A', 'B', 'K', '\0'};
constexpr std::size_t kHeaderInts = 8;  // the config's fields

template <class T>
void put(std::vector<unsigned char>& out, T value) {  // little-endian, whatever the machine
  for (std::size_t i = 0; i < sizeof(T); ++i)
    out.push_back(static_cast<unsigned char>(std::uint64_t(value) >> (8 * i)));
}

template <class T>
T get(const unsigned char* in) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < sizeof(T); ++i) v |= std::uint64_t(in[i]) << (8 * i);
  return static_cast<T>(v);
}

std::runtime_error failure(const std::string& path, const std::string& problem) {
  return std::runtime_error(path + ": " + problem);
}

// A Mamba-2 model has no dt_rank: its seventh field is head_dim.
std::vector<int> fields(const ModelConfig& c) {
  const bool mamba2 = c.kind == SsmKind::mamba2;
  return {c.vocab,
          c.d_model,
          c.layers,
          c.d_state,
          c.expand,
          c.conv_width,
          mamba2 ? c.head_dim : c.dt_rank,
          mamba2                   ? 2
          : c.kind == SsmKind::lti ? 1
                                   : 0};
}

}  // namespace

std::uint64_t fnv1a64(const unsigned char* data, std::size_t size) {
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (std::size_t i = 0; i < size; ++i) {
    hash ^= data[i];
    hash *= 0x100000001b3ull;
  }
  return hash;
}

void save_weights(const std::string& path, const ModelConfig& config, const std::vector<float>& parameters) {
  const std::string problem = config.validate();
  if (!problem.empty()) throw failure(path, "cannot save: " + problem);
  if (parameters.size() != parameter_layout(config).total)
    throw failure(path, "cannot save: " + std::to_string(parameters.size()) + " floats, the config has " +
                            std::to_string(parameter_layout(config).total));
  std::vector<unsigned char> bytes(kMagic, kMagic + sizeof kMagic);
  put<std::uint32_t>(bytes, kWeightsFormatVersion);
  for (int v : fields(config)) put<std::uint32_t>(bytes, std::uint32_t(v));
  put<std::uint64_t>(bytes, parameters.size());
  for (float f : parameters) {
    std::uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    put<std::uint32_t>(bytes, bits);
  }
  put<std::uint64_t>(bytes, fnv1a64(bytes.data() + sizeof kMagic, bytes.size() - sizeof kMagic));
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!file.flush()) throw failure(path, "cannot write the weights file");
}

Weights load_weights(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw failure(path, "cannot open the weights file");
  const std::vector<unsigned char> bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  const std::size_t header = sizeof kMagic + 4 + 4 * kHeaderInts + 8;
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    throw failure(path, "not a weights file (no MAMBABK magic)");
  if (bytes.size() < sizeof kMagic + 4) throw failure(path, "truncated (" + std::to_string(bytes.size()) + " bytes)");
  const std::uint32_t version = get<std::uint32_t>(bytes.data() + sizeof kMagic);
  if (version != kWeightsFormatVersion)
    throw failure(path, "unknown weights format version " + std::to_string(version) + " (this program reads " +
                            std::to_string(kWeightsFormatVersion) + ")");
  if (bytes.size() < header) throw failure(path, "truncated (" + std::to_string(bytes.size()) + " bytes)");
  const unsigned char* p = bytes.data() + sizeof kMagic + 4;
  int v[kHeaderInts];
  for (std::size_t i = 0; i < kHeaderInts; ++i) v[i] = int(get<std::uint32_t>(p + 4 * i));
  const std::uint64_t count = get<std::uint64_t>(p + 4 * kHeaderInts);
  const std::uint64_t expected_size = header + 4 * count + 8;
  if (count > bytes.size() || bytes.size() < expected_size)
    throw failure(path, "truncated (" + std::to_string(bytes.size()) + " bytes, the header announces " +
                            std::to_string(expected_size) + ")");
  if (bytes.size() > expected_size)
    throw failure(path, std::to_string(bytes.size() - expected_size) + " bytes past the end of the weights");
  const std::uint64_t stored = get<std::uint64_t>(bytes.data() + header + 4 * count);
  if (stored != fnv1a64(bytes.data() + sizeof kMagic, header - sizeof kMagic + 4 * count))
    throw failure(path, "checksum mismatch (the file is damaged)");

  Weights w;
  w.config.vocab = v[0];
  w.config.d_model = v[1];
  w.config.layers = v[2];
  w.config.d_state = v[3];
  w.config.expand = v[4];
  w.config.conv_width = v[5];
  if (v[7] < 0 || v[7] > 2) throw failure(path, "unknown model kind " + std::to_string(v[7]));
  w.config.kind = v[7] == 2 ? SsmKind::mamba2 : v[7] == 1 ? SsmKind::lti : SsmKind::selective;
  (w.config.kind == SsmKind::mamba2 ? w.config.head_dim : w.config.dt_rank) = v[6];
  const std::string problem = w.config.validate();
  if (!problem.empty()) throw failure(path, "bad model sizes: " + problem);
  if (count != parameter_layout(w.config).total)
    throw failure(path, std::to_string(count) + " floats, but its model sizes need " +
                            std::to_string(parameter_layout(w.config).total));
  w.parameters.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t bits = get<std::uint32_t>(bytes.data() + header + 4 * i);
    std::memcpy(&w.parameters[i], &bits, sizeof bits);
  }
  return w;
}

std::vector<float> load_weights(const std::string& path, const ModelConfig& expected) {
  Weights w = load_weights(path);
  if (fields(w.config) != fields(expected))
    throw failure(path,
                  "holds a different model (" + to_string(w.config) + ") than expected (" + to_string(expected) + ")");
  return std::move(w.parameters);
}

}  // namespace ch09
