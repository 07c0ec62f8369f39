// Every chapter's kernel file starts with the list of its numbered versions,
//   //   N  name  idea
// which the book quotes and --kernel N refers to; the chapter's registry (kKernels) holds the
// same list for the program. These helpers read both, so a test can demand that they agree
// line for line -- the list is checked, not hand-kept.
#pragma once

#include <fstream>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

// "N name idea" for every list line of the header comment (the comment lines before the
// first line that is not a comment).
inline std::vector<std::string> versions_in_header_comment(const std::string& path) {
  std::ifstream source(path);
  if (!source) throw std::runtime_error("cannot read " + path);
  const std::regex entry(R"(^//\s+(\d+)\s+(\w+)\s+(.+)$)");
  std::vector<std::string> listed;
  std::string line;
  while (std::getline(source, line) && line.rfind("//", 0) == 0) {
    std::smatch m;
    if (std::regex_match(line, m, entry)) listed.push_back(m[1].str() + " " + m[2].str() + " " + m[3].str());
  }
  return listed;
}

// "N name idea" for every entry of a registry whose entries have id, name and idea.
template <class Registry>
std::vector<std::string> versions_in_registry(const Registry& kernels) {
  std::vector<std::string> registered;
  for (const auto& k : kernels)
    registered.push_back(std::to_string(static_cast<int>(k.id)) + " " + k.name + " " + k.idea);
  return registered;
}
