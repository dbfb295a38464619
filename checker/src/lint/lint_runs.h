#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/torch_version.h"
#include "inventory/shim_inventory.h"
#include "lint/extension/extension_sources.h"
#include "lint/lint_report.h"
#include "store/release_store.h"

namespace abicheck {

// The two lint runs as library calls, so that `lint`, `check` and `release-gate` run the same thing.
// Each returns the report and the notes a person should read (rules that could not run, and why).

struct LintRun {
  LintReport report;
  std::size_t translation_units = 0;
  std::vector<std::string> notes;
};

// Releases the rules may call known: those with a committed baseline and those in the store.
std::vector<TorchVersion> known_releases(const ReleaseStore& store, const std::filesystem::path& baselines);

struct ExtensionLintRequest {
  std::filesystem::path path;          // project directory or its compile_commands.json
  std::optional<TorchVersion> target;  // for translation units whose sources and build files say none
  std::filesystem::path root;          // the project's root when it is not `path` (empty: derived)
  std::filesystem::path baselines;     // committed shim_decls/
  // The project's sources when the caller has found them already (`check` needs them first for the
  // target); none: found here, the build description run against `build` (extension_sources.h).
  std::optional<ExtensionSources> sources;
};

// The torch a project's build description is run against to say what it compiles: `build` when it
// is installed (a store release, a torch package with its Python), else the newest stored release.
SourceDiscovery source_discovery(const ReleaseStore& store, const ResolvedRelease& build);

// Lints an extension's sources against build torch `build` (E001-E010). The first note says where
// the translation units came from.
LintRun lint_extension(const ReleaseStore& store, const ResolvedRelease& build, const ExtensionLintRequest& request);

struct HeaderLintRequest {
  std::string torch;  // as ReleaseStore::resolve takes it: "2.12", a torch package dir, an include dir
  std::optional<ShimInventory> inventory;  // already collected from those headers (none: reuse or collect)
  std::filesystem::path baselines;         // committed shim_decls/
  // When the inventory is collected and equals the committed baselines/<release>/inventory.json,
  // record the headers' hash beside it so that later runs reuse it (see lint/headers/inventory_stamp.h).
  bool stamp_baseline = false;
};

// Lints a torch header tree against the committed baselines of the releases before it (H001-H006).
LintRun lint_headers(const ReleaseStore& store, const HeaderLintRequest& request);

}  // namespace abicheck
