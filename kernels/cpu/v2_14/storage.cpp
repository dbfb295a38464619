// torch_has_storage (2.14): whether a tensor is backed by a storage (sparse tensors are not).
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/tensor.h>

#include "abiref/target_marker.h"

namespace {

using torch::stable::Tensor;

bool has_storage(Tensor x) {
  bool result = false;
  TORCH_ERROR_CODE_CHECK(torch_has_storage(x.get(), &result));
  return result;
}

}  // namespace

STABLE_TORCH_LIBRARY_FRAGMENT(abiref, m) { m.def("has_storage(Tensor x) -> bool"); }

// Registered for every backend, so that a sparse tensor reaches it too.
STABLE_TORCH_LIBRARY_IMPL(abiref, CompositeExplicitAutograd, m) { m.impl("has_storage", TORCH_BOX(&has_storage)); }
