// Schemas of the 2.10 group, added to the library as a fragment.
#include <torch/csrc/stable/library.h>

#include "abiref/target_marker.h"

STABLE_TORCH_LIBRARY_FRAGMENT(abiref, m) {
  m.def("parallel_scale(Tensor x, float scale) -> Tensor");
  m.def("sum_tensors(Tensor[] tensors) -> Tensor");
  m.def("difference(Tensor a, Tensor b, float alpha) -> Tensor");
  m.def("reshape_to(Tensor x, int[] shape) -> Tensor");
  m.def("copy_into_(Tensor(a!) dst, Tensor src) -> ()");
  m.def("filled(int[] shape, float value) -> Tensor");
  m.def("dispatch_neg(Tensor x) -> Tensor");
  m.def("describe(Tensor x, str prefix) -> str");
  m.def("thread_count() -> int");
  // ivalues.cpp: boxed values made through the C shim, the inputs of a profiler range.
  m.def("profiled_inputs(Tensor x, int n, str label) -> Tensor");
}
