#include "options.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>

#include <fcntl.h>
#include <unistd.h>

namespace common {
namespace {

template <class T>
bool parse_whole(const std::string& text, T& value) {
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end && !text.empty();
}

// The kind of value an option takes, as its help shows it: "INT in [1, 3]" out of CLI11's
// "INT:INT in [1, 3]" (the type, then the validator's description).
std::string value_kind(const CLI::Option& option) {
  const std::string type = option.get_type_name();
  const std::size_t colon = type.rfind(':');
  return colon == std::string::npos ? type : type.substr(colon + 1);
}

// The option that `word` names ("--quiet", "-h", "--seed=3"), or null when it names none.
const CLI::Option* option_named(const CLI::App& app, const std::string& word) {
  if (word.size() < 2 || word[0] != '-') return nullptr;
  return app.get_option_no_throw(word.substr(0, word.find('=')));
}

// CLI11 takes the word after an option as its value even when that word is another option,
// and then blames the value ("got '--quiet'"). Returns the message for the first option whose
// value is missing, or an empty string.
std::string missing_value(const CLI::App& app, int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    const CLI::Option* option = option_named(app, word);
    if (word.find('=') != std::string::npos) {  // "--seed=": no value, and CLI11 would take the next word for it
      if (option != nullptr && word.back() == '=' && option->get_items_expected_min() > 0)
        return fmt::format("{}: the value is missing ({})", word.substr(0, word.size() - 1), value_kind(*option));
      continue;
    }
    if (option == nullptr || option->get_items_expected_min() == 0) continue;  // not an option, or a flag
    if (i + 1 == argc) return fmt::format("{}: the value is missing ({})", word, value_kind(*option));
    if (option_named(app, argv[i + 1]) != nullptr)
      return fmt::format("{}: the value is missing ({}); the next word, {}, is an option", word, value_kind(*option),
                         argv[i + 1]);
  }
  return {};
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
          return fmt::format("expects a whole number in [0, {}], got '{}'", std::numeric_limits<std::uint64_t>::max(),
                             text);
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
  app.add_option("--seed", options.seed, "Seed of the random inputs")->check(unsigned_integer())->capture_default_str();
  app.add_option("--out", options.out_dir, "Directory for data, gnuplot scripts and figures (default out/<program>)")
      ->type_name("DIR");
  app.add_flag("--bench", options.bench, "Also run the large benchmark sweeps");
  app.add_flag("--quiet", options.quiet, "Print only headings, checks and the summary");
  app.add_flag("--cpu-only", options.cpu_only, "Skip every GPU section, as on a machine without a GPU");
  app.add_flag("--require-gpu", options.require_gpu, "Exit with code 77 (skipped) when no GPU is usable");
  if (kernel_count > 0) {
    app.add_option("--kernel", options.kernels,
                   fmt::format("Run only kernel version N (1..{}); repeatable", kernel_count))
        ->check(integer_in(1, kernel_count))
        ->group(kGpuOptions);
  }
}

std::optional<int> parse_command_line(CLI::App& app, int argc, const char* const* argv) {
  if (const std::string missing = missing_value(app, argc, argv); !missing.empty()) {
    print_option_error(app, missing);
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp&) {
    std::fputs(app.help().c_str(), stdout);
    return 0;
  } catch (const CLI::CallForAllHelp&) {
    std::fputs(app.help("", CLI::AppFormatMode::All).c_str(), stdout);
    return 0;
  } catch (const CLI::ParseError& e) {
    print_option_error(app, e.what());
    return 2;
  } catch (const OptionError& e) {  // thrown by a chapter's own check in a parse callback
    print_option_error(app, e.what());
    return 2;
  }
  return std::nullopt;
}

void prepare_output_directory(const CLI::App& app, CommonOptions& options, const std::string& program) {
  const bool given = app.get_option("--out")->count() > 0;
  if (!given) options.out_dir = "out/" + program;
  const std::string named = given ? "--out" : "--out (default " + options.out_dir + ")";
  if (options.out_dir.empty()) throw OptionError("--out: expects a directory, got ''");
  std::error_code error;
  std::filesystem::create_directories(options.out_dir, error);
  if (error) throw OptionError(fmt::format("{}: cannot create '{}': {}", named, options.out_dir, error.message()));
  if (!std::filesystem::is_directory(options.out_dir, error))
    throw OptionError(fmt::format("{}: '{}' is not a directory", named, options.out_dir));
  // Permissions alone do not tell (a read-only file system, a full disk, root): write a file.
  const std::string probe = fmt::format("{}/.write-test-{}", options.out_dir, getpid());
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL, 0600);
  if (fd < 0)
    throw OptionError(fmt::format("{}: cannot write in '{}': {}", named, options.out_dir, std::strerror(errno)));
  ::close(fd);
  ::unlink(probe.c_str());
}

void print_option_error(const CLI::App& app, const std::string& message) {
  std::string line = message;
  for (char& c : line)
    if (c == '\n') c = ' ';
  std::fprintf(stderr, "%s: %s (see --help)\n", app.get_name().c_str(), line.c_str());
}

bool kernel_selected(const CommonOptions& options, int k) {
  if (options.kernels.empty()) return true;
  for (int selected : options.kernels)
    if (selected == k) return true;
  return false;
}

}  // namespace common
