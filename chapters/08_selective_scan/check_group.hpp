// Many checks of one kind as one line of the program's output. Section [7] runs every version on
// every case in every input type, and one line each would fill a page; a CheckGroup collects the
// cases of one version in one input type and prints them as one ✔ line with their count and the
// result that came nearest its bound. A member that fails still prints a ✘ line of its own (and
// counts as a failed check, so the program exits 1); the group's ✔ line then covers the others.
#pragma once

#include "compare.hpp"
#include "notebook.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace ch08 {

// How far into its tolerance a result went: the largest |got − expected| / (atol + rtol·|expected|),
// 0 where every element is exact, 1 at the bound.
inline double bound_used(const std::vector<double>& got, const std::vector<double>& expected, common::Tolerance tol) {
  double used = 0;
  for (std::size_t i = 0; i < got.size() && i < expected.size(); ++i)
    used = std::max(used, std::abs(got[i] - expected[i]) / (tol.atol + tol.rtol * std::abs(expected[i])));
  return used;
}

struct GroupMember {
  std::string what;  // the member's own check line, printed if it fails
  bool passed = true;
  std::string detail;   // why it failed
  int results = 1;      // how many tensors (or values) it compared
  double used = 0;      // bound_used of its result nearest the bound
  std::string nearest;  // which result that was; empty where nothing is measured against a bound
};

class CheckGroup {
 public:
  void add(GroupMember member) { members_.push_back(std::move(member)); }

  // A ✘ line for each member that failed, then, if any passed, one ✔ line "<name>: <claim>" (or
  // "<name>, the other <k> <noun>: <claim>" after a failure), claim = passed(members, results)
  // for the members that passed, closed by the one nearest its bound.
  void report(common::Notebook& nb, const std::string& name, const std::string& noun,
              const std::function<std::string(int members, int results)>& passed) const {
    int members = 0, results = 0;
    const GroupMember* nearest = nullptr;
    for (const GroupMember& m : members_) {
      if (!m.passed) {
        nb.check(m.what, false, m.detail);
        continue;
      }
      ++members, results += m.results;
      if (!m.nearest.empty() && (!nearest || m.used > nearest->used)) nearest = &m;
    }
    if (members == 0) return;
    const std::string who =
        members == int(members_.size()) ? name : fmt::format("{}, the other {} {}", name, members, noun);
    std::string claim = passed(members, results);
    if (nearest) claim += fmt::format("; nearest its bound: {} at {:.2f} of it", nearest->nearest, nearest->used);
    nb.check(who, true, claim);
  }

 private:
  std::vector<GroupMember> members_;
};

}  // namespace ch08
