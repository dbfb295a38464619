#pragma once

// The boundary between the torch-facing glue (kernels/gpu/, built with g++ against the stable
// headers) and the device code (kernels/cuda/*.cu with nvcc, kernels/rocm/*.hip with hipcc). Device
// code sees no torch header: it gets raw pointers, an element count and the native stream that the
// glue obtained from torch, so the same glue serves CUDA and ROCm.
#include <cstdint>

extern "C" {

enum AbirefGpuDtype { ABIREF_GPU_FLOAT32 = 0, ABIREF_GPU_FLOAT64 = 1 };

// Launches out[i] = a[i] + alpha * b[i] on `stream` (a cudaStream_t or hipStream_t). Returns 0,
// or the runtime's error code; writes the runtime's error string to *message.
int abiref_gpu_scaled_add(int dtype, const void* a, const void* b, void* out, std::int64_t count, double alpha,
                          void* stream, const char** message);
}
