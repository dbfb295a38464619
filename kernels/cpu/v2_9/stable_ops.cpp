// Kernels built from the stable ops of 2.9 (the generated aten shims and the 2.9 dispatcher
// entry point aoti_torch_call_dispatcher), plus tensor metadata.
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include <array>

#include "abiref/boxing.h"

namespace {

using abiref::boxing::from;
using abiref::boxing::to;
using torch::stable::Tensor;

void boxed_metadata(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  const int64_t innermost_stride = x.dim() == 0 ? 1 : x.stride(x.dim() - 1);
  stack[0] = from(x.numel());
  stack[1] = from(x.dim());
  stack[2] = from(innermost_stride);
  stack[3] = from(x.is_contiguous());
}

void boxed_padded(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  std::vector<int64_t> widths = {to<int64_t>(stack[1]), to<int64_t>(stack[2])};
  stack[0] = from(torch::stable::pad(x, widths, "constant", to<double>(stack[3])));
}

void boxed_fill_narrow(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  Tensor part = torch::stable::narrow(x, to<int64_t>(stack[1]), to<int64_t>(stack[2]), to<int64_t>(stack[3]));
  torch::stable::fill_(part, to<double>(stack[4]));
}

void boxed_amax_dim(StableIValue* stack, uint64_t, uint64_t) {
  stack[0] = from(torch::stable::amax(to<Tensor>(stack[0]), to<int64_t>(stack[1]), to<bool>(stack[2])));
}

void boxed_swap01(StableIValue* stack, uint64_t, uint64_t) {
  stack[0] = from(torch::stable::transpose(to<Tensor>(stack[0]), 0, 1));
}

void boxed_zeros_2d(StableIValue* stack, uint64_t, uint64_t) {
  std::vector<int64_t> size = {to<int64_t>(stack[1]), to<int64_t>(stack[2])};
  stack[0] = from(torch::stable::new_zeros(to<Tensor>(stack[0]), size));
}

// The 2.9 entry point, called directly: a target-2.9 binary must import it whatever headers built it.
void boxed_dispatch_abs(StableIValue* stack, uint64_t, uint64_t) {
  std::array<StableIValue, 1> call_stack{stack[0]};
  TORCH_ERROR_CODE_CHECK(aoti_torch_call_dispatcher("aten::abs", "", call_stack.data()));
  stack[0] = call_stack[0];
}

}  // namespace

STABLE_TORCH_LIBRARY_IMPL(abiref, CPU, m) {
  m.impl("metadata", &boxed_metadata);
  m.impl("padded", &boxed_padded);
  m.impl("fill_narrow_", &boxed_fill_narrow);
  m.impl("amax_dim", &boxed_amax_dim);
  m.impl("swap01", &boxed_swap01);
  m.impl("zeros_2d", &boxed_zeros_2d);
  m.impl("dispatch_abs", &boxed_dispatch_abs);
}
