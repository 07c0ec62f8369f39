// A chapter program prints itself like a notebook: a header (program, device, date, seed),
// numbered sections, values, tables, figures, and check lines that show the measured error
// against its tolerance (✔ or ✘). A closing summary counts the checks, and any failed
// check makes the program exit non-zero.
//
// The format is also what the book quotes: a section starts with "[N] Title" at column 0,
// and the summary line starts with "━━ Summary".
#pragma once

#include "common_options.hpp"
#include "compare.hpp"
#include "plot.hpp"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace common {

struct ChapterInfo {
  std::string program;   // "ch01_rnn"
  std::string title;     // "Chapter 01 · The RNN recurrence"
  int kernel_count = 0;  // numbered kernel versions (enables --kernel)
  // Which of them this build holds, in words ("1-4; 5 needs sm_90"); empty: all of them.
  std::string versions_built = {};
};

class Notebook {
 public:
  Notebook(const ChapterInfo& info, const CommonOptions& options, std::string command_line);

  // One more "  name     value" line of the header (before the first section).
  void header_line(const std::string& name, const std::string& value);
  void section(const std::string& title);
  void text(const std::string& paragraph);                        // hidden by --quiet
  void value(const std::string& name, const std::string& value);  // hidden by --quiet
  void table(const std::vector<std::string>& header,
             const std::vector<std::vector<std::string>>& rows);  // hidden by --quiet

  // A check line; returns whether it passed.
  bool check(const std::string& what, const Comparison& comparison,
             const std::function<std::string(std::size_t)>& where = {});
  bool check(const std::string& what, bool passed, const std::string& detail);

  // Draws a figure into the output directory and reports it (with its character plot
  // unless --quiet, when `show_inline`).
  void figure(const Figure& figure, bool show_inline = true);

  // Whether GPU sections run: a usable GPU and no --cpu-only. When not, gpu_skip() prints
  // the one line that says what was skipped and why.
  bool gpu() const;
  void gpu_skip(const std::string& what);
  // A GPU part skipped for another reason (a kernel version this build does not hold): one line.
  void skip(const std::string& what, const std::string& why);

  const CommonOptions& options() const { return options_; }
  const std::string& out_dir() const { return out_dir_; }
  const std::string& date() const { return date_; }
  // "NVIDIA H100 80GB HBM3", or "none" without a usable GPU.
  std::string device_name() const;

  // Prints the summary; returns the exit code (0 when every check passed).
  int finish();

 private:
  void line(const std::string& text) const;
  std::string no_gpu_reason() const;

  CommonOptions options_;
  std::string out_dir_;
  std::string date_;
  int section_number_ = 0;
  int passed_ = 0;
  int failed_ = 0;
  int skipped_ = 0;
  std::vector<std::string> failed_checks_;
  mutable std::string header_;  // until the first line of output prints it
};

// "━━ Summary: 16 checks passed, 0 failed; 3 GPU parts skipped ━━" (the skipped part only
// when some were), the line that Notebook::finish prints and scripts/book.sh reads.
std::string summary_line(int passed, int failed, int skipped);

// Today's date, YYYY-MM-DD (local time).
std::string today();

}  // namespace common
