// Chapter 06's CPU side: the fp64 reference of h_k = a_k h_{k-1} + b_k (h_{-1} = 0), the fp32
// loop and the fp32 tree it is compared with, the EMA's coefficients, and the inputs.
#pragma once

#include "pair.hpp"

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ema {

// One problem: `batch` independent sequences of `length` steps, stored one after the other
// (element k of sequence s at s·length + k), the way Mamba lays out (batch, L).
struct Problem {
  std::size_t batch = 1;
  std::size_t length = 0;
  std::vector<float> a, b;
  std::size_t size() const { return batch * length; }
};

// a_k uniform in [a_lo, a_hi), b_k uniform in [-1, 1).
Problem random_problem(std::size_t batch, std::size_t length, double a_lo, double a_hi, std::uint64_t seed);
// The EMA h_k = α h_{k-1} + (1 − α) x_k as the recurrence: a_k = α, b_k = (1 − α) x_k.
Problem ema_problem(double alpha, std::span<const float> x);

// The sequential loop in fp64, every sequence from h = 0: the reference of every check.
std::vector<double> recurrence_reference(const Problem& p);
// The same loop in fp32: what a one-thread kernel computes.
std::vector<float> recurrence_fp32(const Problem& p);
// A parallel scan's order in fp32: a balanced tree of combine() over each sequence (each half
// scanned, then the left half's total composed into every element of the right half).
std::vector<float> recurrence_tree_fp32(const Problem& p);

// The running products a_0 a_1 ... a_k of one sequence, in fp32 and in fp64.
std::vector<float> running_product_fp32(std::span<const float> a);
std::vector<double> running_product_fp64(std::span<const float> a);

// The impulse response of the EMA: x = (1, 0, 0, ...) gives h_k = (1 − α) α^k.
double ema_impulse_response(double alpha, std::size_t k);

// Exercise 1 (exercises/compose_maps.cpp): the pair operator, written out in fp64.
Pair<double> compose_maps(Pair<double> first, Pair<double> second);
// Exercise 2 (exercises/carry_into_chunk.cpp): a chunk's local results (its inclusive scan
// started from h = 0) corrected with the state before the chunk: h_k = A_k·h_before + B_k,
// where (A_k, B_k) is the chunk's inclusive scan of pairs.
std::vector<double> carry_into_chunk(std::span<const Pair<double>> chunk_scan, double h_before);

}  // namespace ema
