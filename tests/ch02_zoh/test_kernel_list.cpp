#include "kernel_list.hpp"
#include "zoh_kernels.hpp"

#include <catch2/catch.hpp>

TEST_CASE("the header comment of zoh_kernels.cu lists exactly the kernel versions") {
  CHECK(versions_in_header_comment(CH02_KERNEL_SOURCE) == versions_in_registry(zoh::kKernels));
}
