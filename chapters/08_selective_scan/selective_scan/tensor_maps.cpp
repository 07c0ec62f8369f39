// tensor_maps.cpp: the tensor maps of version 5's backward (tensor_maps.hpp), encoded by the driver.
#include "tensor_maps.hpp"

#include "check.hpp"

#include <cudaTypedefs.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <type_traits>

namespace selective_scan::detail {
namespace {

// The driver's tensor-map encoder, found through the runtime (no link against the driver library).
PFN_cuTensorMapEncodeTiled_v12000 tensor_map_encoder() {
  static PFN_cuTensorMapEncodeTiled_v12000 encode = [] {
    void* function = nullptr;
    cudaDriverEntryPointQueryResult found{};
    SELECTIVE_SCAN_CHECK(
        cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found));
    if (found != cudaDriverEntryPointSuccess)
      throw Error("selective_scan: the driver has no cuTensorMapEncodeTiled (CUDA 12 or newer is needed)");
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(function);
  }();
  return encode;
}

// A 4-d map of `data` (dimension 0 contiguous, strides in elements), cutting boxes of kTile x kBoxRows.
template <class Input>
CUtensorMap tensor_map(const void* data, const std::int64_t (&dims)[4], const std::int64_t (&strides)[3]) {
  CUtensorMap map{};
  if (!data) return map;
  const CUtensorMapDataType type = std::is_same_v<Input, float>    ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                                   : std::is_same_v<Input, __half> ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16
                                                                   : CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  cuuint64_t size[4], stride[3];
  for (int i = 0; i < 4; ++i) size[i] = cuuint64_t(std::max<std::int64_t>(1, dims[i]));
  // A dimension of size 1 may come with any stride (0 too); the encoder wants multiples of 16.
  for (int i = 0; i < 3; ++i) stride[i] = cuuint64_t(std::max<std::int64_t>(16, strides[i] * sizeof(Input)));
  const cuuint32_t box[4] = {kTile, kBoxRows, 1, 1}, unit[4] = {1, 1, 1, 1};
  const CUresult result = tensor_map_encoder()(&map, type, 4, const_cast<void*>(data), size, stride, box, unit,
                                               CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_NONE,
                                               CU_TENSOR_MAP_L2_PROMOTION_L2_128B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (result != CUDA_SUCCESS)
    throw Error("selective_scan: cuTensorMapEncodeTiled failed with CUresult " + std::to_string(int(result)));
  return map;
}

}  // namespace

template <class Input>
TensorMaps tensor_maps(const ScanArgs& a) {
  TensorMaps m{};
  const auto sequence = [&](const void* data, std::int64_t batch_stride, std::int64_t dim_stride) {
    // (t, d, b): strides of d and b; the fourth dimension is 1.
    return tensor_map<Input>(data, {a.seqlen, a.dim, a.batch, 1}, {dim_stride, batch_stride, batch_stride});
  };
  m.rows[kDelta] = sequence(a.delta.data, a.delta.batch_stride, a.delta.dim_stride);
  m.rows[kU] = sequence(a.u.data, a.u.batch_stride, a.u.dim_stride);
  m.rows[kDout] = sequence(a.dout.data, a.dout.batch_stride, a.dout.dim_stride);
  m.rows[kZ] = sequence(a.z.data, a.z.batch_stride, a.z.dim_stride);
  m.rows[kOut] = a.z.data ? sequence(a.out.data, a.out.batch_stride, a.out.dim_stride) : CUtensorMap{};
  // (t, n, group, b).
  const auto projection = [&](const ProjectionArg& p) {
    if (!p.variable) return CUtensorMap{};
    return tensor_map<Input>(p.data, {a.seqlen, a.dstate, a.groups, a.batch},
                             {p.state_stride, p.group_stride, p.batch_stride});
  };
  m.B = projection(a.B);
  m.C = projection(a.C);
  return m;
}

template TensorMaps tensor_maps<float>(const ScanArgs&);
template TensorMaps tensor_maps<__half>(const ScanArgs&);
template TensorMaps tensor_maps<__nv_bfloat16>(const ScanArgs&);

}  // namespace selective_scan::detail
