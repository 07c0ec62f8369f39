#include "options.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdio>
#include <limits>

namespace common {
namespace {

template <class T>
bool parse_whole(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && !text.empty();
}

}  // namespace

CLI::Validator integer_in(long long lo, long long hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        long long value = 0;
        if (!parse_whole(text, value) || value < lo || value > hi)
          return fmt::format("expects a whole number in [{}, {}], got '{}'", lo, hi, text);
        return {};
      },
      fmt::format("INT in [{}, {}]", lo, hi));
}

CLI::Validator unsigned_integer() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        if (!parse_whole(text, value))
          return fmt::format("expects a whole number in [0, {}], got '{}'",
                             std::numeric_limits<std::uint64_t>::max(), text);
        return {};
      },
      "UINT64");
}

CLI::Validator real_in(double lo, double hi) {
  return CLI::Validator(
      [lo, hi](std::string& text) -> std::string {
        double value = 0;
        const char* end = text.data() + text.size();
        auto [ptr, ec] = std::from_chars(text.data(), end, value);
        if (ec != std::errc() || ptr != end || text.empty() || !(value >= lo && value <= hi))
          return fmt::format("expects a number in [{:g}, {:g}], got '{}'", lo, hi, text);
        return {};
      },
      fmt::format("REAL in [{:g}, {:g}]", lo, hi));
}

void add_common_options(CLI::App& app, CommonOptions& options, int kernel_count) {
  app.add_option("--seed", options.seed, "Seed of the random inputs")
      ->check(unsigned_integer())
      ->capture_default_str();
  app.add_option("--out", options.out_dir, "Directory for data, gnuplot scripts and figures (default out/<program>)");
  app.add_flag("--bench", options.bench, "Also run the large benchmark sweeps");
  app.add_flag("--quiet", options.quiet, "Print only headings, checks and the summary");
  app.add_flag("--cpu-only", options.cpu_only, "Skip every GPU section, as on a machine without a GPU");
  app.add_flag("--require-gpu", options.require_gpu, "Exit with code 77 (skipped) when no GPU is usable");
  if (kernel_count > 0) {
    app.add_option("--kernel", options.kernels,
                   fmt::format("Run only kernel version N (1..{}); repeatable", kernel_count))
        ->check(integer_in(1, kernel_count));
  }
}

std::optional<int> parse_command_line(CLI::App& app, int argc, const char* const* argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    std::string message = e.what();
    for (char& c : message)
      if (c == '\n') c = ' ';
    std::fprintf(stderr, "%s: %s (see --help)\n", app.get_name().c_str(), message.c_str());
    return 2;
  }
  return std::nullopt;
}

bool kernel_selected(const CommonOptions& options, int k) {
  if (options.kernels.empty()) return true;
  for (int selected : options.kernels)
    if (selected == k) return true;
  return false;
}

}  // namespace common
