// device_facts.hpp: what the plans ask the driver about the current device -- its multiprocessor
// count, and how many blocks of a kernel fit on one multiprocessor and which architecture its
// loaded code was built for -- asked once per device and kernel, then remembered (and the shared
// memory a kernel is allowed, set once). A plan is made on every call, and these answers never
// change while the program runs.
#pragma once

namespace selective_scan::detail {

int current_device();
int multiprocessors();  // on the current device
// Lets `kernel` (a __global__ function's address) launch with `shared_bytes` of dynamic shared
// memory on the current device (past 48 KB it must be allowed): once, not on every call.
void allow_shared_memory(const void* kernel, int shared_bytes);
// Blocks of `kernel` that fit on one multiprocessor of the current device with `threads` threads
// and `shared_bytes` of dynamic shared memory.
int blocks_per_multiprocessor(const void* kernel, int threads, int shared_bytes);
// The architecture (major * 10 + minor) of the code loaded for `kernel` on the current device:
// below 90, the body of an sm_90-only kernel was compiled out.
int binary_version(const void* kernel);

}  // namespace selective_scan::detail
