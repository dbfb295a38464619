#pragma once

#include <filesystem>
#include <string>

namespace abicheck {

// Where the project's own data lives (matrix/, kernels/, shim_decls/, fixtures/): the source tree
// this binary was built from, or $TORCH_ABI_CHECK_HOME for a relocated install.
std::filesystem::path project_root();

// The Python 3 that runs the project's Python parts (store installs, cell runners):
// $TORCH_ABI_CHECK_PYTHON, else python3 from PATH.
std::string host_python();

// The tool's cache: $XDG_CACHE_HOME (or ~/.cache)/torch-abi-check. The store, the matrix cache and
// check's work dirs live under it unless told otherwise.
std::filesystem::path user_cache_dir();

}  // namespace abicheck
