// Op tags (2.12): the schema is defined with torch_library_def_with_tags and the tag must be
// visible on the op in Python.
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include "abiref/dtype_dispatch.h"
#include "abiref/target_marker.h"

namespace {

using torch::stable::Tensor;

Tensor squared(Tensor x) {
  Tensor input = torch::stable::contiguous(x);
  Tensor out = torch::stable::empty_like(input);
  abiref::dispatch_numeric(input.scalar_type(), "squared", [&](auto zero) {
    using T = decltype(zero);
    using Acc = abiref::accumulate_t<T>;
    const T* in = input.const_data_ptr<T>();
    T* result = out.mutable_data_ptr<T>();
    for (int64_t i = 0; i < input.numel(); ++i)
      result[i] = static_cast<T>(static_cast<Acc>(in[i]) * static_cast<Acc>(in[i]));
  });
  return out;
}

}  // namespace

STABLE_TORCH_LIBRARY_FRAGMENT(abiref, m) { m.def("squared(Tensor x) -> Tensor", {at::Tag::pointwise}); }

STABLE_TORCH_LIBRARY_IMPL(abiref, CPU, m) { m.impl("squared", TORCH_BOX(&squared)); }
