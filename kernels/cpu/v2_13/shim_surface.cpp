// The hand-written shims 2.13 added, beyond the error message (error_message.cpp): generators
// (torch_new_generator_handle, torch_delete_generator, torch_generator_get_device) and the boxed
// optional that carries one (torch_new_stable_ivalue, torch_delete_stable_ivalue), a library's
// Python module (torch_library_set_python_module), and a stream's native handle
// (torch_stream_native_handle). test_v2_13.py checks the random numbers against torch's with the
// same seed, the Python stub torch records, the stream against torch's current one, and that the
// generator handles and boxes the kernels free leave nothing on the heap.
#include <torch/csrc/stable/accelerator.h>
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/device.h>
#include <torch/csrc/stable/generator.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include <array>
#include <cstdint>
#include <optional>
#include <tuple>

#include "abiref/target_marker.h"

namespace abiref::surface_2_13 {
namespace {

using torch::stable::Generator;
using torch::stable::Tensor;

// x.uniform_(0, 1, generator=gen) through the dispatcher, the generator passed on as an optional
// (a new handle in a new boxed value); returns the generator's device, or x's when there is none.
torch::stable::Device seeded_uniform(Tensor x, std::optional<Generator> gen) {
  std::array<StableIValue, 4> stack{torch::stable::detail::from(x), torch::stable::detail::from(0.0),
                                    torch::stable::detail::from(1.0), torch::stable::detail::from(gen)};
  STABLE_TORCH_ERROR_CODE_CHECK(torch_call_dispatcher("aten::uniform_", "", stack.data(), TORCH_ABI_VERSION));
  Tensor result = torch::stable::detail::to<Tensor>(stack[0]);
  return gen ? gen->device() : result.device();
}

// n optional ints boxed one after the other (torch_new_stable_ivalue) and unboxed again (to<> frees
// each box with torch_delete_stable_ivalue); returns their sum. A box not freed stays on the heap.
int64_t boxed_optionals(int64_t n) {
  int64_t sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    StableIValue boxed = torch::stable::detail::from(std::optional<int64_t>(i));
    sum += torch::stable::detail::to<std::optional<int64_t>>(boxed).value_or(-1);
  }
  return sum;
}

Tensor python_stubbed(Tensor x) { return torch::stable::clone(x); }

// The current accelerator device, and the current stream on a device: its id and native handle (a
// cudaStream_t as an integer). Without an accelerator torch refuses both, and the error crosses back.
int64_t current_device_index() { return torch::stable::accelerator::getCurrentDeviceIndex(); }

std::tuple<int64_t, int64_t> current_stream(int64_t device_index) {
  torch::stable::accelerator::Stream stream =
      torch::stable::accelerator::getCurrentStream(static_cast<torch::stable::accelerator::DeviceIndex>(device_index));
  return {stream.id(), static_cast<int64_t>(reinterpret_cast<intptr_t>(stream.nativeHandle()))};
}

}  // namespace
}  // namespace abiref::surface_2_13

STABLE_TORCH_LIBRARY_FRAGMENT(abiref, m) {
  m.def("seeded_uniform(Tensor(a!) x, Generator? gen) -> Device");
  m.def("boxed_optionals(int n) -> int");
  m.def("current_device_index() -> int");
  m.def("current_stream(int device_index) -> (int, int)");
  // Ops defined after this name the module torch imports for their Python parts (a fake kernel).
  m.set_python_module("abiref_python_stub", "shim_surface 2.13");
  m.def("python_stubbed(Tensor x) -> Tensor");
}

STABLE_TORCH_LIBRARY_IMPL(abiref, CPU, m) {
  m.impl("seeded_uniform", TORCH_BOX(&abiref::surface_2_13::seeded_uniform));
  m.impl("python_stubbed", TORCH_BOX(&abiref::surface_2_13::python_stubbed));
}

STABLE_TORCH_LIBRARY_IMPL(abiref, CompositeExplicitAutograd, m) {
  m.impl("boxed_optionals", TORCH_BOX(&abiref::surface_2_13::boxed_optionals));
  m.impl("current_device_index", TORCH_BOX(&abiref::surface_2_13::current_device_index));
  m.impl("current_stream", TORCH_BOX(&abiref::surface_2_13::current_stream));
}
