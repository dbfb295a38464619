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
  // shim_surface.cpp: the hand-written C shim called directly.
  m.def("item_roundtrip(Tensor x, bool widen) -> Tensor");
  m.def("storage_facts(Tensor x) -> (int, int, int, int, bool, bool)");
  m.def(
      "restrided(Tensor(a) x, int rows, int cols, int row_stride, int col_stride, int offset) -> (Tensor(a), "
      "Tensor(a))");
  m.def("blob_views(Tensor(a) x) -> (Tensor(a), Tensor(a))");
  m.def("clones(Tensor x) -> (Tensor, Tensor)");
  m.def("shim_copy_(Tensor(a!) dst, Tensor src) -> ()");
  m.def("reassigned(Tensor a, Tensor(b) b) -> (Tensor(b), Tensor(b))");
  m.def(
      "matmuls(Tensor a, Tensor b, Tensor bias, Tensor batch, Tensor other, float beta, float alpha) -> (Tensor, "
      "Tensor, Tensor)");
  m.def("reviewed(Tensor(a) x) -> Tensor(a)");
  m.def("real_view(Tensor(a) x) -> Tensor(a)");
  m.def("nonzero_of(Tensor x) -> Tensor");
  m.def("repeated(Tensor repeats, int output_size) -> (Tensor, Tensor)");
  m.def("mm_plus_mm(Tensor a, Tensor b, Tensor c, Tensor d) -> Tensor");
  m.def("scatters(Tensor self, Tensor index, Tensor src) -> (Tensor, Tensor, Tensor)");
  m.def("zeroed_(Tensor(a!) x) -> ()");
  m.def("grad_mode_flip(Tensor like) -> (bool, bool)");
  m.def("enum_codes(Tensor like) -> Tensor");
  m.def("dtype_getter(Tensor x, int index) -> (int, int)");
  m.def("abi_version(Tensor like) -> int");
  // shim_surface_aten.cpp: the aten-like entry points of the hand-written C shim called directly.
  m.def(
      "shim_convolution(Tensor input, Tensor weight, Tensor bias, int stride, int padding, int dilation, bool "
      "transposed, int output_padding, int groups) -> Tensor");
  m.def("shim_fft_c2c(Tensor x, int dim, int normalization, bool forward) -> Tensor");
  m.def(
      "shim_embedding_bag(Tensor weight, Tensor indices, Tensor offsets, int mode, Tensor per_sample_weights, bool "
      "weighted, bool include_last_offset, int padding_idx) -> (Tensor, Tensor, Tensor, Tensor)");
  m.def("shim_flash_attention(Tensor q, Tensor k, Tensor v, bool is_causal, bool v2, float scale) -> (Tensor, Tensor)");
  m.def("shim_efficient_attention(Tensor q, Tensor k, Tensor v) -> (Tensor, Tensor)");
  m.def("shim_scaled_mm(Tensor a, Tensor b, Tensor scale_a, Tensor scale_b, Tensor bias, bool v2) -> Tensor");
  m.def("shim_check_inf_and_nan(Tensor x) -> ()");
  m.def("shim_fbgemm_fp16_linear(Tensor input, Tensor weight, Tensor bias) -> Tensor");
  m.def(
      "shim_wrapped_quantized_linear(Tensor input, Tensor input_scale, Tensor input_zero_point, Tensor weight, Tensor "
      "weight_scale, Tensor weight_zero_point, Tensor bias, Tensor out_scale, Tensor out_zero_point) -> Tensor");
  m.def("shim_cpu_declared(Tensor like) -> bool");
  m.def("shim_int4pack_mm(Tensor x, Tensor w, Tensor group_size, Tensor scales_and_zeros) -> Tensor");
  m.def("shim_linear_pointwise(Tensor x, Tensor w, Tensor b, Tensor other) -> (Tensor, Tensor)");
  m.def("shim_mkl_linear(Tensor x, Tensor packed, Tensor w, Tensor b, int batch) -> Tensor");
  m.def(
      "shim_conv_pointwise(Tensor x, Tensor w, Tensor b, Tensor other, Tensor(a!) accum, Tensor wt) -> (Tensor, "
      "Tensor, Tensor, Tensor)");
  m.def(
      "shim_rnn_layer(Tensor input, Tensor w_ih, Tensor w_hh, Tensor b_ih, Tensor b_hh, Tensor hx, Tensor cx, int "
      "hidden_size) -> (Tensor, Tensor, Tensor)");
  m.def(
      "shim_qlinear(Tensor qx, Tensor x_scale, Tensor x_zero_point, Tensor qw, Tensor w_scale, Tensor w_zero_point, "
      "Tensor b, Tensor other) -> (Tensor, Tensor)");
  m.def(
      "shim_qconv(Tensor qx, Tensor x_scale, Tensor x_zero_point, Tensor qw, Tensor w_scale, Tensor w_zero_point, "
      "Tensor b, Tensor(a!) accum) -> (Tensor, Tensor)");
  m.def("shim_all_reduce(Tensor x, Tensor(a!) in_place, int group) -> Tensor");
  // shim_surface_runtime.cpp: the runtime utilities of the hand-written C shim.
  m.def("profiled_clone(Tensor x) -> Tensor");
  m.def("pool_view(Tensor(a) pool, int offset_bytes, int rows, int cols) -> Tensor(a)");
  m.def("checked_clone(Tensor x, bool ok) -> Tensor");
  m.def("warned_clone(Tensor x) -> Tensor");
  m.def("guarded_devices(Tensor like, int index, int next_index) -> (int, int)");
  m.def("pinned_empty(Tensor like, int rows, int cols) -> Tensor");
  m.def("uninitialized_copy(Tensor x) -> (bool, bool, Tensor)");
  m.def("printed(Tensor x) -> ()");
  m.def("saved(Tensor x) -> ()");
}
