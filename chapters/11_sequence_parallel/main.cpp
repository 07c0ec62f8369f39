// ch11_sequence_parallel -- Chapter 11 (in progress): one sequence across the GPUs of a host.
//
// A sequence too long for one GPU is cut into slices, one a GPU. Each GPU scans its slice from
// zero and hands on a summary (the product of its decays and the state it leaves); one
// all-gather gives every GPU every summary, each folds those before its own into the state
// entering its slice and scans the slice again from there. This program checks that in fp64,
// weighs it against moving channels instead, and runs it through NCCL where there are GPUs.
// Run with --help for the options.
#include "chapter_main.hpp"
#include "sections.hpp"

int main(int argc, char** argv) {
  return common::run_chapter(
      {"ch11_sequence_parallel", "Chapter 11 · One sequence across GPUs"}, argc, argv, [](CLI::App&) {},
      [](common::Notebook& nb) {
        ch11::section_summaries(nb);
        ch11::section_sliced(nb);
        ch11::section_traffic(nb);
        ch11::section_gpus(nb);
        ch11::section_scaling(nb);
      });
}
