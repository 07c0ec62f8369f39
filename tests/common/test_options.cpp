#include <catch2/catch.hpp>

#include "options.hpp"

#include <vector>

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
