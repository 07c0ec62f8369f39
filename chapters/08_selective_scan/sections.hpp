// sections.hpp: the sections of chapter 08's program, in the order it runs them, and what they
// share: the options, the input types, the runs, the configurations and the verdict on one run.
// sections.cpp holds the shared helpers, sections_math.cpp the sections on the formulas and the
// fp64 reference, sections_bytes.cpp the byte model, sections_checks.cpp the GPU checks,
// sections_benchmark.cpp the benchmark and sections_packed.cpp packed sequences.
#pragma once

#include "byte_model.hpp"
#include "common_options.hpp"
#include "compare.hpp"
#include "notebook.hpp"
#include "reference.hpp"
#include "selective_scan.hpp"
#include "verdict.hpp"

#include <fmt/format.h>

#include <cstdint>
#include <string>
#include <vector>

namespace ch08 {

using common::Tolerance;
using selective_scan::DataType;
using selective_scan::Kernel;

struct Options {
  std::vector<std::string> dtypes{"fp32", "fp16", "bf16"};
  long long check_seqlen = 2 * selective_scan::kChunkLength + 3;
  long long batch = 2, dim = 768, seqlen = 2048, dstate = 16;  // the benchmark's shape without --bench
  std::string official_csv;  // official-bench's times from the same device call (--official)
};

const char* dtype_name(DataType t);
int dtype_bytes(DataType t);
std::vector<DataType> selected_dtypes(const Options& o);  // the --dtype types, fp32, fp16, bf16 in that order
std::string version_label(Kernel k);

// What the checks and the benchmark run: every version, version 5 a second time with the
// forward's kept states (state_checkpoints), which its backward reads instead of recomputing,
// and (without --kernel) Kernel::automatic, the library's default.
struct Run {
  Kernel kernel;
  bool keep_checkpoints;
  std::string label() const { return version_label(kernel) + (keep_checkpoints ? " + kept h" : ""); }
};
std::vector<Run> selected_runs(const common::CommonOptions& options);

std::string megabytes(std::int64_t bytes);
std::vector<double> normal_values(std::size_t count, std::uint64_t seed, double scale = 1.0);

// The configurations of the byte model [6] and the benchmark [8].
struct Config {
  std::string label;
  DataType type;
  std::int64_t batch, dim, seqlen;
  int dstate;
  bool variable_BC = true;
};

std::string config_label(DataType type, std::int64_t batch, std::int64_t dim, std::int64_t seqlen, int dstate,
                         bool variable_BC);
Config make_config(DataType type, std::int64_t batch, std::int64_t dim, std::int64_t seqlen, int dstate,
                   bool variable_BC = true);

// --bench: the six configurations the official kernel's benchmarks time (fp32 and bf16 at
// (8, 1536, 2048), (1, 5120, 8192), (16, 1536, 512), dstate 16; scripts/gpu-suite times the
// official kernel on them in the same call), then one change each from the first (dstate 64, seqlen
// 32768, constant B and C, fp16), then the official test suite's shape at one of its short
// sequences, where a few channels leave most of the GPU idle.
std::vector<Config> bench_configs();

// The official kernel's benchmark data on a configuration's shape (the benchmark [8] and the
// packed sequences [9] time it).
Problem benchmark_problem(const Config& c, std::uint64_t seed);

// What the benchmark's runs move (DeviceProblem writes the last state too).
ByteShape byte_shape(const Config& c);

// The benchmark at the command line's shape, checked before any work where it runs (a GPU,
// no --bench). The host holds the fp64 problem, its copy in the DeviceProblem, the slice check's
// dout and fp64 gradients, and a run's results brought back: about 88 bytes a sequence element
// (batch × dim × seqlen) and 192 an element of B or C (batch × dstate × seqlen). The GPU holds
// at least the nine sequence tensors, B, C and their gradients (the workspaces come on top).
// In doubles, so that no product of sizes can overflow.
void require_benchmark_fits(const Options& o);

// Every output and gradient of one run, each against its own expected tensor and tolerance,
// judged by the rule the GPU tests apply too (verdict.hpp).
class Verdict {
 public:
  // rounding: dA's bound on top of its tolerance (ch08::dA_rounding), empty for the others.
  void add(const std::string& name, const std::vector<double>& got, const std::vector<double>& expected, Tolerance tol,
           const std::vector<double>& rounding = {}) {
    add(ch08::judge_tensor(name, got, expected, tol, rounding));
  }
  void add(const ch08::TensorVerdict& t) {
    ++tensors_;
    if (!t.ok) {
      ok_ = false;
      failures_ += fmt::format("{}{}: {}", failures_.empty() ? "" : "; ", t.name, t.detail);
      return;
    }
    if (t.used > worst_) worst_ = t.used, worst_name_ = t.name;  // how close to its bound the closest element came
  }
  // A condition that has no tolerance (a value that must be exactly zero, or finite).
  void require(const std::string& name, bool passed, const std::string& why) {
    ++tensors_;
    if (!passed) ok_ = false, failures_ += fmt::format("{}{}: {}", failures_.empty() ? "" : "; ", name, why);
  }
  bool ok() const { return ok_; }
  std::string failure() const { return ok_ ? std::string() : failures_; }
  int tensors() const { return tensors_; }
  double worst() const { return worst_; }  // the nearest tensor's bound_used
  const std::string& worst_name() const { return worst_name_; }

 private:
  bool ok_ = true;
  int tensors_ = 0;
  double worst_ = 0;
  std::string worst_name_, failures_;
};

void section_one_channel(common::Notebook& nb);
void section_selective_delta(common::Notebook& nb);
void section_state_decay(common::Notebook& nb);
void section_zoh_vs_euler(common::Notebook& nb);
void section_gradients(common::Notebook& nb);
void section_bytes(common::Notebook& nb);
void section_gpu_checks(common::Notebook& nb, const Options& o);
void section_benchmark(common::Notebook& nb, const Options& o);
void section_packed(common::Notebook& nb, const Options& o);

}  // namespace ch08
