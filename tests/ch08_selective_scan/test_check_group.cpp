// CheckGroup: the cases of a group print as one ✔ line; a case that fails prints its own ✘ line
// and makes the program fail.
#include "check_group.hpp"
#include "notebook_capture.hpp"

#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <string>

namespace {

using book_test::Printed;
using book_test::run_notebook;

int count(const std::string& text, const std::string& what) {
  int found = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++found;
  return found;
}

const auto claim = [](int members, int results) { return fmt::format("{} cases, {} tensors right", members, results); };

}  // namespace

TEST_CASE("bound_used: 0 where exact, 1 at the bound, the largest over the elements") {
  const common::Tolerance tol{1e-3, 1e-2};
  CHECK(ch08::bound_used({1.0, 2.0}, {1.0, 2.0}, tol) == 0.0);
  CHECK(ch08::bound_used({1.0 + 0.011, 2.0}, {1.0, 2.0}, tol) == Approx(1.0));
  CHECK(ch08::bound_used({0.0005, 2.0 + 0.0105}, {0.0, 2.0}, tol) == Approx(0.5));
}

TEST_CASE("check group: every case passed, one ✔ line with the count and the nearest to its bound") {
  const Printed p = run_notebook([](common::Notebook& nb) {
    ch08::CheckGroup group;
    group.add({"case a", true, "", 3, 0.25, "dz in a"});
    group.add({"case b", true, "", 4, 0.5, "dA in b"});
    group.report(nb, "version 1, fp32", "cases", claim);
  });
  CHECK(p.exit_code == 0);
  CHECK(count(p.text, "✔") == 1);
  CHECK(count(p.text, "✘") == 0);
  CHECK(p.text.find("✔ version 1, fp32: 2 cases, 7 tensors right; nearest its bound: dA in b at 0.50 of it") !=
        std::string::npos);
}

TEST_CASE("check group: a failed case prints its own ✘ line and fails the program, the ✔ line covers the others") {
  const Printed p = run_notebook([](common::Notebook& nb) {
    ch08::CheckGroup group;
    group.add({"case a", true, "", 3, 0.25, "dz in a"});
    group.add({"version 1, fp32, case b", false, "dA: 2 elements out of bounds", 4, 0, ""});
    group.add({"case c", true, "", 5, 0.125, "du in c"});
    group.report(nb, "version 1, fp32", "cases", claim);
  });
  CHECK(p.exit_code == 1);
  CHECK(p.text.find("✘ version 1, fp32, case b: dA: 2 elements out of bounds") != std::string::npos);
  CHECK(
      p.text.find(
          "✔ version 1, fp32, the other 2 cases: 2 cases, 8 tensors right; nearest its bound: dz in a at 0.25 of it") !=
      std::string::npos);
}

TEST_CASE("check group: no case passed, no ✔ line") {
  const Printed p = run_notebook([](common::Notebook& nb) {
    ch08::CheckGroup group;
    group.add({"case a", false, "wrong", 1, 0, ""});
    group.report(nb, "version 1, fp32", "cases", claim);
  });
  CHECK(p.exit_code == 1);
  CHECK(count(p.text, "✔") == 0);
  CHECK(p.text.find("✘ case a: wrong") != std::string::npos);
}

TEST_CASE("check group: without a measured bound the line has no nearest part") {
  const Printed p = run_notebook([](common::Notebook& nb) {
    ch08::CheckGroup group;
    group.add({"version 1", true, "", 1, 0, ""});
    group.report(nb, "deterministic backward", "versions",
                 [](int members, int) { return fmt::format("{} versions bit-identical", members); });
  });
  CHECK(p.text.find("✔ deterministic backward: 1 versions bit-identical\n") != std::string::npos);
}
