#include "conv_kernels.hpp"
#include "kernel_list.hpp"

#include <catch2/catch.hpp>

TEST_CASE("the header comment of conv_kernels.cu lists exactly the kernel versions") {
  CHECK(versions_in_header_comment(CH03_KERNEL_SOURCE) == versions_in_registry(conv::kKernels));
}
