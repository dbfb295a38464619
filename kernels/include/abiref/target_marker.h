#pragma once

// Declares the library's target to `torch-abi-check audit` (README "Auditing binaries"): the C string
// "torch-abi-check:target=<TORCH_TARGET_VERSION>" in read-only data, so an audit can check that the
// shims a build imports need no newer torch than it was built for. It is a plain char array with
// internal linkage: no torch symbol, nothing exported, so no part of the ABI; `used` keeps it at -O2.
// Every host group (kernels/cpu/v2_N, kernels/gpu/v2_N) includes it, so a build of any set of groups
// carries it; #pragma once makes that one copy per translation unit.
// Device sources (nvcc, hipcc) see neither the target macro nor torch's headers: there it is empty.
#if defined(TORCH_TARGET_VERSION)
#define ABIREF_TARGET_TEXT_OF(value) #value
#define ABIREF_TARGET_TEXT(value) ABIREF_TARGET_TEXT_OF(value)
__attribute__((used)) static const char abiref_target_marker[] =
    "torch-abi-check:target=" ABIREF_TARGET_TEXT(TORCH_TARGET_VERSION);
#elif __has_include(<torch/csrc/stable/library.h>) && !__has_include(<torch/csrc/stable/version.h>)
// 2.9's headers know no TORCH_TARGET_VERSION (it came with csrc/stable/version.h in 2.10): a build
// with them and no target targets 2.9.
__attribute__((used)) static const char abiref_target_marker[] = "torch-abi-check:target=2.9";
#endif
