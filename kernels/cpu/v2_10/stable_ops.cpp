// Kernels built from the stable ops and shims 2.10 added: subtract, full, reshape, copy_, the
// 2.10 dispatcher entry point torch_call_dispatcher, int lists and strings across the boundary.
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include <array>
#include <string>
#include <vector>

namespace {

using torch::stable::Tensor;

Tensor difference(Tensor a, Tensor b, double alpha) { return torch::stable::subtract(a, b, alpha); }

Tensor reshape_to(Tensor x, std::vector<int64_t> shape) { return torch::stable::reshape(x, shape); }

void copy_into(Tensor dst, Tensor src) { torch::stable::copy_(dst, src); }

Tensor filled(std::vector<int64_t> shape, double value) { return torch::stable::full(shape, value); }

Tensor dispatch_neg(Tensor x) {
  std::array<StableIValue, 1> stack{torch::stable::detail::from(x)};
  TORCH_ERROR_CODE_CHECK(torch_call_dispatcher("aten::neg", "", stack.data(), TORCH_ABI_VERSION));
  return torch::stable::detail::to<Tensor>(stack[0]);
}

std::string describe(Tensor x, std::string prefix) {
  return prefix + ":" + std::to_string(x.dim()) + "d:" + std::to_string(x.numel());
}

}  // namespace

STABLE_TORCH_LIBRARY_IMPL(abiref, CPU, m) {
  m.impl("difference", TORCH_BOX(&difference));
  m.impl("reshape_to", TORCH_BOX(&reshape_to));
  m.impl("copy_into_", TORCH_BOX(&copy_into));
  m.impl("dispatch_neg", TORCH_BOX(&dispatch_neg));
  m.impl("describe", TORCH_BOX(&describe));
}

STABLE_TORCH_LIBRARY_IMPL(abiref, CompositeExplicitAutograd, m) { m.impl("filled", TORCH_BOX(&filled)); }
