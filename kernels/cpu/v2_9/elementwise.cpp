// Hand-written kernels over raw data pointers, boxed by hand (TORCH_BOX arrived in 2.10): they
// honour any strides and storage offset and dispatch on dtype themselves.
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include "abiref/boxing.h"
#include "abiref/dtype_dispatch.h"
#include "abiref/strided.h"

namespace {

using abiref::boxing::from;
using abiref::boxing::to;
using torch::stable::Tensor;

void check_same_shape(const Tensor& a, const Tensor& b, const char* op) {
  STD_TORCH_CHECK(a.dim() == b.dim(), op, ": shapes differ in rank (", a.dim(), " vs ", b.dim(), ")");
  for (int64_t d = 0; d < a.dim(); ++d) {
    STD_TORCH_CHECK(a.size(d) == b.size(d), op, ": shapes differ at dim ", d, " (", a.size(d), " vs ", b.size(d), ")");
  }
}

Tensor contiguous_like(const Tensor& x) { return torch::stable::new_empty(x, abiref::layout_of(x).sizes); }

Tensor scaled_add(const Tensor& a, const Tensor& b, double alpha) {
  STD_TORCH_CHECK(a.scalar_type() == b.scalar_type(), "scaled_add: dtypes differ");
  check_same_shape(a, b, "scaled_add");
  Tensor out = contiguous_like(a);
  auto a_layout = abiref::layout_of(a);
  auto b_layout = abiref::layout_of(b);
  abiref::dispatch_numeric(a.scalar_type(), "scaled_add", [&](auto zero) {
    using T = decltype(zero);
    using Acc = abiref::accumulate_t<T>;
    const T* a_data = static_cast<const T*>(a.data_ptr());
    const T* b_data = static_cast<const T*>(b.data_ptr());
    T* out_data = static_cast<T*>(out.data_ptr());
    const Acc scale = static_cast<Acc>(alpha);
    const std::vector<int64_t> strides[2] = {a_layout.strides, b_layout.strides};
    abiref::for_each_element(a_layout.sizes, strides, [&](int64_t linear, const int64_t* offsets) {
      out_data[linear] =
          static_cast<T>(static_cast<Acc>(a_data[offsets[0]]) + scale * static_cast<Acc>(b_data[offsets[1]]));
    });
  });
  return out;
}

Tensor strided_sum(const Tensor& x) {
  Tensor out = torch::stable::new_zeros(x, {});
  auto layout = abiref::layout_of(x);
  abiref::dispatch_numeric(x.scalar_type(), "strided_sum", [&](auto zero) {
    using T = decltype(zero);
    using Acc = std::conditional_t<std::is_floating_point_v<abiref::accumulate_t<T>>, double, int64_t>;
    const T* data = static_cast<const T*>(x.data_ptr());
    Acc total = 0;
    const std::vector<int64_t> strides[1] = {layout.strides};
    abiref::for_each_element(layout.sizes, strides,
                             [&](int64_t, const int64_t* offsets) { total += static_cast<Acc>(data[offsets[0]]); });
    *static_cast<T*>(out.data_ptr()) = static_cast<T>(total);
  });
  return out;
}

// empty_like keeps the input's strides for dense inputs, so the copy walks both layouts.
Tensor contiguous_copy(const Tensor& x) {
  Tensor out = torch::stable::empty_like(x);
  auto in_layout = abiref::layout_of(x);
  auto out_layout = abiref::layout_of(out);
  abiref::dispatch_numeric(x.scalar_type(), "contiguous_copy", [&](auto zero) {
    using T = decltype(zero);
    const T* in = static_cast<const T*>(x.data_ptr());
    T* result = static_cast<T*>(out.data_ptr());
    const std::vector<int64_t> strides[2] = {in_layout.strides, out_layout.strides};
    abiref::for_each_element(in_layout.sizes, strides,
                             [&](int64_t, const int64_t* offsets) { result[offsets[1]] = in[offsets[0]]; });
  });
  return out;
}

void boxed_scaled_add(StableIValue* stack, uint64_t, uint64_t) {
  stack[0] = from(scaled_add(to<Tensor>(stack[0]), to<Tensor>(stack[1]), to<double>(stack[2])));
}

void boxed_strided_sum(StableIValue* stack, uint64_t, uint64_t) { stack[0] = from(strided_sum(to<Tensor>(stack[0]))); }

void boxed_contiguous_copy(StableIValue* stack, uint64_t, uint64_t) {
  stack[0] = from(contiguous_copy(to<Tensor>(stack[0])));
}

}  // namespace

STABLE_TORCH_LIBRARY_IMPL(abiref, CPU, m) {
  m.impl("scaled_add", &boxed_scaled_add);
  m.impl("strided_sum", &boxed_strided_sum);
  m.impl("contiguous_copy", &boxed_contiguous_copy);
}
