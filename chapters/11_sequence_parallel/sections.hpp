// The sections of chapter 11's program, in the order it runs them.
#pragma once

#include "notebook.hpp"

namespace ch11 {

void section_summaries(common::Notebook& nb);  // [1] what a slice hands on, and the fold
void section_sliced(common::Notebook& nb);     // [2] the sliced scan against the whole, fp64
void section_traffic(common::Notebook& nb);    // [3] passing states against moving channels
void section_gpus(common::Notebook& nb);       // [4] the sliced forward on this machine's GPUs
void section_scaling(common::Notebook& nb);    // [5] one long sequence on 1, 2, 4 ... GPUs

}  // namespace ch11
