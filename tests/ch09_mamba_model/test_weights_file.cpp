// The weights file: a round trip, and every damaged or wrong file refused with one clear line.
#include "ch09_test_support.hpp"
#include "weights_file.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include <unistd.h>

namespace {

std::vector<char> read_all(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

void write_all(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), std::streamsize(bytes.size()));
}

// The message load_weights throws, or "" when it loads.
std::string refusal(const std::string& path) {
  try {
    ch09::load_weights(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

struct Saved {
  ch09::ModelConfig config;
  std::vector<float> params;
  // CTest runs each case in a process of its own, several at once: one file per process.
  std::string path =
      (std::filesystem::temp_directory_path() / ("ch09_test_weights_" + std::to_string(getpid()) + ".bin")).string();
  explicit Saved(ch09::SsmKind kind = ch09::SsmKind::lti) : config(ch09_test::tiny_config(kind)) {
    params = ch09::initial_parameters(config, 3);
    ch09::save_weights(path, config, params);
  }
  ~Saved() { std::filesystem::remove(path); }
};

}  // namespace

TEST_CASE("weights file: what is saved loads back bit for bit, with its config") {
  Saved s;
  const ch09::Weights w = ch09::load_weights(s.path);
  CHECK(w.parameters == s.params);
  CHECK(ch09::to_string(w.config) == ch09::to_string(s.config));
  CHECK(ch09::load_weights(s.path, s.config) == s.params);
  CHECK(std::filesystem::file_size(s.path) == 8 + 4 + 8 * 4 + 8 + 4 * s.params.size() + 8);
}

TEST_CASE("weights file: a Mamba-2 model loads back with its kind and head size") {
  Saved s(ch09::SsmKind::mamba2);
  const ch09::Weights w = ch09::load_weights(s.path);
  CHECK(w.config.kind == ch09::SsmKind::mamba2);
  CHECK(w.config.head_dim == s.config.head_dim);
  CHECK(w.parameters == s.params);
  CHECK(ch09::load_weights(s.path, s.config) == s.params);
  CHECK_THROWS(ch09::load_weights(s.path, ch09_test::tiny_config(ch09::SsmKind::selective)));
}

TEST_CASE("weights file: a wrong magic, a truncated file, a flipped byte, a bad version are refused") {
  Saved s;
  const std::vector<char> good = read_all(s.path);

  std::vector<char> bytes = good;
  bytes[0] = 'X';
  write_all(s.path, bytes);
  CHECK(refusal(s.path).find("not a weights file") != std::string::npos);

  for (std::size_t keep : {std::size_t(4), std::size_t(20), good.size() - 9, good.size() - 1}) {
    write_all(s.path, std::vector<char>(good.begin(), good.begin() + std::ptrdiff_t(keep)));
    const std::string message = refusal(s.path);
    INFO("kept " << keep << " bytes: " << message);
    CHECK(message.find(keep < 8 ? "not a weights file" : "truncated") != std::string::npos);
    CHECK(message.find(s.path) == 0);  // the message names the file
  }

  for (std::size_t at : {std::size_t(60), good.size() / 2, good.size() - 3}) {
    bytes = good;
    bytes[at] = char(bytes[at] ^ 0x10);
    write_all(s.path, bytes);
    INFO("flipped byte " << at);
    CHECK(refusal(s.path).find("checksum mismatch") != std::string::npos);
  }

  bytes = good;
  bytes[8] = 7;  // the version
  write_all(s.path, bytes);
  CHECK(refusal(s.path).find("unknown weights format version 7") != std::string::npos);

  bytes = good;
  bytes.push_back(0);
  write_all(s.path, bytes);
  CHECK(refusal(s.path).find("past the end") != std::string::npos);

  CHECK(refusal(s.path + ".missing").find("cannot open") != std::string::npos);
}

TEST_CASE("weights file: a file of another model, or parameters of the wrong size, are refused") {
  Saved s;
  ch09::ModelConfig other = s.config;
  other.d_state += 1;
  try {
    ch09::load_weights(s.path, other);
    FAIL("a file of another model loaded");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("different model") != std::string::npos);
  }
  CHECK_THROWS_AS(ch09::save_weights(s.path, other, s.params), std::runtime_error);
}
