// Kernel::automatic's rule: per call, the body measured fastest among those that take it.
#include "plan.hpp"

namespace selective_scan::detail {

Route automatic_forward(const ScanArgs& args, bool is_complex, DataType) {
  if (const std::string no = ring_forward_refusal(args, is_complex); no.empty())
    return {Kernel::checkpoints, "version 5 takes it"};
  else return {Kernel::registers, "version 4 (version 5 refuses " + no + ")"};
}

Route automatic_backward(const ScanArgs& args, bool is_complex, DataType) {
  const std::string no5 = checkpoints_backward_refusal(args, is_complex);
  if (no5.empty()) return {Kernel::checkpoints, "version 5 takes it"};
  const std::string no4 = registers_backward_refusal(args, is_complex);
  if (no4.empty()) return {Kernel::registers, "version 4 (version 5 refuses " + no5 + ")"};
  return {Kernel::blocked, "version 2 (version 5 refuses " + no5 + ", version 4 " + no4 + ")"};
}

}  // namespace selective_scan::detail
