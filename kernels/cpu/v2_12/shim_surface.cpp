// The hand-written shims 2.12 added: aoti_torch_dtype_float8_e8m0fnu and _float4_e2m1fn_x2 (the
// aoti_torch twins of 2.11's getters), used to make tensors, and every op tag (torch_tag_*), given
// to one op's schema through torch_library_def_with_tags. test_v2_12.py checks the dtypes and that
// Python sees each tag on the op.
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include <array>
#include <cstdint>

#include "abiref/shim_check.h"
#include "abiref/target_marker.h"

namespace abiref::surface_2_12 {
namespace {

using torch::stable::Tensor;

Tensor empty_with_code(int32_t dtype, int64_t n) {
  const std::array<int64_t, 1> sizes{n};
  const std::array<int64_t, 1> strides{1};
  AtenTensorHandle out = nullptr;
  ABIREF_SHIM_CHECK(
      aoti_torch_empty_strided(1, sizes.data(), strides.data(), dtype, aoti_torch_device_type_cpu(), 0, &out));
  return Tensor(out);
}

// Tensors of the two dtypes, made from the aoti_torch getters' codes.
std::tuple<Tensor, Tensor> empty_of_aoti_dtypes(int64_t n) {
  return {empty_with_code(aoti_torch_dtype_float8_e8m0fnu(), n),
          empty_with_code(aoti_torch_dtype_float4_e2m1fn_x2(), n)};
}

Tensor tagged_everywhere(Tensor x) { return torch::stable::clone(x); }

}  // namespace
}  // namespace abiref::surface_2_12

STABLE_TORCH_LIBRARY_FRAGMENT(abiref, m) {
  m.def("empty_of_aoti_dtypes(int n) -> (Tensor, Tensor)");
  m.def("tagged_everywhere(Tensor x) -> Tensor",
        {at::Tag::core, at::Tag::cudagraph_unsafe, at::Tag::data_dependent_output, at::Tag::dynamic_output_shape,
         at::Tag::flexible_layout, at::Tag::generated, at::Tag::inplace_view, at::Tag::maybe_aliasing_or_mutating,
         at::Tag::needs_contiguous_strides, at::Tag::needs_exact_strides, at::Tag::needs_fixed_stride_order,
         at::Tag::nondeterministic_bitwise, at::Tag::nondeterministic_seeded, at::Tag::out_variant, at::Tag::pointwise,
         at::Tag::pt2_compliant_tag, at::Tag::reduction, at::Tag::view_copy});
}

STABLE_TORCH_LIBRARY_IMPL(abiref, CompositeExplicitAutograd, m) {
  m.impl("empty_of_aoti_dtypes", TORCH_BOX(&abiref::surface_2_12::empty_of_aoti_dtypes));
}

STABLE_TORCH_LIBRARY_IMPL(abiref, CPU, m) {
  m.impl("tagged_everywhere", TORCH_BOX(&abiref::surface_2_12::tagged_everywhere));
}
