// The checks chapter 10's GPU tests share: a GPU result against its fp64 reference under the
// library's tolerance (device_ssd.hpp), one forward against the fp64 recurrence, and one backward
// against the fp64 adjoint.
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

// One backward on the GPU, of sum(dy · y) with dy drawn from `dy_seed`, against the fp64 adjoint:
// every gradient the problem has. With `from_saved`, after a forward that keeps what it reads.
inline void check_backward(const ch10::ProblemSpec& spec, ssd::DataType type, ssd::Kernel kernel, unsigned seed,
                           unsigned dy_seed, bool from_saved = false) {
  INFO(name_of(type) << ", " << ssd::name_of(kernel) << ", " << describe(spec) << ", seed " << seed
                     << (from_saved ? ", from the forward's saved" : ""));
  const ch10::Problem p = ch10::as_gpu_sees(ch10::make_problem(spec, seed), type);
  const std::vector<double> dy = ch08::round_to(normals(p.x.size(), dy_seed), type);
  const ch10::Gradients got = ch10::gpu_backward(p, type, dy, kernel, from_saved), ref = ch10::ssd_backward(p, dy);
  check_tensor("dx", got.dx, ref.dx, type);
  check_tensor("ddt", got.ddt, ref.ddt, type);
  check_tensor("dA", got.dA, ref.dA, type);
  check_tensor("dB", got.dB, ref.dB, type);
  check_tensor("dC", got.dC, ref.dC, type);
  if (!p.D.empty()) check_tensor("dD", got.dD, ref.dD, type);
  if (!p.z.empty()) check_tensor("dz", got.dz, ref.dz, type);
  if (!p.dt_bias.empty()) check_tensor("ddt_bias", got.ddt_bias, ref.ddt_bias, type);
  if (!p.initial_states.empty()) check_tensor("dinitial_states", got.dinitial_states, ref.dinitial_states, type);
}

}  // namespace ch10_test
