#include <catch2/catch.hpp>

#include "compare.hpp"
#include "device_buffer.hpp"
#include "gpu_test.hpp"
#include "timing.hpp"

#include <cmath>
#include <vector>

TEST_CASE("the GPU probe never crashes and always gives a reason when it says no") {
  std::string why;
  if (!common::gpu_available(&why)) {
    CHECK_FALSE(why.empty());
  } else {
    CHECK_FALSE(common::gpu_status().device.name.empty());
    CHECK(common::gpu_status().device.multiprocessors > 0);
  }
}

TEST_CASE("device buffers round-trip and poison makes every element NaN", "[gpu]") {
  REQUIRE_GPU();
  const std::vector<float> host{1, 2, 3, 4, 5};
  common::DeviceBuffer<float> buffer{std::span<const float>(host)};
  CHECK(buffer.download() == host);
  buffer.poison();
  for (float x : buffer.download()) CHECK(std::isnan(x));
  common::DeviceBuffer<double> doubles(3);
  doubles.poison();
  for (double x : doubles.download()) CHECK(std::isnan(x));
  common::DeviceBuffer<float> moved = std::move(buffer);
  CHECK(moved.size() == 5);
  CHECK(buffer.size() == 0);
}

TEST_CASE("a failing CUDA call throws with CUDA's message", "[gpu]") {
  REQUIRE_GPU();
  CHECK_THROWS_AS(common::DeviceBuffer<char>(std::size_t{1} << 60), common::CudaError);
  CHECK_THROWS_WITH(common::require_device_memory(std::size_t{1} << 60, "--length"), Catch::Contains("--length needs"));
}

TEST_CASE("the GPU timer and the copy roof give sane figures", "[gpu]") {
  REQUIRE_GPU();
  common::GpuTimer timer({2, 5, true});
  int launches = 0;
  const auto t = timer.time([&] { ++launches; });
  CHECK(launches == 7);
  CHECK(t.repetitions == 5);
  CHECK(t.min_ms >= 0);
  const double gbps = common::measure_copy_bandwidth(std::size_t{256} << 20);
  INFO("copy bandwidth " << gbps << " GB/s");
  CHECK(gbps > 100);    // any datacenter GPU of the last decade
  CHECK(gbps < 20000);  // and nothing yet built
}

TEST_CASE("with no driver at all the probe says so, not that the driver is too old") {
  int driver = -1;
  cudaDriverGetVersion(&driver);
  if (driver != 0) return;  // a driver library is there: the other cases apply
  std::string why;
  REQUIRE_FALSE(common::gpu_available(&why));
  CHECK_THAT(why, Catch::StartsWith("no NVIDIA driver"));
  CHECK_THAT(why, !Catch::Contains("insufficient"));
}
