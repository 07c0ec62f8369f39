// decay.hpp: Abar = exp(delta A), the one exponential per state and step. Host and device
// compile the same code, so a CPU test measures what the kernels compute near 0 (past |x| = 0.1
// each side calls its own exp).
#pragma once

#include <cmath>

#ifdef __CUDACC__
#define SELECTIVE_SCAN_HOST_DEVICE __host__ __device__
#else
#define SELECTIVE_SCAN_HOST_DEVICE
#endif

namespace selective_scan::detail {

// [snippet:decay]
// Abar = exp(x) for x = delta A, one per state element. A state with A near 0 remembers
// thousands of steps, so a *biased* error in Abar piles up: measured on an H200 for x in
// [-1e-3, -1e-4], expf is on average 0.26 ulp high and exp2f(x log2 e) 0.09 ulp low, and one ulp
// of bias moves an output of the official test suite's grid by 3%. Near 0 we write Abar = 1 + e
// with e = expm1(x) from its Taylor series to x^5 (the x^6 term is below 1.4e-9 for |x| < 0.1),
// which rounds to nearest on average (a test measures it); where |x| >= 0.1 the decay is fast,
// nothing piles up, and expf is fine.
SELECTIVE_SCAN_HOST_DEVICE inline float decay(float x) {
  if (std::fabs(x) >= 0.1f) return std::exp(x);
  float e = std::fma(x, 1.f / 120, 1.f / 24);
  e = std::fma(x, e, 1.f / 6);
  e = std::fma(x, e, 0.5f);
  e = std::fma(x, e, 1.f);
  return std::fma(x, e, 1.f);
}
// [/snippet:decay]

// [snippet:decay_exp2]
// The same decay in fewer instructions, for version 4, where it is most of the work: the
// kernel scales A by log2(e) once per state, so each step costs one multiply for y = delta A
// log2(e) and then 2^y. Far from 0 that is the hardware's ex2.approx (one MUFU instruction; its
// small bias cannot pile up where the state forgets within 16 steps). Near 0, |x| < 1/16, it is
// the Taylor series of exp(y ln 2) to degree 4: the x^5/120 it drops is at most 0.13 ulp there,
// and leaves a bias of +0.022 ulp on average (the tests measure it), a tenth of expf's. Both
// are computed and one is selected, so the lanes of a warp never diverge.
SELECTIVE_SCAN_HOST_DEVICE inline float decay_exp2(float y) {
  constexpr float kSeriesBound = 0.0625f * 1.44269504f;  // |x| < 1/16 in y = x log2(e)
  constexpr double kLn2 = 0.69314718055994531;
  float e = std::fma(y, float(kLn2 * kLn2 * kLn2 * kLn2 / 24), float(kLn2 * kLn2 * kLn2 / 6));
  e = std::fma(y, e, float(kLn2 * kLn2 / 2));
  e = std::fma(y, e, float(kLn2));
  const float series = std::fma(y, e, 1.f);
#ifdef __CUDA_ARCH__
  // In PTX, so that the compiler cannot turn the choice into a branch around one of the two.
  float power, chosen;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(power) : "f"(y));
  asm("{ .reg .pred near; setp.lt.f32 near, %1, %2; selp.f32 %0, %3, %4, near; }"
      : "=f"(chosen)
      : "f"(std::fabs(y)), "f"(kSeriesBound), "f"(series), "f"(power));
  return chosen;
#else
  return std::fabs(y) < kSeriesBound ? series : std::exp2(y);
#endif
}
// [/snippet:decay_exp2]

// [snippet:decay_exp2_fast]
// The decay as the hardware's 2^y alone (ex2.approx: one MUFU instruction after the multiply),
// for the walks of fp16 and bf16 inputs. Its error is a few units in fp32's last place, with a
// small bias; an output rounded to fp16 or bf16 carries an error of 2^-11 or 2^-8 of itself, far
// above what that bias piles up, so the five instructions that make decay_exp2 round to nearest
// buy these types nothing (appendix A: "The decay by type").
SELECTIVE_SCAN_HOST_DEVICE inline float decay_exp2_fast(float y) {
#ifdef __CUDA_ARCH__
  float power;
  asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(power) : "f"(y));
  return power;
#else
  return std::exp2(y);
#endif
}
// [/snippet:decay_exp2_fast]

}  // namespace selective_scan::detail
