// The two dtypes whose shim getters came with 2.11 (torch_dtype_float8_e8m0fnu,
// torch_dtype_float4_e2m1fn_x2), reached through the stable ScalarType conversions both ways: a
// tensor made with the dtype, and a tensor's dtype read back. test_v2_11.py checks them against
// torch's dtypes.
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/ops.h>
#include <torch/csrc/stable/tensor.h>

#include <cstdint>

#include "abiref/target_marker.h"

namespace abiref::surface_2_11 {
namespace {

using torch::headeronly::ScalarType;
using torch::stable::Tensor;

// 0: float8_e8m0fnu, 1: float4_e2m1fn_x2.
Tensor empty_of_new_dtype(int64_t which, int64_t n) {
  STD_TORCH_CHECK(which == 0 || which == 1, "empty_of_new_dtype: which must be 0 or 1, got ", which);
  return torch::stable::empty({n}, which == 0 ? ScalarType::Float8_e8m0fnu : ScalarType::Float4_e2m1fn_x2);
}

// The inverse: 0 or 1 for those dtypes, -1 for any other.
int64_t new_dtype_index(Tensor x) {
  const ScalarType dtype = x.scalar_type();
  if (dtype == ScalarType::Float8_e8m0fnu) return 0;
  if (dtype == ScalarType::Float4_e2m1fn_x2) return 1;
  return -1;
}

}  // namespace
}  // namespace abiref::surface_2_11

STABLE_TORCH_LIBRARY_FRAGMENT(abiref, m) {
  m.def("empty_of_new_dtype(int which, int n) -> Tensor");
  m.def("new_dtype_index(Tensor x) -> int");
}

STABLE_TORCH_LIBRARY_IMPL(abiref, CompositeExplicitAutograd, m) {
  m.impl("empty_of_new_dtype", TORCH_BOX(&abiref::surface_2_11::empty_of_new_dtype));
  m.impl("new_dtype_index", TORCH_BOX(&abiref::surface_2_11::new_dtype_index));
}
