#include "gate/candidate_release.h"

#include <fmt/format.h>

#include <filesystem>

#include "core/process.h"
#include "core/tool_error.h"
#include "store/store_script.h"

namespace abicheck {
namespace {

void install_into_store(const ReleaseStore& store, const std::string& version) {
  ProcessResult result = run_store_script(store, {"install", version});
  if (result.succeeded()) return;
  // Exit 2 is the script's own refusal, already said on its one line (a version PyPI does not have).
  if (result.exit_code == 2) throw ToolError("");
  throw ToolError(fmt::format("torch {}: the store could not install it ({})", version, result.describe()));
}

}  // namespace

ReleaseCandidate resolve_candidate(const std::string& spec, const ReleaseStore& store) {
  bool names_a_version = !std::filesystem::exists(spec) && TorchVersion::try_parse(spec);
  if (names_a_version && !store.find(spec)) install_into_store(store, spec);
  ResolvedRelease resolved = store.resolve(spec);
  return {resolved.require_installed(), resolved.origin == ReleaseOrigin::Store};
}

}  // namespace abicheck
