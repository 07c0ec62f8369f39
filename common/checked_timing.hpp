// Benchmarks that trust no kernel.
//
// Each version is run once on poisoned outputs and checked; it is timed only if it was
// right, and its output is checked again after timing (the last timed run's), so a version
// that is fast because it is wrong never enters a table. Every mismatch is printed (✘) with
// the version and the moment, and report() adds the check line that counts them.
#pragma once

#include "notebook.hpp"
#include "timing.hpp"

#include <functional>
#include <optional>
#include <string>

namespace common {

class CheckedTiming {
 public:
  CheckedTiming(Notebook& notebook, TimingOptions options);

  // what:   the version and the size, e.g. "kernel 2 at L = 1024";
  // poison: fills the version's outputs with NaN;  run: enqueues the version;
  // check:  compares its output with the reference: "" when right, else what is wrong.
  // Returns the timing, or nothing when the version was wrong before timing.
  std::optional<TimingStats> time(const std::string& what, const std::function<void()>& poison,
                                  const std::function<void()>& run, const std::function<std::string()>& check);

  // The check line "<claim>: W of R runs wrong (<detail>)"; passes when R > 0 and W = 0.
  bool report(const std::string& claim, const std::string& detail = "");

 private:
  bool checked(const std::string& what, const char* when, const std::function<std::string()>& check);

  Notebook& notebook_;
  GpuTimer timer_;
  int runs_ = 0;
  int wrong_ = 0;
};

// A Comparison as CheckedTiming's check wants it: "" when it passed, else its summary.
inline std::string failure(const Comparison& c) { return c.ok ? std::string() : c.summary(); }

}  // namespace common
