#pragma once

#include <string>
#include <vector>

#include "core/process.h"

namespace abicheck::testing {

// Runs the built torch-abi-check with these arguments, the way a user would.
ProcessResult run_cli(const std::vector<std::string>& arguments);

}  // namespace abicheck::testing
