// Python tensors across the shim (2.14): torch_tensor_from_pyobject gives the extension a new
// handle to a Python tensor, torch_tensor_to_pyobject the Python object of a handle (a new
// reference, dropped here). The op takes the tensor's address (CPython's id()) and holds the GIL
// (abiref/python_gil.h). test_v2_14.py checks that both ends are the caller's own tensor and that no
// reference is left behind.
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/pyobject.h>
#include <torch/csrc/stable/tensor.h>

#include <cstdint>
#include <tuple>

#include "abiref/python_gil.h"
#include "abiref/target_marker.h"

namespace abiref::surface_2_14 {
namespace {

using torch::stable::Tensor;

// The tensor at `address` as a stable Tensor, and whether wrapping that Tensor again gives back the
// very same Python object.
std::tuple<Tensor, bool> pyobject_roundtrip(int64_t address) {
  GilHold gil;
  Tensor tensor = torch::stable::tensor_from_pyobject(as_object(address));
  void* object = torch::stable::tensor_to_pyobject(tensor);
  const bool same = object == as_object(address);
  drop_reference(object);
  return {tensor, same};
}

}  // namespace
}  // namespace abiref::surface_2_14

STABLE_TORCH_LIBRARY_FRAGMENT(abiref, m) { m.def("pyobject_roundtrip(int address) -> (Tensor, bool)"); }

STABLE_TORCH_LIBRARY_IMPL(abiref, CompositeExplicitAutograd, m) {
  m.impl("pyobject_roundtrip", TORCH_BOX(&abiref::surface_2_14::pyobject_roundtrip));
}
