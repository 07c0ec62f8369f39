// kernel_versions.hpp: chapter 08's kernel versions, for its program and --kernel N. The same
// list heads selective_scan/selective_scan.hpp (the library's enum class Kernel); a test reads
// that comment and checks that the two agree line for line.
#pragma once

#include "selective_scan.hpp"

namespace ch08 {

struct KernelInfo {
  selective_scan::Kernel id;
  const char* name;
  const char* idea;
};

inline constexpr KernelInfo kKernels[] = {
    {selective_scan::Kernel::naive, "naive", "one thread per (b, d, n), sequential in time"},
    {selective_scan::Kernel::blocked, "blocked",
     "the official structure: one block per (b, d), chunks, cub::BlockScan of pairs"},
    {selective_scan::Kernel::lanes, "lanes",
     "one lane per state, no block barrier; forward only (its backward is version 2's)"},
    {selective_scan::Kernel::registers, "registers",
     "K states a thread in registers, a decay without branches, a warp's B and C staged once"},
    {selective_scan::Kernel::checkpoints, "checkpoints",
     "a producer warp feeds the forward's walk through a shared-memory ring of bulk copies (sm_90); a backward from h "
     "checkpointed every 8 steps, fed by tensor copies: two exps a state step, none on the way back"},
};
inline constexpr int kKernelCount = static_cast<int>(sizeof kKernels / sizeof kKernels[0]);

// --kernel N and the tables index the registry by version number: version i sits at i − 1.
constexpr bool numbered_in_order() {
  for (int i = 0; i < kKernelCount; ++i)
    if (static_cast<int>(kKernels[i].id) != i + 1) return false;
  return true;
}
static_assert(numbered_in_order(), "kKernels must list versions 1, 2, ... in order");

inline const KernelInfo& info(selective_scan::Kernel k) { return kKernels[static_cast<int>(k) - 1]; }

}  // namespace ch08
