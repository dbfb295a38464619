// The boxed values (c10::IValue) that 2.10's hand-written C shim lets an extension make: from an
// int64, a string, a list of strings and a tensor (aoti_torch_*_to_ivalue), each freed exactly once
// (aoti_torch_delete_c10_value_object). They are handed to a profiler range as its inputs
// (aoti_record_function_start), so test_v2_10.py sees them in torch.profiler's recorded inputs.
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "abiref/shim_check.h"
#include "abiref/target_marker.h"

namespace abiref::ivalues_2_10 {
namespace {

using torch::stable::Tensor;

// Owns a C10IValueHandle made by one of the *_to_ivalue shims.
class OwnedIValue {
 public:
  OwnedIValue() = default;
  ~OwnedIValue() {
    if (handle_ != nullptr) aoti_torch_delete_c10_value_object(handle_);
  }
  OwnedIValue(const OwnedIValue&) = delete;
  OwnedIValue& operator=(const OwnedIValue&) = delete;
  C10IValueHandle* out() { return &handle_; }
  C10IValueHandle get() const { return handle_; }

 private:
  C10IValueHandle handle_ = nullptr;
};

// x cloned inside a profiler range named "abiref::ivalue_range" whose inputs are x, n, label and
// the list [label, "abiref"], in that order.
Tensor profiled_inputs(Tensor x, int64_t n, std::string label) {
  std::array<OwnedIValue, 4> inputs;
  ABIREF_SHIM_CHECK(aoti_torch_tensor_to_ivalue(x.get(), inputs[0].out()));
  ABIREF_SHIM_CHECK(aoti_torch_int64_to_ivalue(n, inputs[1].out()));
  ABIREF_SHIM_CHECK(aoti_torch_str_to_ivalue(label.c_str(), inputs[2].out()));
  std::array<const char*, 2> names{label.c_str(), "abiref"};
  ABIREF_SHIM_CHECK(aoti_torch_strlist_to_ivalue(names.data(), static_cast<int64_t>(names.size()), inputs[3].out()));
  const std::array<C10IValueHandle, 4> handles{inputs[0].get(), inputs[1].get(), inputs[2].get(), inputs[3].get()};
  AtenRecordFunctionHandle range = nullptr;
  ABIREF_SHIM_CHECK(
      aoti_record_function_start("abiref::ivalue_range", nullptr, handles.data(), handles.size(), &range));
  Tensor result = torch::stable::clone(x);
  ABIREF_SHIM_CHECK(aoti_record_function_end(range));
  return result;
}

}  // namespace
}  // namespace abiref::ivalues_2_10

STABLE_TORCH_LIBRARY_IMPL(abiref, CPU, m) {
  m.impl("profiled_inputs", TORCH_BOX(&abiref::ivalues_2_10::profiled_inputs));
}
