// What chapter 08's GPU test cases need to know about version 5: whether this build holds it
// (selective_scan::version_built: an architecture from sm_90) and whether this GPU runs it. A
// build for sm_80 alone, or an Ampere or Ada card, runs every other version's cases; a case of
// version 5's own then ends as skipped (exit 77, as gpu_test.hpp's do), saying why.
#pragma once

#include "gpu_test.hpp"
#include "selective_scan.hpp"

#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

namespace ch08_test {

// Why version 5 cannot run here ("" when it can). Asks the GPU: call after REQUIRE_GPU().
inline std::string why_no_version_5() {
  using selective_scan::Kernel;
  if (!selective_scan::version_built(Kernel::ring))
    return std::string("this build's CUDA architectures are ") + selective_scan::built_architectures() +
           ", and version 5 needs sm_90";
  const common::DeviceInfo& d = common::gpu_status().device;
  if (d.compute_major < 9)
    return d.name + " is sm_" + std::to_string(d.compute_major) + std::to_string(d.compute_minor) +
           ", and version 5 needs sm_90";
  return "";
}

// The versions of `wanted` that this build holds (an explicit version it lacks throws Error).
inline std::vector<selective_scan::Kernel> built(std::initializer_list<selective_scan::Kernel> wanted) {
  std::vector<selective_scan::Kernel> kept;
  for (selective_scan::Kernel k : wanted)
    if (selective_scan::version_built(k)) kept.push_back(k);
  return kept;
}

// Every explicit version this build holds, and the default: automatic's choice must pass the
// same checks.
inline std::vector<selective_scan::Kernel> every_version() {
  using selective_scan::Kernel;
  return built({Kernel::naive, Kernel::blocked, Kernel::lanes, Kernel::registers, Kernel::ring, Kernel::automatic});
}

}  // namespace ch08_test

#define REQUIRE_VERSION_5()                                             \
  do {                                                                  \
    REQUIRE_GPU();                                                      \
    const std::string why_no_version_5 = ch08_test::why_no_version_5(); \
    if (!why_no_version_5.empty()) {                                    \
      std::printf("SKIPPED: %s\n", why_no_version_5.c_str());           \
      std::fflush(stdout);                                              \
      std::_Exit(77);                                                   \
    }                                                                   \
  } while (0)
