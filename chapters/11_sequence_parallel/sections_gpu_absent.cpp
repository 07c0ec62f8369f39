// Chapter 11's GPU sections where the build has no NCCL: one line each that says so.
#include "sections.hpp"

namespace ch11 {

void section_gpus(common::Notebook& nb) {
  nb.section("The sliced forward and backward on this machine's GPUs, through NCCL");
  nb.skip("the multi-GPU forward and backward", "this build has no NCCL (none found, or -DBOOK_NCCL=OFF)");
}

void section_scaling(common::Notebook& nb) {
  nb.section("One long sequence on 1, 2, 4 ... GPUs");
  nb.skip("the scaling", "this build has no NCCL (none found, or -DBOOK_NCCL=OFF)");
}

}  // namespace ch11
