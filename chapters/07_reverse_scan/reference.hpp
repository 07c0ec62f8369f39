// Chapter 07's fp64 CPU reference: the linear recurrence h_k = a_k h_{k−1} + b_k (h_{−1} = 0),
// and its gradients, for many independent sequences at once.
//
// Layout: `sequences` sequences of `length` steps each, sequence s at [s·length, (s+1)·length).
// In Mamba the sequences are batch × channels × states; each one is its own recurrence.
// `dy` holds ∂L/∂h_k as far as the loss sees h_k directly (the local part); g_k is the total
// derivative, which also counts every later step that h_k feeds.
#pragma once

#include <cstddef>
#include <span>
#include <vector>

namespace rscan {

struct Shape {
  std::size_t sequences = 1;
  std::size_t length = 1;
  std::size_t size() const { return sequences * length; }
};

struct Gradients {
  std::vector<double> g;       // ∂L/∂h_k (total) = ∂L/∂b_k
  std::vector<double> grad_a;  // ∂L/∂a_k = g_k h_{k−1}
};

// h_k = a_k h_{k−1} + b_k along each sequence, in order.
std::vector<double> forward(Shape shape, std::span<const double> a, std::span<const double> b);

// The reverse pass: g_k = dy_k + a_{k+1} g_{k+1}, walking each sequence from its end (g past
// the end is 0), then ∂L/∂a_k from g and h.
Gradients backward(Shape shape, std::span<const double> a, std::span<const double> h, std::span<const double> dy);

// The loss the finite differences differentiate: L = Σ_k log cosh(h_k − t_k), so that the local
// gradient is dy_k = tanh(h_k − t_k). Not a square on purpose: a square is quadratic in each a_k
// and b_k (h is affine in each of them), and a central difference of a quadratic has no
// truncation error to see.
double log_cosh_loss(std::span<const double> h, std::span<const double> target);
std::vector<double> log_cosh_loss_gradient(std::span<const double> h, std::span<const double> target);

// Central differences (L(θ + ε) − L(θ − ε)) / 2ε of that loss, for every a_k and b_k.
Gradients finite_differences(Shape shape, std::span<const double> a, std::span<const double> b,
                             std::span<const double> target, double step);

// Exercise 1 (reverse_pass.cpp): g_k = dy_k + a_{k+1} g_{k+1}, from the end of each sequence.
std::vector<double> reverse_pass(Shape shape, std::span<const double> a, std::span<const double> dy);

// Exercise 2 (grad_a.cpp): ∂L/∂a_k = g_k h_{k−1}, with h_{−1} = 0 at the start of each sequence.
std::vector<double> grad_a_from(Shape shape, std::span<const double> g, std::span<const double> h);

}  // namespace rscan
