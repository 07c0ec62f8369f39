// ch10_ab_probe --shape TYPE:batch,seqlen,heads,head_dim,groups,dstate ... --out DIR: one version's
// forward and forward + backward on the shapes given, timed as chapter 10's benchmark times them
// (the Mamba2 module's call: D a head, z, dt_bias and softplus on; the L2 flushed first, the
// median of 10 calls after 3 warm-ups; the backward after a forward that keeps `saved`), into
// DIR/grid.csv. scripts/ab-kernels (LIBRARY=ssd) links it twice, against today's library and
// against one with some objects compiled from an older tree, and runs the two in turns.
// Not a test; without a GPU it says so and exits 77.
#include "device_ssd.hpp"
#include "dtype_named.hpp"
#include "gpu.hpp"
#include "notebook.hpp"
#include "official_ssd.hpp"
#include "results_csv.hpp"
#include "timing.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

// "bf16:1,2048,80,64,1,128": the type, then batch, seqlen, heads, head_dim, groups, dstate.
ch10::BenchShape shape_named(const std::string& text) {
  const std::size_t colon = text.find(':');
  const std::string type = text.substr(0, colon);
  std::vector<std::int64_t> sizes;
  std::istringstream in(colon == std::string::npos ? "" : text.substr(colon + 1));
  for (std::string part; std::getline(in, part, ',');) {
    std::size_t used = 0;
    long long size = 0;
    try {
      size = std::stoll(part, &used);
    } catch (const std::exception&) {  // not a number: `used` stays 0
    }
    if (used == 0 || used != part.size() || size < 1) {
      sizes.clear();
      break;
    }
    sizes.push_back(size);
  }
  if (sizes.size() != 6 || (type != "fp32" && type != "fp16" && type != "bf16"))
    throw std::invalid_argument("--shape " + text + ": want TYPE:batch,seqlen,heads,head_dim,groups,dstate, " +
                                "TYPE fp32, fp16 or bf16 and each size a positive whole number");
  ch10::BenchShape s;
  s.dtype = type, s.batch = sizes[0], s.seqlen = sizes[1];
  s.heads = int(sizes[2]), s.head_dim = int(sizes[3]), s.groups = int(sizes[4]), s.dstate = int(sizes[5]);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Chapter 10's library, one version timed on the shapes given (for scripts/ab-kernels)"};
  std::vector<std::string> shapes;
  std::string out;
  int kernel = int(ssd::Kernel::fused);
  app.add_option("--shape", shapes, "TYPE:batch,seqlen,heads,head_dim,groups,dstate (fp32, fp16, bf16)")->required();
  app.add_option("--out", out, "the folder for grid.csv")->required();
  app.add_option("--kernel", kernel, "the version (0 automatic, 1-4)")->check(CLI::Range(0, 4));
  CLI11_PARSE(app, argc, argv);
  try {
    std::vector<ch10::BenchShape> parsed;
    for (const std::string& s : shapes) parsed.push_back(shape_named(s));
    std::string why_not;
    if (!common::gpu_available(&why_not)) {
      std::cout << "ch10_ab_probe: skipped, it times GPU kernels: " << why_not << "\n";
      return 77;
    }
    std::filesystem::create_directories(out);
    common::ResultsCsv csv(
        out + "/grid.csv", common::gpu_status().device.name, common::today(),
        {"dtype", "batch", "seqlen", "heads", "head_dim", "groups", "dstate", "kernel", "fwd_ms", "fwd_bwd_ms"});
    common::GpuTimer timer({3, 10, true});
    const auto version = ssd::Kernel(kernel);
    for (const ch10::BenchShape& s : parsed) {
      const ch10::ProblemSpec spec = s.problem();
      const ssd::DataType type = ch10_test::dtype_named(s.dtype);
      if (const std::string why = ch10::gpu_refusal(spec.shape, type, version); !why.empty())
        throw std::runtime_error(s.label() + ": " + why);
      const double forward = ch10::time_gpu_forward(spec, type, version, s.chunk, timer).median_ms;
      const bool backward = ch10::gpu_backward_refusal(spec.shape, type, version).empty();
      const double both = backward ? ch10::time_gpu_forward_backward(spec, type, version, timer).median_ms : 0.0;
      csv.row({s.dtype, std::to_string(s.batch), std::to_string(s.seqlen), std::to_string(s.heads),
               std::to_string(s.head_dim), std::to_string(s.groups), std::to_string(s.dstate), std::to_string(kernel),
               fmt::format("{:.4f}", forward), backward ? fmt::format("{:.4f}", both) : ""});
      fmt::print("{}: forward {:.4f} ms, forward + backward {}\n", s.label(), forward,
                 backward ? fmt::format("{:.4f} ms", both) : "(no backward)");
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "ch10_ab_probe: " << e.what() << "\n";
    return 1;
  }
}
