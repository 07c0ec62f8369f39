// Chapter 11's GPU section where the build found no NCCL: one line that says so.
#include "sections.hpp"

namespace ch11 {

void section_gpus(common::Notebook& nb) {
  nb.section("The sliced forward on this machine's GPUs, through NCCL");
  nb.skip("the multi-GPU forward", "this build has no NCCL (none found, or -DBOOK_NCCL=OFF)");
}

}  // namespace ch11
