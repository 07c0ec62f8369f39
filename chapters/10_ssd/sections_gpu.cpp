// Chapter 10's GPU section: the library's versions against the fp64 recurrence.
#include "common_options.hpp"
#include "device_problem.hpp"
#include "device_ssd.hpp"
#include "sections.hpp"
#include "ssd_reference.hpp"

#include <fmt/format.h>

#include <cmath>
#include <string>
#include <utility>
#include <vector>

namespace ch10 {

void section_gpu_checks(common::Notebook& nb) {
  nb.section("The library's versions against fp64");
  nb.text(
      "Version 1 runs chapter 08's scan with one A a head (forward and backward); version 2 the chunked algorithm, "
      "its products on cuBLAS (forward; its backward is version 1's); version 3 the same fused into one kernel on "
      "the tensor cores, forward and backward (fp32 as bf16 pairs); version 4 version 3's forward on "
      "Hopper's warpgroup products (16-bit inputs). Each on b 2, L 2100, 6 heads of 16 channels in 3 groups, 64 "
      "states, every option, outputs poisoned first, against the fp64 recurrence of the inputs rounded as the GPU "
      "holds them.");
  if (!nb.gpu()) return nb.gpu_skip("the GPU checks");
  ProblemSpec spec;
  spec.shape = {2, 2100, 6, 16, 3, 64};
  spec.D = DForm::per_head, spec.z = spec.dt_softplus = spec.dt_bias = spec.initial_states = true;
  for (const ssd::DataType type : {ssd::DataType::float32, ssd::DataType::bfloat16}) {
    const char* name = type == ssd::DataType::float32 ? "fp32" : "bf16";
    const Problem p = as_gpu_sees(make_problem(spec, 4), type);
    const Forward ref = ssd_recurrence(p);
    const std::vector<double> y_ref = ch08::round_to(ref.y, type);
    for (const auto& [kernel, chunk] :
         {std::pair{ssd::Kernel::recurrence, std::int64_t(256)}, std::pair{ssd::Kernel::chunked, std::int64_t(64)},
          std::pair{ssd::Kernel::chunked, std::int64_t(256)}, std::pair{ssd::Kernel::fused, std::int64_t(64)},
          std::pair{ssd::Kernel::warpgroup, std::int64_t(64)}}) {
      if (!common::kernel_selected(nb.options(), int(kernel))) continue;  // left out by --kernel
      if (const std::string why = gpu_refusal(spec.shape, type, kernel); !why.empty()) {
        nb.text(fmt::format("version {} {}, {}: not taken here ({})", int(kernel), ssd::name_of(kernel), name, why));
        continue;
      }
      const Forward got = gpu_forward(p, type, kernel, chunk);
      const std::string label =
          fmt::format("version {} {}{}, {}: y", int(kernel), ssd::name_of(kernel),
                      kernel == ssd::Kernel::chunked ? fmt::format(" (chunk {})", chunk) : "", name);
      nb.check(label, common::compare(got.y, y_ref, gpu_tolerance(type, y_ref)));
      nb.check("  and the final states",
               common::compare(got.final_states, ref.final_states, gpu_tolerance(type, ref.final_states)));
    }
    std::vector<double> dy(p.x.size());
    for (std::size_t e = 0; e < dy.size(); ++e) dy[e] = std::sin(0.37 * double(e));
    dy = ch08::round_to(dy, type);
    const Gradients adjoint = ssd_backward(p, dy);
    for (const ssd::Kernel kernel : {ssd::Kernel::recurrence, ssd::Kernel::fused}) {
      if (!common::kernel_selected(nb.options(), int(kernel))) continue;
      if (const std::string why = gpu_backward_refusal(spec.shape, type, kernel); !why.empty()) {
        nb.text(fmt::format("version {}'s backward, {}: not taken here ({})", int(kernel), name, why));
        continue;
      }
      const Gradients got = gpu_backward(p, type, dy, kernel);
      nb.check(fmt::format("version {}'s backward, {}: dx", int(kernel), name),
               common::compare(got.dx, adjoint.dx, gpu_tolerance(type, adjoint.dx)));
      nb.check("  ddt", common::compare(got.ddt, adjoint.ddt, gpu_tolerance(type, adjoint.ddt)));
      nb.check("  dA", common::compare(got.dA, adjoint.dA, gpu_tolerance(type, adjoint.dA)));
      nb.check("  dB", common::compare(got.dB, adjoint.dB, gpu_tolerance(type, adjoint.dB)));
      nb.check("  dC", common::compare(got.dC, adjoint.dC, gpu_tolerance(type, adjoint.dC)));
    }
  }
}

}  // namespace ch10
