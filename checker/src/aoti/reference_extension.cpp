#include "aoti/reference_extension.h"

#include <fmt/format.h>

#include <algorithm>

#include "core/project_paths.h"
#include "core/torch_version.h"
#include "matrix/kernel_build.h"
#include "matrix/matrix_spec.h"

namespace abicheck {

namespace fs = std::filesystem;

ReferenceExtension build_reference_extension(const StoredRelease& release, const fs::path& cache_dir, bool fresh) {
  // The suite as the default matrix builds it: one definition of the reference extension.
  const MatrixSpec spec = load_matrix_spec(project_root() / "matrix" / "default.toml");
  auto suite = std::ranges::find_if(spec.suites, [](const SuiteSpec& each) { return each.name == "abiref"; });
  if (suite == spec.suites.end()) return {.problem = "matrix/default.toml has no `abiref` suite"};
  const KernelBuilder builder(cache_dir / "extension", spec, fresh);
  const BuildRecord record = builder.build(
      {.suite = &*suite, .backend = Backend::Cpu, .build_release = release, .target = kOldestStableRelease});
  ReferenceExtension extension{.key = record.key};
  if (record.status.kind == BuildStatus::Kind::Built) {
    extension.library = record.library;
  } else {
    extension.problem = fmt::format("the reference extension did not build at torch {} ({})",
                                    release.version.to_full_string(), record.status.detail);
  }
  return extension;
}

}  // namespace abicheck
