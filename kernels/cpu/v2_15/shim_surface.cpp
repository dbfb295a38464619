// The rest of 2.15's Python interop: torch_dtype_to_pyobject, torch_device_from_pyobject and
// torch_device_to_pyobject, through the stable wrappers of torch/csrc/stable/pyobject.h (the GIL:
// abiref/python_gil.h). New references the shims return are handed to the caller as addresses;
// test_v2_15.py takes them over and checks that exactly one was handed over.
#include <torch/csrc/stable/device.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/pyobject.h>
#include <torch/csrc/stable/tensor.h>

#include <cstdint>
#include <tuple>

#include "abiref/python_gil.h"
#include "abiref/target_marker.h"

namespace abiref::surface_2_15 {
namespace {

using torch::stable::Tensor;

// The address of the torch.dtype object of x's dtype (a new reference, the caller's).
int64_t dtype_object(Tensor x) {
  GilHold gil;
  return address_of(torch::stable::dtype_to_pyobject(x.scalar_type()));
}

// The torch.device object at `address` read as a stable Device, and a new torch.device made from
// that Device (a new reference, the caller's).
std::tuple<torch::stable::Device, int64_t> device_objects(int64_t address) {
  GilHold gil;
  torch::stable::Device device = torch::stable::device_from_pyobject(as_object(address));
  return {device, address_of(torch::stable::device_to_pyobject(device))};
}

}  // namespace
}  // namespace abiref::surface_2_15

STABLE_TORCH_LIBRARY_FRAGMENT(abiref, m) {
  m.def("dtype_object(Tensor x) -> int");
  m.def("device_objects(int address) -> (Device, int)");
}

STABLE_TORCH_LIBRARY_IMPL(abiref, CompositeExplicitAutograd, m) {
  m.impl("dtype_object", TORCH_BOX(&abiref::surface_2_15::dtype_object));
  m.impl("device_objects", TORCH_BOX(&abiref::surface_2_15::device_objects));
}
