// Kernels that call the hand-written C shim 2.10 added (torch/csrc/stable/c/shim.h) and that no other
// 2.10 kernel reaches: a list's items set and read back through its handle, a device string parsed,
// requires_grad set from the extension, the thread index inside torch_parallel_for, string handles
// made and freed. test_v2_10.py checks each result against torch's own, the error paths by their
// message, and that the handles the kernels free leave nothing on the heap.
#include <torch/csrc/stable/c/shim.h>
#include <torch/csrc/stable/device.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "abiref/shim_check.h"
#include "abiref/target_marker.h"

namespace abiref::surface_2_10 {
namespace {

using torch::stable::Tensor;

// Owns a StableListHandle (torch_delete_list exactly once).
class OwnedList {
 public:
  explicit OwnedList(size_t reserve) { ABIREF_SHIM_CHECK(torch_new_list_reserve_size(reserve, &handle_)); }
  ~OwnedList() { torch_delete_list(handle_); }
  OwnedList(const OwnedList&) = delete;
  OwnedList& operator=(const OwnedList&) = delete;
  StableListHandle get() const { return handle_; }

 private:
  StableListHandle handle_ = nullptr;
};

// `values` pushed into a new list, item `index` then set to `value` (torch_list_set_item refuses an
// index past the end), every item read back through the handle.
std::vector<int64_t> list_set_item(std::vector<int64_t> values, int64_t index, int64_t value) {
  OwnedList list(values.size());
  for (int64_t item : values) ABIREF_SHIM_CHECK(torch_list_push_back(list.get(), torch::stable::detail::from(item)));
  ABIREF_SHIM_CHECK(torch_list_set_item(list.get(), static_cast<size_t>(index), torch::stable::detail::from(value)));
  size_t size = 0;
  ABIREF_SHIM_CHECK(torch_list_size(list.get(), &size));
  std::vector<int64_t> items;
  for (size_t i = 0; i < size; ++i) {
    StableIValue item = 0;
    ABIREF_SHIM_CHECK(torch_list_get_item(list.get(), i, &item));
    items.push_back(torch::stable::detail::to<int64_t>(item));
  }
  return items;
}

// n strings of `length` bytes made (torch_new_string_handle), measured (torch_string_length) and
// freed (torch_delete_string) in turn, through the shim itself: to<std::string> of the 2.10 to 2.13
// headers leaks a copy of each string, which would hide whether torch_delete_string frees anything.
// Returns the sum of the lengths.
int64_t string_handles(int64_t length, int64_t n) {
  const std::string text(static_cast<size_t>(length), 's');
  int64_t total = 0;
  for (int64_t i = 0; i < n; ++i) {
    StringHandle handle = nullptr;
    ABIREF_SHIM_CHECK(torch_new_string_handle(text.data(), text.size(), &handle));
    size_t size = 0;
    ABIREF_SHIM_CHECK(torch_string_length(handle, &size));
    ABIREF_SHIM_CHECK(torch_delete_string(handle));
    total += static_cast<int64_t>(size);
  }
  return total;
}

// torch_parse_device_string through the stable Device's string constructor.
torch::stable::Device parse_device(std::string text) { return torch::stable::Device(text); }

// torch_set_requires_grad on the caller's tensor.
void set_requires_grad(Tensor x, bool requires_grad) { x.set_requires_grad(requires_grad); }

// torch_get_thread_idx inside each chunk of torch_parallel_for (grain 1), and last the index outside
// any parallel region.
Tensor thread_indices(int64_t n) {
  Tensor out = torch::stable::empty({n + 1}, torch::headeronly::ScalarType::Long);
  int64_t* data = out.mutable_data_ptr<int64_t>();
  torch::stable::parallel_for(0, n, 1, [&](int64_t begin, int64_t end) {
    uint32_t thread = 0;
    ABIREF_SHIM_CHECK(torch_get_thread_idx(&thread));
    for (int64_t i = begin; i < end; ++i) data[i] = static_cast<int64_t>(thread);
  });
  uint32_t outside = 0;
  ABIREF_SHIM_CHECK(torch_get_thread_idx(&outside));
  data[n] = static_cast<int64_t>(outside);
  return out;
}

}  // namespace
}  // namespace abiref::surface_2_10

STABLE_TORCH_LIBRARY_FRAGMENT(abiref, m) {
  m.def("list_set_item(int[] values, int index, int value) -> int[]");
  m.def("parse_device(str text) -> Device");
  m.def("set_requires_grad(Tensor x, bool requires_grad) -> ()");
  m.def("thread_indices(int n) -> Tensor");
  m.def("string_handles(int length, int n) -> int");
}

STABLE_TORCH_LIBRARY_IMPL(abiref, CompositeExplicitAutograd, m) {
  m.impl("list_set_item", TORCH_BOX(&abiref::surface_2_10::list_set_item));
  m.impl("parse_device", TORCH_BOX(&abiref::surface_2_10::parse_device));
  m.impl("set_requires_grad", TORCH_BOX(&abiref::surface_2_10::set_requires_grad));
  m.impl("thread_indices", TORCH_BOX(&abiref::surface_2_10::thread_indices));
  m.impl("string_handles", TORCH_BOX(&abiref::surface_2_10::string_handles));
}
