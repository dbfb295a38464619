#pragma once

// The StableIValue conversions moved from the global namespace (2.9) to torch::stable::detail
// (2.10, where the global ones became deprecated shims). The 2.9 kernels box their arguments by
// hand, so they reach the conversions through this one name whatever headers they build with.
#include <torch/csrc/stable/stableivalue_conversions.h>

#if __has_include(<torch/csrc/stable/version.h>)
namespace abiref::boxing {
using torch::stable::detail::from;
using torch::stable::detail::to;
}  // namespace abiref::boxing
#else
namespace abiref::boxing {
using ::from;
using ::to;
}  // namespace abiref::boxing
#endif
