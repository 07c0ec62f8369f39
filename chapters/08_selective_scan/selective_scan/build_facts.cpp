// build_facts.cpp: what this build of the library holds, from how it was configured. CMake passes
// the architectures to this file alone (CMakeLists.txt), so that choosing others recompiles one
// file's definitions, not the library's.
#include "plan.hpp"
#include "selective_scan.hpp"

#include <string>

#ifndef SELECTIVE_SCAN_ARCHITECTURES
#error "SELECTIVE_SCAN_ARCHITECTURES is set by CMakeLists.txt: the build's CUDA architectures"
#endif
#ifndef SELECTIVE_SCAN_SM90
#error "SELECTIVE_SCAN_SM90 is set by CMakeLists.txt: 1 when an architecture is 90 or newer"
#endif

namespace selective_scan {

const char* built_architectures() { return SELECTIVE_SCAN_ARCHITECTURES; }

bool version_built(Kernel k) {
  if (k == Kernel::automatic) return true;
  if (!version_of(k)) return false;
  // Version 5's kernels have their bodies only where __CUDA_ARCH__ >= 900 (its bulk and tensor
  // copies, mbarriers); every other version compiles for any architecture from sm_80 on.
  return k != Kernel::ring || SELECTIVE_SCAN_SM90;
}

namespace detail {

std::string not_built(Kernel k) {
  return "version " + std::to_string(int(k)) +
         " needs code for sm_90 or newer, and this build's CUDA architectures are " + built_architectures() +
         " (configure with -DCMAKE_CUDA_ARCHITECTURES=90, or \"80;90\", to build it)";
}

}  // namespace detail
}  // namespace selective_scan
