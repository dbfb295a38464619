#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "core/process.h"

namespace abicheck::testing {

// Runs the built torch-abi-check with these arguments, the way a user would. When the run wrote a
// report document (--json FILE) and judged (exit 0 or 1), the document is also checked against
// docs/schemas/report.schema.json, and `report FILE` must exit as the command did: every test that
// writes JSON proves both.
ProcessResult run_cli(const std::vector<std::string>& arguments);

// A test's cache folder under the build tree, whose build caches (builds/, device-objects/, and the
// aoti suite's compiled/, extension/, cpp-runners/) are links to folders that every clone's tests
// share on this machine
// ($XDG_CACHE_HOME/torch-abi-check/test-builds/). Cells, reports and work files stay in the build
// tree and start empty in a fresh clone; builds are keyed by every input (sources, flags, torch, the
// builder's own source: checker_builder_recipe), so a clone reuses one exactly where its own build
// would come out the same, as a user's cache does. Returns `cache_dir`.
std::filesystem::path with_shared_builds(const std::filesystem::path& cache_dir);

// The Python of ci/setup.sh's tools venv (jsonschema, the SARIF schema).
std::filesystem::path tools_python();

// Validates a JSON file against one of docs/schemas/*.schema.json; returns "" when valid, else the
// validator's words.
std::string schema_errors(const std::string& schema_name, const std::filesystem::path& file);

}  // namespace abicheck::testing
