#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace abicheck {

// Where a canary package comes from.
enum class PackageSource { Index, Wheel, Directory };

// One published package of a canary spec. The spec is TOML (matrix/canary.toml is the default):
//
//   timeout_s = 300                         # per cell (optional)
//   index_url = "https://…"                 # optional: another package index for `requirement`s
//   find_links = "wheels/"                  # optional: a folder of wheels pip also looks in
//   [[package]]
//   requirement = "xformers==0.0.35"        # or wheel = "path.whl", or directory = "path" (unpacked)
//   sha256 = "…"                            # optional: the wheel must have this hash
//   why = "CUDA, stable ABI, built once for every torch from 2.10"   # required: why it is in the spec
//   smoke = "import xformers.ops; …"        # optional: Python run after the import, `torch` in scope
//   smoke_needs_gpu = true                  # optional: without a GPU the smoke is not run
struct CanaryPackageSpec {
  std::string name;  // for people: the requirement ("xformers==0.0.35"), "name-version" of a wheel, a directory's name
  PackageSource source = PackageSource::Index;
  std::string location;  // "xformers==0.0.35", or a path (relative ones are read from the spec's folder)
  std::string why;
  std::string smoke;
  bool smoke_needs_gpu = false;
  std::string sha256;  // empty: not pinned
};

struct CanarySpec {
  std::filesystem::path path;
  std::vector<CanaryPackageSpec> packages;
  std::optional<std::string> index_url;
  std::optional<std::filesystem::path> find_links;  // absolute
  double timeout_s = 300;
};

// Throws ToolError naming the file (and the entry) on bad TOML, an unknown key, an entry with not
// exactly one of requirement/wheel/directory, a missing `why`, or two entries of one name.
CanarySpec load_canary_spec(const std::filesystem::path& path);

// matrix/canary.toml of the project.
std::filesystem::path default_canary_spec();

}  // namespace abicheck
