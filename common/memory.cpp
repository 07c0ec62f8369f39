#include "memory.hpp"

#include "common_options.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <string>

#include <unistd.h>

namespace common {
namespace {

// The first number in `path` (a /proc or /sys file), or a negative value when there is none:
// an absent file, or "max" for a cgroup without a limit.
double read_number(const std::string& path) {
  std::ifstream in(path);
  double value = -1;
  return in >> value ? value : -1;
}

// MemAvailable from /proc/meminfo, in bytes; free physical pages where that is missing.
double kernel_available() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  double kib = 0;
  std::string unit;
  while (meminfo >> key >> kib >> unit)
    if (key == "MemAvailable:") return kib * 1024;
  return static_cast<double>(sysconf(_SC_AVPHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGESIZE));
}

// Room left under the cgroup's memory limit (cgroup v2, then v1), or a negative value.
double cgroup_room() {
  for (const auto& [limit, usage] :
       {std::pair{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"},
        std::pair{"/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.usage_in_bytes"}}) {
    const double max = read_number(limit), used = read_number(usage);
    if (max > 0 && used >= 0 && max < 1e18) return std::max(0.0, max - used);  // v1 says "no limit" as 2^63
  }
  return -1;
}

}  // namespace

double available_host_memory() {
  const double available = kernel_available();
  const double room = cgroup_room();
  return room >= 0 ? std::min(available, room) : available;
}

void require_host_memory(double bytes, const std::string& options) {
  const double available = available_host_memory();
  if (bytes > available) {
    throw OptionError(fmt::format("{} needs {} of host memory, but only {} is available: make them smaller", options,
                                  format_bytes(bytes), format_bytes(available)));
  }
}

std::string format_bytes(double bytes) {
  constexpr double kMiB = 1024.0 * 1024.0, kGiB = 1024.0 * kMiB;
  if (bytes >= kGiB) return fmt::format("{:.2f} GiB", bytes / kGiB);
  if (bytes >= kMiB) return fmt::format("{:.1f} MiB", bytes / kMiB);
  return fmt::format("{:.0f} bytes", bytes);
}

}  // namespace common
