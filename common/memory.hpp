// Sizes each in range can still multiply into more memory than the machine has: a chapter
// checks the product before it allocates, and names the options to reduce, instead of ending
// in std::bad_alloc (host) or an out-of-memory error from CUDA (see require_device_memory in
// gpu.hpp).
#pragma once

#include <string>

namespace common {

// Bytes of host memory a program can allocate now: the smaller of the kernel's MemAvailable
// and the room left under the cgroup's memory limit, when there is one.
double available_host_memory();

// Throws OptionError (exit code 2 from run_chapter) when `bytes` exceed available_host_memory().
// `options` names the options whose product sets the size, e.g. "--batch × --length". A
// double, so that a product of sizes each in range cannot overflow before it is checked.
void require_host_memory(double bytes, const std::string& options);

// "1.50 GiB", "12.0 MiB", "512 bytes": a size for messages.
std::string format_bytes(double bytes);

}  // namespace common
