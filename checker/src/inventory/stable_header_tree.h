#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/torch_version.h"

namespace abicheck {

// The four header trees that make up the stable surface, relative to a torch include dir.
inline constexpr std::string_view kStableHeaderTrees[] = {
    "torch/csrc/inductor/aoti_torch/c/",
    "torch/csrc/inductor/aoti_torch/generated/",
    "torch/csrc/stable/",
    "torch/headeronly/",
};

// The header every release with a stable ABI has; a tree without it is not a stable-ABI torch.
inline constexpr std::string_view kShimHeader = "torch/csrc/inductor/aoti_torch/c/shim.h";

// True when `relative` (a path relative to the include dir) lies in one of the stable trees.
bool is_stable_header(std::string_view relative);

// Every header of the stable trees under include_dir, sorted, relative to it. Left out: headers that
// only compile on another platform (the vectorisation headers under torch/headeronly/cpu/, NEON
// does not build on x86; the device code under torch/headeronly/cuda/; win32-headers.h), which
// declare nothing of the shim.
std::vector<std::string> list_stable_headers(const std::filesystem::path& include_dir);

// A source file that includes each of `headers` (include-dir-relative), in order.
std::string umbrella_source(const std::vector<std::string>& headers);

// Some shim headers only make sense for one backend and are not guarded by its define (the
// generated c_shim_cuda.h is simply not included by a CPU build): the define a user needs, or "".
std::string_view backend_of_header(std::string_view relative);

// A ToolError naming include_dir when it has no stable ABI headers (no kShimHeader).
void require_stable_headers(const std::filesystem::path& include_dir);

}  // namespace abicheck
