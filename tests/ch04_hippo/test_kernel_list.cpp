#include "kernel_list.hpp"
#include "vandermonde_kernels.hpp"

#include <catch2/catch.hpp>

TEST_CASE("the header comment of vandermonde_kernels.cu lists exactly the kernel versions") {
  CHECK(versions_in_header_comment(CH04_KERNEL_SOURCE) == versions_in_registry(s4d::kKernels));
}
