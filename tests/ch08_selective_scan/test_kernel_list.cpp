#include "kernel_list.hpp"
#include "selective_scan.hpp"

#include <catch2/catch.hpp>

TEST_CASE("the header comment of selective_scan.hpp lists exactly the kernel versions") {
  CHECK(versions_in_header_comment(CH08_KERNEL_LIST_SOURCE) == versions_in_registry(selective_scan::kVersions));
}
