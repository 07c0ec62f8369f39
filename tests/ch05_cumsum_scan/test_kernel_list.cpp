#include "kernel_list.hpp"
#include "scan_kernels.hpp"

#include <catch2/catch.hpp>

TEST_CASE("the header comment of scan_kernels.cu lists exactly the kernel versions") {
  CHECK(versions_in_header_comment(CH05_KERNEL_SOURCE) == versions_in_registry(scan::kKernels));
}
