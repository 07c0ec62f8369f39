// The options every chapter program shares (parsed in options.hpp, with CLI11).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace common {

struct CommonOptions {
  std::uint64_t seed = 1;
  std::string out_dir;       // where data, scripts and figures go; default out/<program>
  bool bench = false;        // run the large benchmark sweeps
  bool quiet = false;        // print headings, checks and the summary only
  bool cpu_only = false;     // skip every GPU section, as on a machine without a GPU
  bool require_gpu = false;  // exit 77 (the tests' "skipped") when no GPU is usable
  std::vector<int> kernels;  // --kernel N, repeatable; empty = every version
};

// The group of options that steer GPU sections alone (a chapter adds them with
// ->group(kGpuOptions); --kernel is one). --help lists them apart, and where no GPU section runs
// run_chapter says in one line which of them were given and not used.
inline constexpr const char* kGpuOptions = "GPU options";

// A value the options' own checks could not see is unusable: sizes each in range whose product
// does not fit in memory, an output directory that cannot be written. run_chapter prints it as
// one line and exits with code 2, as for a bad option, so name the options at fault.
class OptionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// True when version `k` was selected (no --kernel given selects them all).
bool kernel_selected(const CommonOptions& options, int k);

}  // namespace common
