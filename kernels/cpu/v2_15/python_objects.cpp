// Python object interop (2.15): the shims take a PyObject* and need the GIL, which torch.ops
// releases around a kernel. The op receives the object's address as an int (CPython's id()) and
// takes the GIL back (abiref/python_gil.h).
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/macros.h>
#include <torch/csrc/stable/tensor.h>

#include "abiref/python_gil.h"
#include "abiref/target_marker.h"

namespace {

using abiref::as_object;
using abiref::GilHold;
using torch::stable::Tensor;

bool is_tensor_object(int64_t address) {
  GilHold gil;
  bool result = false;
  STABLE_TORCH_ERROR_CODE_CHECK(torch_is_tensor_pyobject(as_object(address), &result));
  return result;
}

// Whether the torch.dtype object at `address` is x's dtype.
bool is_dtype_of(int64_t address, Tensor x) {
  GilHold gil;
  int32_t dtype = 0;
  STABLE_TORCH_ERROR_CODE_CHECK(torch_dtype_from_pyobject(as_object(address), &dtype));
  int32_t tensor_dtype = 0;
  STABLE_TORCH_ERROR_CODE_CHECK(aoti_torch_get_dtype(x.get(), &tensor_dtype));
  return dtype == tensor_dtype;
}

}  // namespace

STABLE_TORCH_LIBRARY_FRAGMENT(abiref, m) {
  m.def("is_tensor_object(int address) -> bool");
  m.def("is_dtype_of(int address, Tensor x) -> bool");
}

STABLE_TORCH_LIBRARY_IMPL(abiref, CompositeExplicitAutograd, m) {
  m.impl("is_tensor_object", TORCH_BOX(&is_tensor_object));
  m.impl("is_dtype_of", TORCH_BOX(&is_dtype_of));
}
