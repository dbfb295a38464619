#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/torch_version.h"
#include "store/device_runtime.h"

namespace abicheck {

// One torch release installed in the store, as its release.json describes it. The C++ side needs
// only these paths and facts; it never imports Python to learn them.
struct StoredRelease {
  TorchVersion version;
  std::filesystem::path root;  // releases/<version>/
  std::filesystem::path python;
  std::filesystem::path torch_dir;
  std::filesystem::path include_dir;
  std::filesystem::path lib_dir;
  std::optional<int> cuda_major;  // none for a CPU-only wheel
  std::string cuda_version;
  DeviceRuntime device;  // read from the installed files, so a store installed before it was recorded has it too
  std::uint64_t disk_bytes = 0;  // the release's own files; shared CUDA libraries are counted apart
  double install_seconds = 0;
};

// Where a resolved release's files are.
enum class ReleaseOrigin {
  Store,         // an installed release of the store
  TorchPackage,  // a torch package directory (site-packages/torch, with include/ and lib/)
  HeaderTree,    // a bare include directory of torch headers
};

// A torch release as a command names it, resolved to its files: what every command that takes a
// release (`--torch`, `--candidate`, a diff operand) needs.
struct ResolvedRelease {
  ReleaseOrigin origin = ReleaseOrigin::Store;
  std::filesystem::path root;  // the store release's directory, the torch package directory or the include dir
  // Known for a store release and a torch package (its version.py). A header tree's version is in
  // its headers, which only the inventory reads (inventory/release_version).
  std::optional<TorchVersion> version;
  std::filesystem::path include_dir;
  std::optional<std::filesystem::path> lib_dir;  // none for a header tree
  // What building against it and loading into it need (python, torch_dir, CUDA): always for a store
  // release, for a torch package when its environment has a python, never for a header tree.
  std::optional<StoredRelease> installed;

  // `installed`, else a ToolError that says why this torch cannot build or run an extension.
  const StoredRelease& require_installed() const;
};

// A torch package directory or an include directory of headers, by what it holds.
ResolvedRelease resolve_torch_directory(const std::filesystem::path& directory);

// The on-disk store of torch releases. Installing and removing is matrix/torch_store.py's job
// (it needs pip); this reads what that script committed, so it sees only complete installs.
class ReleaseStore {
 public:
  explicit ReleaseStore(std::filesystem::path root);
  // --store DIR, else $TORCH_ABI_CHECK_STORE, else $XDG_CACHE_HOME (or ~/.cache)/torch-abi-check.
  static std::filesystem::path default_root();
  // The store at `root`, or at default_root() when `root` is empty (no --store given).
  static ReleaseStore open(const std::filesystem::path& root);

  const std::filesystem::path& root() const { return root_; }
  std::vector<StoredRelease> releases() const;  // oldest first
  // "2.10" matches the newest installed 2.10.x; "2.10.1" only that release.
  std::optional<StoredRelease> find(const std::string& version_text) const;
  // Like find, but a missing release is a ToolError that says how to install it.
  StoredRelease require(const std::string& version_text) const;
  // The newest installed release; a ToolError when the store is empty.
  StoredRelease require_newest() const;
  // The one way a command's release text becomes files: an existing path is a torch package or
  // include directory (resolve_torch_directory); "newest" is require_newest(); a version is
  // require(version). Anything else, and a release older than the stable ABI, is a ToolError.
  ResolvedRelease resolve(const std::string& text) const;
  // Bytes used by the shared CUDA library sets (cuda/cu<major>/).
  std::uint64_t shared_disk_bytes() const;

 private:
  std::filesystem::path root_;
};

StoredRelease read_release_manifest(const std::filesystem::path& manifest_path);

// What a result cached from a run under this release depends on of it: its full version, where it
// is installed, and its device runtime ("2.15.0|/root/.cache/...|CUDA 13.2").
std::string release_cache_identity(const StoredRelease& release);

}  // namespace abicheck
