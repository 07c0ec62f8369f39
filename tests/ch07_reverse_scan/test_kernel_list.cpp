// The version list in reverse_kernels.cu's header comment is the one the book and --help show;
// it must name exactly the versions in rscan::kKernels, in order, with the same words.
#include "reverse_kernels.hpp"

#include <catch2/catch.hpp>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

TEST_CASE("the header comment of reverse_kernels.cu lists exactly the kernel versions") {
  std::ifstream source(CH07_KERNEL_SOURCE);
  REQUIRE(source);
  const std::regex entry(R"(^//\s+(\d+)\s+(\w+)\s+(.+)$)");
  std::vector<std::string> listed;
  std::string line;
  while (std::getline(source, line) && line.rfind("//", 0) == 0) {
    std::smatch m;
    if (std::regex_match(line, m, entry)) listed.push_back(m[1].str() + " " + m[2].str() + " " + m[3].str());
  }
  std::vector<std::string> registered;
  for (const auto& k : rscan::kKernels)
    registered.push_back(std::to_string(static_cast<int>(k.id)) + " " + k.name + " " + k.idea);
  CHECK(listed == registered);
}
