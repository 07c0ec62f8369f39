#include "kernel_list.hpp"
#include "rnn_kernels.hpp"

#include <catch2/catch.hpp>

TEST_CASE("the header comment of rnn_kernels.cu lists exactly the kernel versions") {
  CHECK(versions_in_header_comment(CH01_KERNEL_SOURCE) == versions_in_registry(rnn::kKernels));
}
