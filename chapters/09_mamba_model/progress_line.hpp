// progress_line.hpp: a training run's progress on one line that rewrites itself.
//
// Only on a terminal and without --quiet: a recorded run (output redirected to a file) gets the
// tables and figures, not hundreds of carriage returns. The line goes to stderr, and is wiped
// when the run ends.
#pragma once

#include "cpu_training.hpp"

#include <cstdio>
#include <string>
#include <utility>

#include <unistd.h>

namespace ch09 {

class ProgressLine {
 public:
  ProgressLine(bool quiet, std::string label) : show_(!quiet && isatty(STDERR_FILENO)), label_(std::move(label)) {}
  ~ProgressLine() {
    if (shown_) std::fprintf(stderr, "\r%*s\r", 100, "");
  }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void operator()(const TrainingPoint& p, int steps) {
    if (!show_) return;
    shown_ = true;
    std::fprintf(stderr, "\r  %s: step %d/%d  loss %.4f  accuracy %5.1f%%  %.0f tokens/s   ", label_.c_str(), p.step,
                 steps, p.loss, 100.0 * p.accuracy, p.tokens_per_second);
    std::fflush(stderr);
  }

 private:
  bool show_, shown_ = false;
  std::string label_;
};

}  // namespace ch09
