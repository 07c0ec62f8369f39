#include "kernel_list.hpp"
#include "reverse_kernels.hpp"

#include <catch2/catch.hpp>

TEST_CASE("the header comment of reverse_kernels.cu lists exactly the kernel versions") {
  CHECK(versions_in_header_comment(CH07_KERNEL_SOURCE) == versions_in_registry(rscan::kKernels));
}
