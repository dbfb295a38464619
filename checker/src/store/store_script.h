#pragma once

#include <string>
#include <vector>

#include "core/process.h"
#include "store/release_store.h"

namespace abicheck {

// Installing and removing need pip, so they are matrix/torch_store.py's job. Runs it on `store` with
// `arguments` ("install", "2.10"…); its output goes straight to our standard streams.
ProcessResult run_store_script(const ReleaseStore& store, const std::vector<std::string>& arguments);

}  // namespace abicheck
