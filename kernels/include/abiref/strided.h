#pragma once

#include <torch/csrc/stable/tensor.h>

#include <cstdint>
#include <vector>

namespace abiref {

// The shape and element strides of a tensor, read through the 2.9 accessors (size(d), stride(d))
// so that every group can use it.
struct StridedLayout {
  std::vector<std::int64_t> sizes;
  std::vector<std::int64_t> strides;
};

inline StridedLayout layout_of(const torch::stable::Tensor& tensor) {
  StridedLayout layout;
  for (std::int64_t d = 0; d < tensor.dim(); ++d) {
    layout.sizes.push_back(tensor.size(d));
    layout.strides.push_back(tensor.stride(d));
  }
  return layout;
}

inline std::int64_t element_count(const std::vector<std::int64_t>& sizes) {
  std::int64_t count = 1;
  for (auto size : sizes) count *= size;
  return count;
}

// Walks every index of `sizes` in row-major order and calls visit(linear, offsets) where
// offsets[k] is the element offset of that index in operand k (its own strides). Honours any
// strides, including zero and transposed ones; data pointers already include storage offsets.
template <std::size_t N, class Visit>
void for_each_element(const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t> (&strides)[N],
                      Visit&& visit) {
  const std::int64_t count = element_count(sizes);
  if (count == 0) return;
  const std::size_t dims = sizes.size();
  std::vector<std::int64_t> index(dims, 0);
  std::int64_t offsets[N] = {};
  for (std::int64_t linear = 0; linear < count; ++linear) {
    visit(linear, offsets);
    for (std::size_t d = dims; d-- > 0;) {
      if (++index[d] < sizes[d]) {
        for (std::size_t k = 0; k < N; ++k) offsets[k] += strides[k][d];
        break;
      }
      for (std::size_t k = 0; k < N; ++k) offsets[k] -= strides[k][d] * (sizes[d] - 1);
      index[d] = 0;
    }
  }
}

}  // namespace abiref
