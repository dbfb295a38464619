#include "core/build_cache.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "core/atomic_file.h"
#include "core/file_text.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

constexpr const char* kManifestName = "build.json";
constexpr const char* kLogName = "build.log";

// Holds an exclusive flock on a file for its lifetime; the kernel drops it if the process dies.
class KeyLock {
 public:
  explicit KeyLock(const fs::path& path) : fd_(open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ < 0) throw ToolError(fmt::format("{}: cannot be created", path.string()));
    while (flock(fd_, LOCK_EX) != 0) {
      if (errno != EINTR) throw ToolError(fmt::format("{}: cannot be locked", path.string()));
    }
  }
  ~KeyLock() { close(fd_); }
  KeyLock(const KeyLock&) = delete;
  KeyLock& operator=(const KeyLock&) = delete;

 private:
  int fd_;
};

std::optional<CachedBuild> read_entry(const fs::path& directory) {
  std::ifstream stream(directory / kManifestName);
  if (!stream) return std::nullopt;
  auto saved = nlohmann::json::parse(stream, nullptr, false);
  if (saved.is_discarded() || !saved.is_object()) return std::nullopt;
  CachedBuild entry{.directory = directory, .cached = true};
  entry.manifest.built = saved.value("built", false);
  entry.manifest.detail = saved.value("detail", "");
  entry.manifest.first_error = saved.value("first_error", "");
  entry.manifest.seconds = saved.value("seconds", 0.0);
  entry.manifest.outputs = saved.value("outputs", std::vector<std::string>{});
  std::error_code error;
  if (fs::is_regular_file(directory / kLogName, error)) entry.log = read_file_text(directory / kLogName);
  return entry;
}

void publish(const fs::path& directory, const BuildOutcome& outcome) {
  write_file_atomically(directory / kLogName, outcome.log);
  const BuildManifest& manifest = outcome.manifest;
  nlohmann::json saved = {{"built", manifest.built},
                          {"detail", manifest.detail},
                          {"first_error", manifest.first_error},
                          {"seconds", manifest.seconds},
                          {"outputs", manifest.outputs}};
  write_file_atomically(directory / kManifestName, saved.dump(1) + "\n");
}

}  // namespace

BuildCache::BuildCache(fs::path root) : root_(std::move(root)) {}

CachedBuild BuildCache::build(const std::string& key, bool fresh, const Builder& build) const {
  const fs::path directory = root_ / key;
  if (!fresh) {
    if (auto entry = read_entry(directory)) return *entry;
  }
  fs::create_directories(root_);
  KeyLock lock(root_ / (key + ".lock"));
  // Another builder of this key may have published while this one waited for the lock.
  if (!fresh) {
    if (auto entry = read_entry(directory)) return *entry;
  }
  fs::remove_all(directory);
  fs::create_directories(directory);
  BuildOutcome outcome = build(directory);
  if (outcome.cacheable) {
    publish(directory, outcome);
  } else {
    fs::remove_all(directory);
  }
  return {directory, std::move(outcome.manifest), std::move(outcome.log), false};
}

}  // namespace abicheck
