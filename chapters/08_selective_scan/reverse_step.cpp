// One step of the backward's reverse scan (exercise 2's solution).
#include "reference.hpp"

namespace ch08 {

ReverseStep reverse_step(Complex A_bar, Complex c, Complex q_next) {
  const Complex g = c + q_next;      // dL/dh_t: directly through y_t, and through h_{t+1}
  return {g, std::conj(A_bar) * g};  // h_t = Ā_t h_{t−1} + …: h_{t−1} gets conj(Ā_t) g_t
}

}  // namespace ch08
