// The op library itself: its schemas for the 2.9 group. Newer groups add theirs with
// STABLE_TORCH_LIBRARY_FRAGMENT, so a build at any target defines exactly the ops it implements.
#include <torch/csrc/stable/library.h>

#include "abiref/target_marker.h"

STABLE_TORCH_LIBRARY(abiref, m) {
  m.def("scaled_add(Tensor a, Tensor b, float alpha) -> Tensor");
  m.def("strided_sum(Tensor x) -> Tensor");
  m.def("contiguous_copy(Tensor x) -> Tensor");
  m.def("metadata(Tensor x) -> (int, int, int, bool)");
  m.def("padded(Tensor x, int left, int right, float value) -> Tensor");
  m.def("fill_narrow_(Tensor(a!) x, int dim, int start, int length, float value) -> ()");
  m.def("amax_dim(Tensor x, int dim, bool keepdim) -> Tensor");
  m.def("swap01(Tensor(a) x) -> Tensor(a)");
  m.def("zeros_2d(Tensor like, int rows, int cols) -> Tensor");
  m.def("dispatch_abs(Tensor x) -> Tensor");
}
