// torch_from_blob with a deleter and its context (2.11): the extension owns a buffer, torch frees
// it through the deleter when the last reference dies.
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include <atomic>
#include <vector>

#include "abiref/target_marker.h"

namespace {

using torch::stable::Tensor;

std::atomic<int64_t> released_buffers{0};

// An arange of n float32 values in memory this extension allocated; the buffer never has zero
// bytes, so torch always holds a real allocation whose deleter must run.
Tensor owned_arange(int64_t n) {
  STD_TORCH_CHECK(n >= 0, "owned_arange: n must be non-negative, got ", n);
  auto* buffer = new std::vector<float>(static_cast<size_t>(n > 0 ? n : 1));
  for (int64_t i = 0; i < n; ++i) (*buffer)[static_cast<size_t>(i)] = static_cast<float>(i);
  std::vector<int64_t> sizes = {n};
  std::vector<int64_t> strides = {1};
  return torch::stable::from_blob(buffer->data(), sizes, strides,
                                  torch::stable::Device(torch::headeronly::DeviceType::CPU),
                                  torch::headeronly::ScalarType::Float, [buffer](void*) {
                                    delete buffer;
                                    released_buffers.fetch_add(1);
                                  });
}

int64_t released_buffer_count() { return released_buffers.load(); }

}  // namespace

STABLE_TORCH_LIBRARY_FRAGMENT(abiref, m) {
  m.def("owned_arange(int n) -> Tensor");
  m.def("released_buffer_count() -> int");
}

STABLE_TORCH_LIBRARY_IMPL(abiref, CompositeExplicitAutograd, m) {
  m.impl("owned_arange", TORCH_BOX(&owned_arange));
  m.impl("released_buffer_count", TORCH_BOX(&released_buffer_count));
}
