// The checks chapter 10's GPU tests share: a GPU result against its fp64 reference under the
// library's tolerance (device_ssd.hpp), and one forward against the fp64 recurrence.
#pragma once

#include "ch10_test_support.hpp"
#include "device_problem.hpp"
#include "device_ssd.hpp"
#include "ssd.hpp"
#include "ssd_reference.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

namespace ch10_test {

inline const char* name_of(ssd::DataType t) {
  return t == ssd::DataType::float32 ? "fp32" : t == ssd::DataType::float16 ? "fp16" : "bf16";
}

inline void check_tensor(const char* what, const std::vector<double>& got, const std::vector<double>& ref,
                         ssd::DataType type) {
  CHECK_CLOSE(what, common::compare(got, ref, ch10::gpu_tolerance(type, ref)));
}

// One forward on the GPU against the fp64 recurrence of the same (rounded) inputs.
inline void check_forward(const ch10::ProblemSpec& spec, ssd::DataType type, ssd::Kernel kernel,
                          std::int64_t chunk_size, unsigned seed) {
  INFO(name_of(type) << ", " << ssd::name_of(kernel) << ", chunk " << chunk_size << ", " << describe(spec) << ", seed "
                     << seed);
  const ch10::Problem p = ch10::as_gpu_sees(ch10::make_problem(spec, seed), type);
  const ch10::Forward got = ch10::gpu_forward(p, type, kernel, chunk_size), ref = ch10::ssd_recurrence(p);
  check_tensor("y", got.y, ch08::round_to(ref.y, type), type);
  check_tensor("final states", got.final_states, ref.final_states, type);
}

}  // namespace ch10_test
