// The CUDA-key kernel of scaled_add: device checks, a device guard on the input's device, and
// the current stream as torch hands it out (aoti_torch_get_current_cuda_stream returns the native
// cudaStream_t; a stable Stream's id() is not one). ROCm torch keeps the CUDA names and key.
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/accelerator.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include "abiref/boxing.h"
#include "abiref/gpu_launch.h"
#include "abiref/strided.h"
#include "abiref/target_marker.h"

namespace {

using torch::stable::Tensor;

int gpu_dtype_of(const Tensor& tensor) {
  switch (tensor.scalar_type()) {
    case torch::headeronly::ScalarType::Float: return ABIREF_GPU_FLOAT32;
    case torch::headeronly::ScalarType::Double: return ABIREF_GPU_FLOAT64;
    default: STD_TORCH_CHECK(false, "scaled_add (GPU): unsupported dtype; expected float32 or float64");
  }
  return -1;
}

Tensor scaled_add_gpu(const Tensor& a, const Tensor& b, double alpha) {
  STD_TORCH_CHECK(a.is_cuda() && b.is_cuda(), "scaled_add (GPU): both inputs must be on the GPU");
  STD_TORCH_CHECK(a.get_device_index() == b.get_device_index(), "scaled_add (GPU): inputs are on different devices");
  STD_TORCH_CHECK(a.scalar_type() == b.scalar_type(), "scaled_add: dtypes differ");
  STD_TORCH_CHECK(a.is_contiguous() && b.is_contiguous(), "scaled_add (GPU): inputs must be contiguous");
  auto layout = abiref::layout_of(a);
  STD_TORCH_CHECK(abiref::layout_of(b).sizes == layout.sizes, "scaled_add: shapes differ");
  const int dtype = gpu_dtype_of(a);
  torch::stable::accelerator::DeviceGuard guard(a.get_device_index());
  Tensor out = torch::stable::new_empty(a, layout.sizes);
  if (a.numel() == 0) return out;
  void* stream = nullptr;
  TORCH_ERROR_CODE_CHECK(aoti_torch_get_current_cuda_stream(a.get_device_index(), &stream));
  const char* message = "";
  const int status =
      abiref_gpu_scaled_add(dtype, a.data_ptr(), b.data_ptr(), out.data_ptr(), a.numel(), alpha, stream, &message);
  STD_TORCH_CHECK(status == 0, "scaled_add (GPU): kernel launch failed: ", message);
  return out;
}

void boxed_scaled_add_gpu(StableIValue* stack, uint64_t, uint64_t) {
  using abiref::boxing::from;
  using abiref::boxing::to;
  stack[0] = from(scaled_add_gpu(to<Tensor>(stack[0]), to<Tensor>(stack[1]), to<double>(stack[2])));
}

}  // namespace

STABLE_TORCH_LIBRARY_IMPL(abiref, CUDA, m) { m.impl("scaled_add", &boxed_scaled_add_gpu); }
