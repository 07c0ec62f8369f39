// param_checks.hpp: the pieces of validate() that every entry point's checks share (the scan's in
// api.cpp, the step's in step_validate.cpp): type names and sizes, alignment, the first problem of
// a list. Each check returns one line, or "" when there is nothing to report.
#pragma once

#include "selective_scan.hpp"

#include <cstdint>
#include <initializer_list>
#include <string>

namespace selective_scan::detail {

inline const char* type_name(DataType type) {
  switch (type) {
    case DataType::float32: return "float32";
    case DataType::float16: return "float16";
    case DataType::bfloat16: return "bfloat16";
  }
  return "an unknown type";
}

inline std::int64_t element_bytes(DataType type) {
  switch (type) {
    case DataType::float32: return 4;
    case DataType::float16:
    case DataType::bfloat16: return 2;
  }
  return 0;
}
inline bool known(DataType type) { return element_bytes(type) != 0; }

inline std::string first_of(std::initializer_list<std::string> problems) {
  for (const auto& p : problems)
    if (!p.empty()) return p;
  return "";
}

// A pointer the kernels read or write element by element must sit on its elements' size (a
// misaligned load would stop the GPU's context, not return an error); the workspace holds
// 8-byte words and 16-byte atomic adds at 16-byte offsets.
inline std::string check_alignment(const void* data, std::int64_t bytes, const char* what) {
  if (!data || bytes < 1 || reinterpret_cast<std::uintptr_t>(data) % bytes == 0) return "";
  return std::string(what) + " is not on a " + std::to_string(bytes) + "-byte boundary";
}

}  // namespace selective_scan::detail
