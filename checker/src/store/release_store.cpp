#include "store/release_store.h"

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/project_paths.h"
#include "core/tool_error.h"

namespace fs = std::filesystem;

namespace abicheck {
namespace {

constexpr const char* kManifestName = "release.json";

std::uint64_t directory_bytes(const fs::path& path) {
  std::uint64_t total = 0;
  std::error_code error;
  for (auto it = fs::recursive_directory_iterator(path, error); !error && it != fs::recursive_directory_iterator();
       it.increment(error)) {
    if (it->is_regular_file(error) && !it->is_symlink(error)) total += it->file_size(error);
  }
  return total;
}

}  // namespace

StoredRelease read_release_manifest(const fs::path& manifest_path) {
  std::ifstream in(manifest_path);
  if (!in) throw ToolError(fmt::format("{}: cannot be read", manifest_path.string()));
  try {
    auto json = nlohmann::json::parse(in);
    StoredRelease release;
    release.version = TorchVersion::parse(json.at("version").get<std::string>());
    release.root = manifest_path.parent_path();
    release.python = json.at("python").get<std::string>();
    release.torch_dir = json.at("torch_dir").get<std::string>();
    release.include_dir = json.at("include_dir").get<std::string>();
    release.lib_dir = json.at("lib_dir").get<std::string>();
    if (!json.at("cuda_major").is_null()) release.cuda_major = json.at("cuda_major").get<int>();
    if (!json.at("cuda_version").is_null()) release.cuda_version = json.at("cuda_version").get<std::string>();
    release.disk_bytes = json.at("disk_bytes").get<std::uint64_t>();
    release.install_seconds = json.at("install_seconds").get<double>();
    return release;
  } catch (const nlohmann::json::exception& error) {
    throw ToolError(fmt::format("{}: not a valid release manifest: {}", manifest_path.string(), error.what()));
  } catch (const ToolError& error) {
    throw ToolError(fmt::format("{}: {}", manifest_path.string(), error.what()));
  }
}

ReleaseStore::ReleaseStore(fs::path root) : root_(std::move(root)) {}

fs::path ReleaseStore::default_root() {
  if (const char* store = std::getenv("TORCH_ABI_CHECK_STORE"); store != nullptr && *store != '\0') return store;
  return user_cache_dir();
}

std::vector<StoredRelease> ReleaseStore::releases() const {
  std::vector<StoredRelease> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(root_ / "releases", error)) {
    fs::path manifest = entry.path() / kManifestName;
    if (fs::is_regular_file(manifest)) found.push_back(read_release_manifest(manifest));
  }
  std::ranges::sort(found, {}, &StoredRelease::version);
  return found;
}

std::optional<StoredRelease> ReleaseStore::find(const std::string& version_text) const {
  TorchVersion wanted = TorchVersion::parse(version_text);
  bool exact = std::ranges::count(version_text, '.') == 2;
  std::optional<StoredRelease> best;
  for (auto& release : releases()) {
    bool matches = exact ? release.version == wanted : release.version.minor_release() == wanted.minor_release();
    if (matches) best = std::move(release);
  }
  return best;
}

StoredRelease ReleaseStore::require(const std::string& version_text) const {
  if (auto release = find(version_text)) return *release;
  throw ToolError(fmt::format("torch {} is not installed in the store {} (run: torch-abi-check store install {})",
                              version_text, root_.string(), version_text));
}

StoredRelease ReleaseStore::require_newest() const {
  auto installed = releases();
  if (installed.empty()) {
    throw ToolError(fmt::format("{}: no torch release installed (run: torch-abi-check store install)", root_.string()));
  }
  return installed.back();
}

std::uint64_t ReleaseStore::shared_disk_bytes() const { return directory_bytes(root_ / "cuda"); }

}  // namespace abicheck
