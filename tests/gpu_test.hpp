// What the GPU test cases share.
//
// Catch2 v2 has no SKIP(): a [gpu] case that finds no usable GPU prints why and ends its
// process with exit code 77, which CTest (SKIP_RETURN_CODE 77) reports as skipped, never as
// passed. CTest runs every case in its own process, so only that case ends. (Running a test
// executable by hand on a machine without a GPU stops at its first [gpu] case.)
#pragma once

#include "gpu.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

#define REQUIRE_GPU()                                                   \
  do {                                                                  \
    std::string why_no_gpu;                                             \
    if (!::common::gpu_available(&why_no_gpu)) {                        \
      std::printf("SKIPPED: no usable GPU (%s)\n", why_no_gpu.c_str()); \
      std::fflush(stdout);                                              \
      std::_Exit(77);                                                   \
    }                                                                   \
  } while (0)
