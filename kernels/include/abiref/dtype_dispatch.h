#pragma once

#include <torch/headeronly/core/ScalarType.h>
#include <torch/headeronly/util/BFloat16.h>
#include <torch/headeronly/util/Exception.h>
#include <torch/headeronly/util/Half.h>

#include <cstdint>

namespace abiref {

using torch::headeronly::ScalarType;

// Calls body(T{}) with the C++ type of one of the dtypes the reference kernels support, and fails
// with a message that names the op for any other. Written by hand (not THO_DISPATCH_V2) because
// the 2.9 kernels must build with 2.9 headers too.
template <class Body>
void dispatch_numeric(ScalarType dtype, const char* op, Body&& body) {
  switch (dtype) {
    case ScalarType::Float: return body(float{});
    case ScalarType::Double: return body(double{});
    case ScalarType::Half: return body(c10::Half{});
    case ScalarType::BFloat16: return body(c10::BFloat16{});
    case ScalarType::Int: return body(std::int32_t{});
    case ScalarType::Long: return body(std::int64_t{});
    default:
      STD_TORCH_CHECK(false, op, ": unsupported dtype (code ", static_cast<int>(dtype),
                      "); expected float32, float64, float16, bfloat16, int32 or int64");
  }
}

// The type arithmetic is done in: float for the 16-bit floats, the type itself otherwise.
template <class T>
struct accumulate_type {
  using type = T;
};
template <>
struct accumulate_type<c10::Half> {
  using type = float;
};
template <>
struct accumulate_type<c10::BFloat16> {
  using type = float;
};
template <class T>
using accumulate_t = typename accumulate_type<T>::type;

}  // namespace abiref
