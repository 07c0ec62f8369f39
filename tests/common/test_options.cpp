#include <catch2/catch.hpp>

#include "memory.hpp"
#include "notebook.hpp"
#include "options.hpp"

#include <filesystem>
#include <fstream>
#include <vector>

#include <unistd.h>

namespace {

struct Parsed {
  std::optional<int> exit_code;
  common::CommonOptions options;
  int extra = 16;
};

Parsed parse(std::vector<const char*> args) {
  Parsed p;
  CLI::App app("test", "prog");
  common::add_common_options(app, p.options, 3);
  app.add_option("--hidden", p.extra)->check(common::integer_in(1, 64));
  args.insert(args.begin(), "prog");
  p.exit_code = common::parse_command_line(app, static_cast<int>(args.size()), args.data());
  return p;
}

}  // namespace

TEST_CASE("good options are parsed") {
  const auto p = parse({"--seed", "42", "--bench", "--quiet", "--kernel", "2", "--kernel", "3", "--hidden", "64"});
  REQUIRE_FALSE(p.exit_code);
  CHECK(p.options.seed == 42);
  CHECK(p.options.bench);
  CHECK(p.options.quiet);
  CHECK(p.options.kernels == std::vector<int>{2, 3});
  CHECK(p.extra == 64);
  CHECK(common::kernel_selected(p.options, 2));
  CHECK_FALSE(common::kernel_selected(p.options, 1));
  CHECK(common::kernel_selected(parse({}).options, 1));  // no --kernel: every version
}

TEST_CASE("--help stops with exit code 0") { CHECK(parse({"--help"}).exit_code == 0); }

TEST_CASE("bad values stop with exit code 2") {
  for (const char* seed : {"not-a-number", "-3", "1.5", "99999999999999999999", ""}) {
    INFO("--seed '" << seed << "'");
    CHECK(parse({"--seed", seed}).exit_code == 2);
  }
  CHECK(parse({"--kernel", "4"}).exit_code == 2);
  CHECK(parse({"--kernel", "0"}).exit_code == 2);
  CHECK(parse({"--hidden", "65"}).exit_code == 2);
  CHECK(parse({"--hidden", "12abc"}).exit_code == 2);
  CHECK(parse({"--no-such-option"}).exit_code == 2);
  CHECK(parse({"--seed"}).exit_code == 2);
}

TEST_CASE("validators say what they accept") {
  std::string text = "abc";
  CHECK_THAT(common::integer_in(1, 64)(text), Catch::Contains("whole number in [1, 64], got 'abc'"));
  text = "0.5";
  CHECK(common::real_in(0, 1)(text).empty());
  text = "2";
  CHECK_THAT(common::real_in(0, 1)(text), Catch::Contains("number in [0, 1], got '2'"));
  text = "nan";
  CHECK_FALSE(common::real_in(0, 1)(text).empty());
}

TEST_CASE("an option without its value is named, also when the next word is another option") {
  CHECK(parse({"--kernel"}).exit_code == 2);
  CHECK(parse({"--kernel", "--quiet"}).exit_code == 2);
  CHECK(parse({"--out", "--bench"}).exit_code == 2);
  CHECK(parse({"--seed", "-3"}).exit_code == 2);  // a value, and a bad one
  CHECK_FALSE(parse({"--kernel=2", "--quiet"}).exit_code);
}

namespace {

// prepare_output_directory after parsing `args`; returns its error, or "" when it succeeded.
std::string output_directory_error(std::vector<const char*> args, common::CommonOptions& options) {
  CLI::App app("test", "prog");
  common::add_common_options(app, options);
  args.insert(args.begin(), "prog");
  REQUIRE_FALSE(common::parse_command_line(app, static_cast<int>(args.size()), args.data()));
  try {
    common::prepare_output_directory(app, options, "prog");
  } catch (const common::OptionError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the output directory is created and tried before any work") {
  common::CommonOptions options;
  std::filesystem::remove_all("out_test/nested");
  CHECK(output_directory_error({"--out", "out_test/nested/dir"}, options).empty());
  CHECK(std::filesystem::is_directory("out_test/nested/dir"));
  CHECK(std::filesystem::is_empty("out_test/nested/dir"));  // the write test leaves nothing

  common::CommonOptions defaults;
  CHECK(output_directory_error({}, defaults).empty());
  CHECK(defaults.out_dir == "out/prog");

  CHECK_THAT(output_directory_error({"--out", ""}, options), Catch::Contains("--out: expects a directory, got ''"));
  CHECK_THAT(output_directory_error({"--out", "/proc/forbidden"}, options),
             Catch::StartsWith("--out: cannot create '/proc/forbidden'"));
  std::ofstream("out_test/a_file") << "x";
  CHECK_THAT(output_directory_error({"--out", "out_test/a_file"}, options), Catch::StartsWith("--out: "));
  if (geteuid() != 0) {  // root writes anywhere
    std::filesystem::create_directories("out_test/read_only");
    std::filesystem::permissions("out_test/read_only",
                                 std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
    CHECK_THAT(output_directory_error({"--out", "out_test/read_only"}, options),
               Catch::Contains("cannot write in 'out_test/read_only'"));
    std::filesystem::permissions("out_test/read_only", std::filesystem::perms::owner_all);
  }
}

TEST_CASE("a size that does not fit in host memory names the options and both sizes") {
  CHECK(common::available_host_memory() > 0);
  CHECK_NOTHROW(common::require_host_memory(1e6, "--batch"));
  try {
    common::require_host_memory(1e30, "--batch × --length");
    FAIL("no exception");
  } catch (const common::OptionError& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("--batch × --length needs "));
    CHECK_THAT(e.what(), Catch::Contains("GiB of host memory, but only "));
  }
  CHECK(common::format_bytes(512) == "512 bytes");
  CHECK(common::format_bytes(3 * 1024.0 * 1024.0) == "3.0 MiB");
  CHECK(common::format_bytes(1.5 * 1024 * 1024 * 1024) == "1.50 GiB");
}

TEST_CASE("the summary line counts in the singular for one") {
  CHECK(common::summary_line(16, 0, 0) == "━━ Summary: 16 checks passed, 0 failed ━━");
  CHECK(common::summary_line(1, 2, 1) == "━━ Summary: 1 check passed, 2 failed; 1 GPU part skipped ━━");
  CHECK(common::summary_line(0, 0, 3) == "━━ Summary: 0 checks passed, 0 failed; 3 GPU parts skipped ━━");
}
