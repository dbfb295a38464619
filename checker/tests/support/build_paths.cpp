#include "support/build_paths.h"

namespace abicheck::testing {

// The only file compiled with these paths (checker/tests/CMakeLists.txt).
const char* built_cli_path() { return TORCH_ABI_CHECK_CLI_PATH; }
const char* fixtures_root() { return TORCH_ABI_CHECK_FIXTURES_PATH; }

}  // namespace abicheck::testing
