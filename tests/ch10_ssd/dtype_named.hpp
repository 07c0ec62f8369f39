// The type a name ("fp32", "fp16", "bf16") stands for, in the programs beside chapter 10's tests
// that read it from a file or a command line (ch10_official_accuracy, ch10_ab_probe).
#pragma once

#include "ssd.hpp"

#include <stdexcept>
#include <string>

namespace ch10_test {

inline ssd::DataType dtype_named(const std::string& dtype) {
  if (dtype == "fp32") return ssd::DataType::float32;
  if (dtype == "fp16") return ssd::DataType::float16;
  if (dtype == "bf16") return ssd::DataType::bfloat16;
  throw std::runtime_error("unknown dtype " + dtype);
}

}  // namespace ch10_test
