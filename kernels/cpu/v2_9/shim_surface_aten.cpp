// Kernels that call the aten-like entry points of 2.9's hand-written C shim directly: the deprecated
// convolution, FFT, embedding bag, attention and scaled matmul kernels of shim_deprecated.h, the
// inf/nan check, the fbgemm and quantized linear wrappers of shim.h, and the CPU kernels of
// shim_cpu.h (oneDNN linear and convolution with fused post-ops, MKL linear, int4 matmul). Every
// result is checked against torch's eager op on the same inputs by test_v2_9.py; where CPU has no
// kernel (flash and efficient attention) the test checks that torch's error crosses the shim.
#include <torch/csrc/inductor/aoti_torch/c/shim.h>
#include <torch/csrc/stable/library.h>
#include <torch/csrc/stable/tensor.h>

#include <array>
#include <cstdint>
#include <string>

#include "abiref/boxing.h"

// With 2.13's headers and newer an error inside a shim crosses with libtorch's message
// (abiref/shim_check.h); 2.9's headers have no torch/csrc/stable/macros.h and report the call's name.
#if __has_include(<torch/csrc/stable/macros.h>)
#include "abiref/shim_check.h"
#else
#define ABIREF_SHIM_CHECK(call) TORCH_ERROR_CODE_CHECK(call)
#endif

// shim_cpu.h includes ATen/Config.h, which from 2.10 on stops the build with an #error when the
// extension sets TORCH_TARGET_VERSION (so a 2.9-target build with newer headers cannot see these
// shims). The headers that do so are the ones that ship torch/csrc/stable/version.h (new in 2.10);
// a 2.9-target extension built with 2.9's headers imports them, and so does the 2.9 build here.
#if !__has_include(<torch/csrc/stable/version.h>)
#include <torch/csrc/inductor/aoti_torch/c/shim_cpu.h>
#define ABIREF_SHIM_CPU_DECLARED 1
#else
#define ABIREF_SHIM_CPU_DECLARED 0
#endif

// A named namespace: the matrix builds each group as one unity translation unit, where the anonymous
// namespaces of shim_surface.cpp and this file would be one.
namespace abiref_shim_surface_aten {

using abiref::boxing::from;
using abiref::boxing::to;
using torch::stable::Tensor;

// A new reference returned by a shim, owned from here on (released exactly once by Tensor).
Tensor owned(AtenTensorHandle handle) { return Tensor(handle); }

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

// A 2-d convolution (or transposed convolution) with the same stride, padding and dilation on both axes.
void boxed_shim_convolution(StableIValue* stack, uint64_t, uint64_t) {
  Tensor input = to<Tensor>(stack[0]);
  Tensor weight = to<Tensor>(stack[1]);
  Tensor bias = to<Tensor>(stack[2]);
  const std::array<int64_t, 2> stride{to<int64_t>(stack[3]), to<int64_t>(stack[3])};
  const std::array<int64_t, 2> padding{to<int64_t>(stack[4]), to<int64_t>(stack[4])};
  const std::array<int64_t, 2> dilation{to<int64_t>(stack[5]), to<int64_t>(stack[5])};
  const bool transposed = to<bool>(stack[6]);
  const std::array<int64_t, 2> output_padding{to<int64_t>(stack[7]), to<int64_t>(stack[7])};
  const int64_t groups = to<int64_t>(stack[8]);
  AtenTensorHandle out = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_convolution(input.get(), weight.get(), bias.get(), stride.data(), 2, padding.data(), 2,
                                           dilation.data(), 2, transposed ? 1 : 0, output_padding.data(), 2, groups,
                                           &out));
  stack[0] = from(owned(out));
}

void boxed_shim_fft_c2c(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  const std::array<int64_t, 1> dims{to<int64_t>(stack[1])};
  AtenTensorHandle out = nullptr;
  ABIREF_SHIM_CHECK(
      aoti_torch__fft_c2c(x.get(), dims.data(), 1, to<int64_t>(stack[2]), to<bool>(stack[3]) ? 1 : 0, &out));
  stack[0] = from(owned(out));
}

// _embedding_bag's four results; per-sample weights are passed only when `weighted`.
void boxed_shim_embedding_bag(StableIValue* stack, uint64_t, uint64_t) {
  Tensor weight = to<Tensor>(stack[0]);
  Tensor indices = to<Tensor>(stack[1]);
  Tensor offsets = to<Tensor>(stack[2]);
  const int64_t mode = to<int64_t>(stack[3]);
  Tensor per_sample = to<Tensor>(stack[4]);
  const bool weighted = to<bool>(stack[5]);
  const bool include_last_offset = to<bool>(stack[6]);
  const int64_t padding_idx = to<int64_t>(stack[7]);
  std::array<AtenTensorHandle, 4> out{};
  ABIREF_SHIM_CHECK(aoti_torch__embedding_bag(weight.get(), indices.get(), offsets.get(), 0, static_cast<int32_t>(mode),
                                              0, weighted ? per_sample.get() : nullptr, include_last_offset ? 1 : 0,
                                              static_cast<int32_t>(padding_idx), &out[0], &out[1], &out[2], &out[3]));
  for (size_t i = 0; i < out.size(); ++i) stack[i] = from(owned(out[i]));
}

// Flash attention (the first entry point, or _v2 with the scale given); returns output and logsumexp.
void boxed_shim_flash_attention(StableIValue* stack, uint64_t, uint64_t) {
  Tensor q = to<Tensor>(stack[0]);
  Tensor k = to<Tensor>(stack[1]);
  Tensor v = to<Tensor>(stack[2]);
  const bool causal = to<bool>(stack[3]);
  const bool v2 = to<bool>(stack[4]);
  double scale = to<double>(stack[5]);
  std::array<AtenTensorHandle, 7> out{};
  int64_t max_q = 0, max_k = 0;
  if (v2) {
    ABIREF_SHIM_CHECK(aoti_torch__scaled_dot_product_flash_attention_v2(q.get(), k.get(), v.get(), 0.0, causal ? 1 : 0,
                                                                        0, &scale, &out[0], &out[1], &out[2], &out[3],
                                                                        &max_q, &max_k, &out[4], &out[5], &out[6]));
  } else {
    ABIREF_SHIM_CHECK(aoti_torch__scaled_dot_product_flash_attention(q.get(), k.get(), v.get(), 0.0, causal, false,
                                                                     scale, &out[0], &out[1], &out[2], &out[3], &max_q,
                                                                     &max_k, &out[4], &out[5], &out[6]));
  }
  std::array<Tensor, 7> results{owned(out[0]), owned(out[1]), owned(out[2]), owned(out[3]),
                                owned(out[4]), owned(out[5]), owned(out[6])};
  stack[0] = from(results[0]);
  stack[1] = from(results[1]);
}

void boxed_shim_efficient_attention(StableIValue* stack, uint64_t, uint64_t) {
  Tensor q = to<Tensor>(stack[0]);
  Tensor k = to<Tensor>(stack[1]);
  Tensor v = to<Tensor>(stack[2]);
  std::array<AtenTensorHandle, 4> out{};
  ABIREF_SHIM_CHECK(aoti_torch__scaled_dot_product_efficient_attention(q.get(), k.get(), v.get(), nullptr, 1, 0.0, 0,
                                                                       nullptr, &out[0], &out[1], &out[2], &out[3]));
  std::array<Tensor, 4> results{owned(out[0]), owned(out[1]), owned(out[2]), owned(out[3])};
  stack[0] = from(results[0]);
  stack[1] = from(results[1]);
}

// _scaled_mm to float32 through the first entry point (its amax result dropped) or through _v2.
void boxed_shim_scaled_mm(StableIValue* stack, uint64_t, uint64_t) {
  Tensor a = to<Tensor>(stack[0]);
  Tensor b = to<Tensor>(stack[1]);
  Tensor scale_a = to<Tensor>(stack[2]);
  Tensor scale_b = to<Tensor>(stack[3]);
  Tensor bias = to<Tensor>(stack[4]);
  const bool v2 = to<bool>(stack[5]);
  int32_t out_dtype = aoti_torch_dtype_float32();
  AtenTensorHandle out = nullptr;
  if (v2) {
    ABIREF_SHIM_CHECK(aoti_torch__scaled_mm_v2(a.get(), b.get(), scale_a.get(), scale_b.get(), bias.get(), nullptr,
                                               &out_dtype, 0, &out));
    stack[0] = from(owned(out));
  } else {
    AtenTensorHandle amax = nullptr;
    ABIREF_SHIM_CHECK(aoti_torch__scaled_mm(a.get(), b.get(), bias.get(), &out_dtype, scale_a.get(), scale_b.get(),
                                            nullptr, 0, &out, &amax));
    Tensor result = owned(out);
    if (amax != nullptr) owned(amax);  // released at once: only the product is compared
    stack[0] = from(result);
  }
}
#pragma GCC diagnostic pop

void boxed_shim_check_inf_and_nan(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  ABIREF_SHIM_CHECK(aoti_torch_check_inf_and_nan("checked", x.get()));
}

// fbgemm's fp16 weight packing, then the linear that reads the packed weight.
void boxed_shim_fbgemm_fp16_linear(StableIValue* stack, uint64_t, uint64_t) {
  Tensor input = to<Tensor>(stack[0]);
  Tensor weight = to<Tensor>(stack[1]);
  Tensor bias = to<Tensor>(stack[2]);
  AtenTensorHandle packed = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu_wrapped_fbgemm_pack_gemm_matrix_fp16(weight.get(), &packed));
  Tensor packed_weight = owned(packed);
  AtenTensorHandle out = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu_wrapped_fbgemm_linear_fp16_weight(input.get(), packed_weight.get(), bias.get(),
                                                                     weight.size(0), &out));
  stack[0] = from(owned(out));
}

// The quantized linear of the wrapped fbgemm kernels: weight prepacked with its scale, zero point
// and bias, then applied to an input with its own scale and zero point.
void boxed_shim_wrapped_quantized_linear(StableIValue* stack, uint64_t, uint64_t) {
  Tensor input = to<Tensor>(stack[0]);
  Tensor input_scale = to<Tensor>(stack[1]);
  Tensor input_zero_point = to<Tensor>(stack[2]);
  Tensor weight = to<Tensor>(stack[3]);
  Tensor weight_scale = to<Tensor>(stack[4]);
  Tensor weight_zero_point = to<Tensor>(stack[5]);
  Tensor bias = to<Tensor>(stack[6]);
  Tensor out_scale = to<Tensor>(stack[7]);
  Tensor out_zero_point = to<Tensor>(stack[8]);
  AtenTensorHandle packed = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__wrapped_linear_prepack(weight.get(), weight_scale.get(), weight_zero_point.get(),
                                                           bias.get(), &packed));
  Tensor packed_weight = owned(packed);
  AtenTensorHandle out = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__wrapped_quantized_linear_prepacked(
      input.get(), input_scale.get(), input_zero_point.get(), packed_weight.get(), out_scale.get(),
      out_zero_point.get(), weight.size(0), &out));
  stack[0] = from(owned(out));
}

// Whether this build could see shim_cpu.h (see above): the tests of the ops below run only where it did.
void boxed_shim_cpu_declared(StableIValue* stack, uint64_t, uint64_t) {
  Tensor like = to<Tensor>(stack[0]);
  stack[0] = from(ABIREF_SHIM_CPU_DECLARED != 0);
}

#if ABIREF_SHIM_CPU_DECLARED
// int4 matmul of an input with a weight packed by _convert_weight_to_int4pack_for_cpu.
void boxed_shim_int4pack_mm(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  Tensor w = to<Tensor>(stack[1]);
  Tensor group_size = to<Tensor>(stack[2]);
  Tensor scales_and_zeros = to<Tensor>(stack[3]);
  AtenTensorHandle out = nullptr;
  ABIREF_SHIM_CHECK(
      aoti_torch_cpu__weight_int4pack_mm_cpu_tensor(x.get(), w.get(), group_size.get(), scales_and_zeros.get(), &out));
  stack[0] = from(owned(out));
}

// oneDNN linear with a fused relu, and with a fused add of `other`.
void boxed_shim_linear_pointwise(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  Tensor w = to<Tensor>(stack[1]);
  Tensor b = to<Tensor>(stack[2]);
  Tensor other = to<Tensor>(stack[3]);
  AtenTensorHandle bias = b.get();
  const char* algorithm = "";
  AtenTensorHandle unary = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__linear_pointwise(x.get(), w.get(), &bias, "relu", nullptr, 0, &algorithm, &unary));
  Tensor relu = owned(unary);
  AtenTensorHandle binary = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__linear_pointwise_binary(x.get(), other.get(), w.get(), &bias, "add", &binary));
  stack[0] = from(relu);
  stack[1] = from(owned(binary));
}

#if AT_MKL_ENABLED()
// MKL linear with a weight packed by torch.ops.mkl._mkl_reorder_linear_weight for `batch` rows.
void boxed_shim_mkl_linear(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  Tensor packed = to<Tensor>(stack[1]);
  Tensor w = to<Tensor>(stack[2]);
  Tensor b = to<Tensor>(stack[3]);
  AtenTensorHandle bias = b.get();
  AtenTensorHandle out = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__mkl_linear(x.get(), packed.get(), w.get(), &bias, to<int64_t>(stack[4]), &out));
  stack[0] = from(owned(out));
}
#endif

// oneDNN convolutions with fused post-ops (stride, padding, dilation 1 on both axes, one group):
// relu; add of `other` (out of place, and in place into `accum`), no unary op after the add;
// transposed with relu and no bias.
void boxed_shim_conv_pointwise(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  Tensor w = to<Tensor>(stack[1]);
  Tensor b = to<Tensor>(stack[2]);
  Tensor other = to<Tensor>(stack[3]);
  Tensor accum = to<Tensor>(stack[4]);
  Tensor wt = to<Tensor>(stack[5]);
  const std::array<int64_t, 2> ones{1, 1};
  const std::array<int64_t, 2> zeros{0, 0};
  AtenTensorHandle bias = b.get();
  const char* algorithm = "";
  double alpha = 1.0;
  AtenTensorHandle relu = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu_mkldnn__convolution_pointwise(x.get(), w.get(), &bias, ones.data(), 2, ones.data(),
                                                                 2, ones.data(), 2, 1, "relu", nullptr, 0, &algorithm,
                                                                 &relu));
  Tensor relu_out = owned(relu);
  AtenTensorHandle added = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu_mkldnn__convolution_pointwise_binary(
      x.get(), other.get(), w.get(), &bias, ones.data(), 2, ones.data(), 2, ones.data(), 2, 1, "add", &alpha, nullptr,
      nullptr, 0, &algorithm, &added));
  Tensor added_out = owned(added);
  AtenTensorHandle in_place = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu_mkldnn__convolution_pointwise_binary_(
      accum.get(), x.get(), w.get(), &bias, ones.data(), 2, ones.data(), 2, ones.data(), 2, 1, "add", &alpha, nullptr,
      nullptr, 0, &algorithm, &in_place));
  Tensor in_place_out = owned(in_place);
  AtenTensorHandle transposed = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu_mkldnn__convolution_transpose_pointwise(
      x.get(), wt.get(), nullptr, ones.data(), 2, zeros.data(), 2, ones.data(), 2, ones.data(), 2, 1, "relu", nullptr,
      0, &algorithm, &transposed));
  stack[0] = from(relu_out);
  stack[1] = from(added_out);
  stack[2] = from(in_place_out);
  stack[3] = from(owned(transposed));
}

// One LSTM layer (mode 2) through oneDNN, forward, no batch sizes: output, h and c (the workspace is dropped).
void boxed_shim_rnn_layer(StableIValue* stack, uint64_t, uint64_t) {
  std::array<Tensor, 7> in{to<Tensor>(stack[0]), to<Tensor>(stack[1]), to<Tensor>(stack[2]), to<Tensor>(stack[3]),
                           to<Tensor>(stack[4]), to<Tensor>(stack[5]), to<Tensor>(stack[6])};
  const int64_t hidden_size = to<int64_t>(stack[7]);
  std::array<AtenTensorHandle, 4> out{};
  ABIREF_SHIM_CHECK(aoti_torch_cpu_mkldnn_rnn_layer(in[0].get(), in[1].get(), in[2].get(), in[3].get(), in[4].get(),
                                                    in[5].get(), in[6].get(), 0, nullptr, 0, 2, hidden_size, 1, 1, 0, 0,
                                                    0, &out[0], &out[1], &out[2], &out[3]));
  std::array<Tensor, 4> results{owned(out[0]), owned(out[1]), owned(out[2]), owned(out[3])};
  stack[0] = from(results[0]);
  stack[1] = from(results[1]);
  stack[2] = from(results[2]);
}

// The onednn quantized linear (float32 output, no post-op) and the same with `other` added.
void boxed_shim_qlinear(StableIValue* stack, uint64_t, uint64_t) {
  std::array<Tensor, 6> q{to<Tensor>(stack[0]), to<Tensor>(stack[1]), to<Tensor>(stack[2]),
                          to<Tensor>(stack[3]), to<Tensor>(stack[4]), to<Tensor>(stack[5])};
  Tensor b = to<Tensor>(stack[6]);
  Tensor other = to<Tensor>(stack[7]);
  AtenTensorHandle bias = b.get();
  AtenTensorHandle other_handle = other.get();
  const int32_t float32 = aoti_torch_dtype_float32();
  AtenTensorHandle plain = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__qlinear_pointwise_tensor(q[0].get(), q[1].get(), q[2].get(), q[3].get(), q[4].get(),
                                                             q[5].get(), &bias, 1.0, 0, &float32, "none", nullptr, 0,
                                                             "", &plain));
  Tensor plain_out = owned(plain);
  AtenTensorHandle added = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__qlinear_pointwise_binary_tensor(
      q[0].get(), q[1].get(), q[2].get(), q[3].get(), q[4].get(), q[5].get(), &other_handle, &bias, 1.0, 0, &float32,
      1.0, 0, "add", 1.0, "none", nullptr, 0, "", &added));
  stack[0] = from(plain_out);
  stack[1] = from(owned(added));
}

// The onednn quantized 2-d convolution (stride, padding, dilation 1, one group, float32 output), plain
// and with a float32 `accum` summed in.
void boxed_shim_qconv(StableIValue* stack, uint64_t, uint64_t) {
  std::array<Tensor, 6> q{to<Tensor>(stack[0]), to<Tensor>(stack[1]), to<Tensor>(stack[2]),
                          to<Tensor>(stack[3]), to<Tensor>(stack[4]), to<Tensor>(stack[5])};
  Tensor b = to<Tensor>(stack[6]);
  Tensor accum = to<Tensor>(stack[7]);
  AtenTensorHandle bias = b.get();
  const std::array<int64_t, 2> ones{1, 1};
  const int32_t float32 = aoti_torch_dtype_float32();
  const char* algorithm = "";
  double alpha = 1.0;
  AtenTensorHandle plain = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__qconv_pointwise_tensor(
      q[0].get(), q[1].get(), q[2].get(), q[3].get(), q[4].get(), q[5].get(), &bias, ones.data(), 2, ones.data(), 2,
      ones.data(), 2, 1, 1.0, 0, &float32, "none", nullptr, 0, &algorithm, &plain));
  Tensor plain_out = owned(plain);
  AtenTensorHandle summed = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__qconv2d_pointwise_binary_tensor(
      q[0].get(), q[1].get(), q[2].get(), q[3].get(), q[4].get(), q[5].get(), accum.get(), &bias, ones.data(), 2,
      ones.data(), 2, ones.data(), 2, 1, 1.0, 0, &float32, 1.0, 0, "sum", &alpha, nullptr, nullptr, 0, nullptr,
      &summed));
  stack[0] = from(plain_out);
  stack[1] = from(owned(summed));
}

// The functional collectives on the process group named by the number `group` (the test's one-rank
// gloo group): all_reduce (new tensor) then wait_tensor, and all_reduce_ in place.
void boxed_shim_all_reduce(StableIValue* stack, uint64_t, uint64_t) {
  Tensor x = to<Tensor>(stack[0]);
  Tensor in_place = to<Tensor>(stack[1]);
  const std::string group = std::to_string(to<int64_t>(stack[2]));
  AtenTensorHandle reduced = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__c10d_functional_all_reduce(x.get(), "sum", group.c_str(), &reduced));
  Tensor pending = owned(reduced);
  AtenTensorHandle waited = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__c10d_functional_wait_tensor(pending.get(), &waited));
  Tensor done = owned(waited);
  AtenTensorHandle same = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__c10d_functional_all_reduce_(in_place.get(), "sum", group.c_str(), &same));
  Tensor same_out = owned(same);
  AtenTensorHandle waited_again = nullptr;
  ABIREF_SHIM_CHECK(aoti_torch_cpu__c10d_functional_wait_tensor(same_out.get(), &waited_again));
  owned(waited_again);
  stack[0] = from(done);
}
#endif  // ABIREF_SHIM_CPU_DECLARED

}  // namespace abiref_shim_surface_aten

STABLE_TORCH_LIBRARY_IMPL(abiref, CPU, m) {
  m.impl("shim_convolution", &abiref_shim_surface_aten::boxed_shim_convolution);
  m.impl("shim_fft_c2c", &abiref_shim_surface_aten::boxed_shim_fft_c2c);
  m.impl("shim_embedding_bag", &abiref_shim_surface_aten::boxed_shim_embedding_bag);
  m.impl("shim_flash_attention", &abiref_shim_surface_aten::boxed_shim_flash_attention);
  m.impl("shim_efficient_attention", &abiref_shim_surface_aten::boxed_shim_efficient_attention);
  m.impl("shim_scaled_mm", &abiref_shim_surface_aten::boxed_shim_scaled_mm);
  m.impl("shim_check_inf_and_nan", &abiref_shim_surface_aten::boxed_shim_check_inf_and_nan);
  m.impl("shim_fbgemm_fp16_linear", &abiref_shim_surface_aten::boxed_shim_fbgemm_fp16_linear);
  m.impl("shim_wrapped_quantized_linear", &abiref_shim_surface_aten::boxed_shim_wrapped_quantized_linear);
  m.impl("shim_cpu_declared", &abiref_shim_surface_aten::boxed_shim_cpu_declared);
#if ABIREF_SHIM_CPU_DECLARED
  m.impl("shim_int4pack_mm", &abiref_shim_surface_aten::boxed_shim_int4pack_mm);
  m.impl("shim_linear_pointwise", &abiref_shim_surface_aten::boxed_shim_linear_pointwise);
  m.impl("shim_conv_pointwise", &abiref_shim_surface_aten::boxed_shim_conv_pointwise);
  m.impl("shim_rnn_layer", &abiref_shim_surface_aten::boxed_shim_rnn_layer);
  m.impl("shim_all_reduce", &abiref_shim_surface_aten::boxed_shim_all_reduce);
#endif
}

#if ABIREF_SHIM_CPU_DECLARED
// The weights that mkl._mkl_reorder_linear_weight and onednn's qlinear/qconv prepack make are MKL-DNN
// tensors, so these ops dispatch here.
STABLE_TORCH_LIBRARY_IMPL(abiref, MkldnnCPU, m) {
#if AT_MKL_ENABLED()
  m.impl("shim_mkl_linear", &abiref_shim_surface_aten::boxed_shim_mkl_linear);
#endif
  m.impl("shim_qlinear", &abiref_shim_surface_aten::boxed_shim_qlinear);
  m.impl("shim_qconv", &abiref_shim_surface_aten::boxed_shim_qconv);
}
#endif
