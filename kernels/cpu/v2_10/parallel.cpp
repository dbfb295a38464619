// A contiguous kernel run with torch_parallel_for over the typed data pointers of 2.10, and a
// reduction over a list of tensors (StableListHandle).
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include <vector>

#include "abiref/dtype_dispatch.h"
#include "abiref/strided.h"

namespace {

using torch::stable::Tensor;

constexpr int64_t kGrainSize = 4096;

Tensor parallel_scale(Tensor x, double scale) {
  Tensor input = torch::stable::contiguous(x);
  Tensor out = torch::stable::empty_like(input);
  abiref::dispatch_numeric(input.scalar_type(), "parallel_scale", [&](auto zero) {
    using T = decltype(zero);
    using Acc = abiref::accumulate_t<T>;
    const T* in = input.const_data_ptr<T>();
    T* result = out.mutable_data_ptr<T>();
    torch::stable::parallel_for(0, input.numel(), kGrainSize, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i)
        result[i] = static_cast<T>(static_cast<Acc>(in[i]) * static_cast<Acc>(scale));
    });
  });
  return out;
}

Tensor sum_tensors(std::vector<Tensor> tensors) {
  STD_TORCH_CHECK(!tensors.empty(), "sum_tensors: expected at least one tensor");
  const Tensor& first = tensors.front();
  auto shape = abiref::layout_of(first).sizes;
  Tensor out = torch::stable::full(shape, 0.0, first.scalar_type());
  abiref::dispatch_numeric(first.scalar_type(), "sum_tensors", [&](auto zero) {
    using T = decltype(zero);
    using Acc = abiref::accumulate_t<T>;
    T* result = out.mutable_data_ptr<T>();
    for (const Tensor& tensor : tensors) {
      STD_TORCH_CHECK(tensor.scalar_type() == first.scalar_type(), "sum_tensors: dtypes differ");
      auto layout = abiref::layout_of(tensor);
      STD_TORCH_CHECK(layout.sizes == shape, "sum_tensors: shapes differ");
      const T* data = tensor.const_data_ptr<T>();
      const std::vector<int64_t> strides[1] = {layout.strides};
      abiref::for_each_element(shape, strides, [&](int64_t linear, const int64_t* offsets) {
        result[linear] = static_cast<T>(static_cast<Acc>(result[linear]) + static_cast<Acc>(data[offsets[0]]));
      });
    }
  });
  return out;
}

int64_t thread_count() { return static_cast<int64_t>(torch::stable::get_num_threads()); }

}  // namespace

STABLE_TORCH_LIBRARY_IMPL(abiref, CPU, m) { m.impl("parallel_scale", TORCH_BOX(&parallel_scale)); }

// These may take no tensor at all (an empty list, no argument), and the dispatcher can only pick a
// backend kernel from a tensor argument, so they register for every backend.
STABLE_TORCH_LIBRARY_IMPL(abiref, CompositeExplicitAutograd, m) {
  m.impl("sum_tensors", TORCH_BOX(&sum_tensors));
  m.impl("thread_count", TORCH_BOX(&thread_count));
}
