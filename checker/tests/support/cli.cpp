#include "support/cli.h"

namespace abicheck::testing {

ProcessResult run_cli(const std::vector<std::string>& arguments) {
  std::vector<std::string> argv = {TORCH_ABI_CHECK_CLI};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return run_process({.argv = argv, .timeout = std::chrono::minutes(20)});
}

}  // namespace abicheck::testing
