#pragma once

#include <filesystem>

namespace abicheck {

// Where the project's own data lives (matrix/, kernels/, shim_decls/, fixtures/): the source tree
// this binary was built from, or $TORCH_ABI_CHECK_HOME for a relocated install.
std::filesystem::path project_root();

// The Python 3 that runs the project's Python parts (store installs, cell runners):
// $TORCH_ABI_CHECK_PYTHON, else python3 from PATH.
std::string host_python();

}  // namespace abicheck
