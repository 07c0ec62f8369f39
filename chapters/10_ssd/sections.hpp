// The sections of chapter 10's program, in the order it runs them.
#pragma once

#include "notebook.hpp"

#include <string>

namespace ch10 {

void section_duality(common::Notebook& nb);     // [1] the scan as one matrix, on one head
void section_chunks(common::Notebook& nb);      // [2] the chunked algorithm against the recurrence
void section_trade(common::Notebook& nb);       // [3] FLOPs and bytes against the chunk size
void section_gpu_checks(common::Notebook& nb);  // [4] the library's versions against fp64
// [5] the versions against the official Triton kernels (official_csv: triton_bench.py ssd's, or empty)
void section_benchmark(common::Notebook& nb, const std::string& official_csv);
// [6] version 2 against its chunk size; version 3 against the official kernels on a grid of shapes
void section_across_shapes(common::Notebook& nb, const std::string& official_csv);

// Milliseconds as sections [5] and [6] print them in their tables: three decimals.
std::string ms(double milliseconds);

}  // namespace ch10
