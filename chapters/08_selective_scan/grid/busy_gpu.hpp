// busy_gpu.hpp: a kernel that keeps the GPU busy for a while, so that a call timed behind it is
// issued in full before the GPU reaches it: its events then measure the GPU's time alone, where
// an event-timed call from an idle GPU also counts the host's time to issue it (host_and_gpu).
#pragma once

namespace ch08::grid {

// Enqueues, on the default stream, one block that spins for `microseconds` of GPU time.
void keep_gpu_busy(double microseconds);

}  // namespace ch08::grid
