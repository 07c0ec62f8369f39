// device_facts.hpp: what the plans ask the driver about the current device -- its multiprocessor
// count, what it gives a block, and how many blocks of a kernel fit on one multiprocessor and
// which architecture its loaded code was built for -- asked once per device and kernel, then
// remembered (and the shared memory a kernel is allowed, set once). A plan is made on every call, and these answers never
// change while the program runs.
#pragma once

#include <optional>
#include <string>

namespace selective_scan::detail {

int current_device();
int multiprocessors();  // on the current device
// What the current device gives a block: its compute capability and the dynamic shared memory a
// kernel may be allowed (allow_shared_memory). Nothing where no device answers (a machine without
// a GPU): a plan's refusals then leave the call to its launch, which says why.
struct DeviceLimits {
  int major = 0, minor = 0;
  int shared_per_block_optin = 0;  // bytes
};
std::optional<DeviceLimits> device_limits();
// Lets `kernel` (a __global__ function's address) launch with `shared_bytes` of dynamic shared
// memory on the current device (past 48 KB it must be allowed): once, not on every call.
void allow_shared_memory(const void* kernel, int shared_bytes);
// Blocks of `kernel` that fit on one multiprocessor of the current device with `threads` threads
// and `shared_bytes` of dynamic shared memory.
int blocks_per_multiprocessor(const void* kernel, int threads, int shared_bytes);
// Why `kernel`, whose body exists only in code compiled for sm_90 or newer, cannot run on the
// current device ("" when it can): the build holds no such code (built_architectures()), or the
// code loaded for this device was compiled for an older architecture -- sm_80 code on any GPU,
// or PTX for sm_80 that the driver compiled for this one (its binary is sm_90, its body empty).
std::string sm90_code_refusal(const void* kernel);

}  // namespace selective_scan::detail
