#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/torch_version.h"

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
  std::uint64_t disk_bytes = 0;  // the release's own files; shared CUDA libraries are counted apart
  double install_seconds = 0;
};

// The on-disk store of torch releases. Installing and removing is matrix/torch_store.py's job
// (it needs pip); this reads what that script committed, so it sees only complete installs.
class ReleaseStore {
 public:
  explicit ReleaseStore(std::filesystem::path root);
  // --store DIR, else $TORCH_ABI_CHECK_STORE, else $XDG_CACHE_HOME (or ~/.cache)/torch-abi-check.
  static std::filesystem::path default_root();

  const std::filesystem::path& root() const { return root_; }
  std::vector<StoredRelease> releases() const;  // oldest first
  // "2.10" matches the newest installed 2.10.x; "2.10.1" only that release.
  std::optional<StoredRelease> find(const std::string& version_text) const;
  // Like find, but a missing release is a ToolError that says how to install it.
  StoredRelease require(const std::string& version_text) const;
  // The newest installed release; a ToolError when the store is empty.
  StoredRelease require_newest() const;
  // Bytes used by the shared CUDA library sets (cuda/cu<major>/).
  std::uint64_t shared_disk_bytes() const;

 private:
  std::filesystem::path root_;
};

StoredRelease read_release_manifest(const std::filesystem::path& manifest_path);

}  // namespace abicheck
