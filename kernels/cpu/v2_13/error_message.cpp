// Errors raised inside libtorch cross back with their message (2.13: torch_exception_get_what*
// behind STABLE_TORCH_ERROR_CODE_CHECK); before 2.13 the extension only saw a failed error code.
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/macros.h>
#include <torch/csrc/stable/tensor.h>

#include <array>
#include <vector>

#include "abiref/target_marker.h"

namespace {

using torch::stable::Tensor;

Tensor checked_view(Tensor x, std::vector<int64_t> shape) {
  std::array<StableIValue, 2> stack{torch::stable::detail::from(x), torch::stable::detail::from(shape)};
  STABLE_TORCH_ERROR_CODE_CHECK(torch_call_dispatcher("aten::view", "", stack.data(), TORCH_ABI_VERSION));
  return torch::stable::detail::to<Tensor>(stack[0]);
}

}  // namespace

STABLE_TORCH_LIBRARY_FRAGMENT(abiref, m) { m.def("checked_view(Tensor(a) x, int[] shape) -> Tensor(a)"); }

STABLE_TORCH_LIBRARY_IMPL(abiref, CPU, m) { m.impl("checked_view", TORCH_BOX(&checked_view)); }
