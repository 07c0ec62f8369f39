#include "checked_timing.hpp"

#include <fmt/format.h>

namespace common {

CheckedTiming::CheckedTiming(Notebook& notebook, TimingOptions options) : notebook_(notebook), timer_(options) {}

bool CheckedTiming::checked(const std::string& what, const char* when, const std::function<std::string()>& check) {
  CUDA_CHECK(cudaDeviceSynchronize());
  const std::string wrong = check();
  ++runs_;
  if (!wrong.empty()) {
    ++wrong_;
    notebook_.text(fmt::format("✘ {}, {} timing: {}", what, when, wrong));
  }
  return wrong.empty();
}

std::optional<TimingStats> CheckedTiming::time(const std::string& what, const std::function<void()>& poison,
                                               const std::function<void()>& run,
                                               const std::function<std::string()>& check) {
  poison();
  run();
  if (!checked(what, "before", check)) return std::nullopt;
  poison();
  const TimingStats t = timer_.time(run);
  checked(what, "after", check);
  return t;
}

bool CheckedTiming::report(const std::string& claim, const std::string& detail) {
  return notebook_.check(
      claim, runs_ > 0 && wrong_ == 0,
      fmt::format("{} of {} runs wrong{}", wrong_, runs_, detail.empty() ? "" : " (" + detail + ")"));
}

}  // namespace common
