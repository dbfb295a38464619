// Device code of scaled_add for CUDA; see abiref/gpu_launch.h for why it includes no torch header.
#include <cuda_runtime.h>

#include "abiref/gpu_launch.h"

namespace {

template <class T>
__global__ void scaled_add_kernel(const T* a, const T* b, T* out, std::int64_t count, T alpha) {
  for (std::int64_t i = blockIdx.x * static_cast<std::int64_t>(blockDim.x) + threadIdx.x; i < count;
       i += static_cast<std::int64_t>(gridDim.x) * blockDim.x) {
    out[i] = a[i] + alpha * b[i];
  }
}

template <class T>
void launch(const void* a, const void* b, void* out, std::int64_t count, double alpha, cudaStream_t stream) {
  constexpr int threads = 256;
  const std::int64_t wanted = (count + threads - 1) / threads;
  const int blocks = static_cast<int>(wanted < 65535 ? wanted : 65535);
  scaled_add_kernel<T><<<blocks, threads, 0, stream>>>(static_cast<const T*>(a), static_cast<const T*>(b),
                                                       static_cast<T*>(out), count, static_cast<T>(alpha));
}

}  // namespace

extern "C" int abiref_gpu_scaled_add(int dtype, const void* a, const void* b, void* out, std::int64_t count,
                                     double alpha, void* stream, const char** message) {
  auto native_stream = static_cast<cudaStream_t>(stream);
  if (dtype == ABIREF_GPU_FLOAT32) launch<float>(a, b, out, count, alpha, native_stream);
  else launch<double>(a, b, out, count, alpha, native_stream);
  cudaError_t status = cudaGetLastError();
  *message = cudaGetErrorString(status);
  return static_cast<int>(status);
}
