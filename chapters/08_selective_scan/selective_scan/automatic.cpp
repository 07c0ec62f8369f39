// Kernel::automatic's rule: per call and direction, the version measured fastest for the
// call's shape (the sweep and its table: chapter 8c, the library's page; the figures behind each
// branch, with their GPUs and dates: appendix A, "The measurements behind the library's rules").
// The regimes:
//   - short sequences (seqlen <= 64): version 4, whose blocks start and finish soonest;
//   - enough work items to fill the GPU (version 5's blocks of channels, times the time segments
//     it cuts long sequences into, at least half the multiprocessors): version 5, else version 4
//     where version 5 refuses the call;
//   - too few items: version 5 still where it cuts the sequences into time segments (from 512
//     steps, or from 256 where the groups leave multiprocessors without a block: up to 64
//     segments of at least 64 steps (of one tile where they all fit: below 512 steps in the
//     forward, up to 64 of them in the backward), each walked by a block of its own; the forward
//     given its workspace, the backward within its own); else past 256 steps version 2, one block
//     per channel that scans each chunk of 2048 steps in parallel across its threads, and up to
//     256 steps version 4's forward;
//   - few states: version 2 loops over the states a call has; version 5's lanes walk 1, 2 or 4
//     of them (v5_ring_forward.cu, few_states), version 4's 16 whatever dstate is. So at one
//     state version 2's backward is the faster; at two, version 5's by a little; and past 256
//     steps with channel groups fewer than the multiprocessors (where version 5 would cut the
//     sequences), version 2 takes both directions up to 4 states, version 5 from 8.
//   - many states: past 16, version 5's forward takes wider layouts (v5_ring_forward.cu,
//     many_states) and wins wherever its blocks fill the GPU. With few channels and its workspace
//     it walks slices of 16 states cut into segments, which the same two branches choose; without
//     the workspace version 2 keeps those calls. Version 5's backward walks slices of 16 states in
//     blocks of their own, so the rule that fills the GPU with its items gives it those calls too.
#include "device_facts.hpp"
#include "plan.hpp"

namespace selective_scan::detail {
namespace {

constexpr std::int64_t kShortSequence = 64;    // steps: version 4 below
constexpr std::int64_t kMediumSequence = 256;  // steps: past this, few items go to version 2
constexpr int kOneState = 1;                   // states: version 2's backward up to this
constexpr int kFewStatesToCut = 4;             // states: version 2 up to this where version 5 would cut

// Items enough to keep the GPU busy: half its multiprocessors.
bool fills_device(std::int64_t items) { return 2 * items >= multiprocessors(); }
// Past 256 steps, channel groups too few to give each multiprocessor a block of version 5 (it
// would cut the sequences), and few states: version 2, time in parallel within a channel.
bool few_channels_and_states(const ScanArgs& args) {
  return args.seqlen > kMediumSequence && args.dstate <= kFewStatesToCut &&
         ring_forward_items(args, 1) < multiprocessors();
}

}  // namespace

// [snippet:automatic_rule]
Route automatic_forward(const ScanArgs& args, bool is_complex, int ring_segments) {
  if (args.seqlen <= kShortSequence) return {Kernel::registers, "version 4: a short sequence"};
  if (few_channels_and_states(args)) return {Kernel::blocked, "version 2: few channels and states, a long sequence"};
  const std::string refusal = ring_forward_refusal(args, is_complex);
  if (refusal.empty()) {
    if (fills_device(ring_forward_items(args, ring_segments))) return {Kernel::ring, "version 5: enough work items"};
    if (ring_segments > 1) return {Kernel::ring, "version 5: few channels, a long sequence cut into segments"};
  } else if (fills_device(registers_forward_blocks(args))) {
    return {Kernel::registers, "version 4: enough blocks (version 5 refuses " + refusal + ")"};
  }
  if (args.seqlen <= kMediumSequence) return {Kernel::registers, "version 4: few channels, a short sequence"};
  return {Kernel::blocked, "version 2: few channels, a long sequence (time in parallel within a channel)"};
}

Route automatic_backward(const ScanArgs& args, bool is_complex, const BackwardGrid& ring_grid) {
  const std::string refusal5 = checkpoints_backward_refusal(args, is_complex);
  const std::string refusal4 = registers_backward_refusal(args, is_complex);
  if (args.seqlen <= kShortSequence && refusal4.empty()) return {Kernel::registers, "version 4: a short sequence"};
  if (args.dstate <= kOneState) return {Kernel::blocked, "version 2: one state"};
  if (few_channels_and_states(args)) return {Kernel::blocked, "version 2: few channels and states, a long sequence"};
  if (refusal5.empty() && fills_device(checkpoints_backward_items(args, ring_grid)))
    return {Kernel::ring, "version 5: enough work items"};
  if (refusal5.empty() && ring_grid.segments > 1)
    return {Kernel::ring, "version 5: few channels, a long sequence cut into segments"};
  if (!refusal5.empty() && refusal4.empty() && fills_device(registers_backward_items(args)))
    return {Kernel::registers, "version 4: enough blocks (version 5 refuses " + refusal5 + ")"};
  if (refusal4.empty() || refusal5.empty()) return {Kernel::blocked, "version 2: few channels"};
  return {Kernel::blocked, "version 2: versions 4 and 5 refuse " + refusal4};
}
// [/snippet:automatic_rule]

namespace {
// Either direction of a packed call: version 5 where it takes the call (`refusal` empty) and its
// work items fill the GPU or it cuts the sequence into segments (`fills_or_cuts`, asked only then),
// as it would take it unpacked.
template <class FillsOrCuts>
Route automatic_packed(const std::string& refusal, FillsOrCuts fills_or_cuts) {
  if (refusal.empty() && fills_or_cuts()) return {Kernel::ring, "version 5: packed sequences"};
  if (!refusal.empty()) return {Kernel::blocked, "version 2: packed sequences (version 5 refuses " + refusal + ")"};
  return {Kernel::blocked, "version 2: packed sequences, few channels"};
}
}  // namespace

Route automatic_packed_forward(const ScanArgs& args, bool is_complex, int ring_segments) {
  return automatic_packed(ring_forward_refusal(args, is_complex),
                          [&] { return fills_device(ring_forward_items(args, ring_segments)) || ring_segments > 1; });
}
Route automatic_packed_backward(const ScanArgs& args, bool is_complex, const BackwardGrid& ring_grid) {
  return automatic_packed(checkpoints_backward_refusal(args, is_complex), [&] {
    return fills_device(checkpoints_backward_items(args, ring_grid)) || ring_grid.segments > 1;
  });
}

}  // namespace selective_scan::detail
