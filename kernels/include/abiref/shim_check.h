#pragma once

// Checks a C shim's error code. From 2.13 the stable headers' STABLE_TORCH_ERROR_CODE_CHECK carries
// libtorch's own message across (torch_exception_get_what_without_backtrace); with older headers
// only the failing call's name crosses (TORCH_ERROR_CODE_CHECK). Kernels of the 2.10 to 2.12 groups
// use this name so that a build with newer headers reports the message.
#include <torch/csrc/stable/macros.h>
#include <torch/headeronly/util/shim_utils.h>

#ifdef STABLE_TORCH_ERROR_CODE_CHECK
#define ABIREF_SHIM_CHECK(call) STABLE_TORCH_ERROR_CODE_CHECK(call)
#else
#define ABIREF_SHIM_CHECK(call) TORCH_ERROR_CODE_CHECK(call)
#endif
