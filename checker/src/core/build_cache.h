#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace abicheck {

// What a finished build says about itself: the entry's manifest.
struct BuildManifest {
  bool built = false;
  std::string detail;       // "built", or how the failing step ended ("exit 1", "timed out after 900 s")
  std::string first_error;  // the first compiler error line, for builders that look for one
  double seconds = 0;
  std::vector<std::string> outputs;  // the files built, relative to the entry's directory
};

// What a builder hands back to the cache.
struct BuildOutcome {
  BuildManifest manifest;
  std::string log;  // every command and its output
  // False for a build that says nothing about its inputs (timed out, killed, no compiler here):
  // its entry is removed, and the next run builds again.
  bool cacheable = true;
};

struct CachedBuild {
  std::filesystem::path directory;  // the entry's directory: the build's files are in it
  BuildManifest manifest;
  std::string log;
  bool cached = false;  // found in the cache rather than built now
};

// The one build cache, for the matrix's kernels and check's projects: a directory per key under
// root (the key is a hash of every input of the build: sources, torch, flags, toolchain and the
// builder's recipe), holding the build's files, build.log and the manifest build.json. The manifest
// is written atomically after everything else, so an entry without one (an interrupted build) is
// never read. A build runs in its entry's own directory, because a CMake tree does not survive a
// move, under an exclusive lock (<key>.lock): processes and threads building the same key take
// turns, and the later one finds the earlier one's entry.
class BuildCache {
 public:
  explicit BuildCache(std::filesystem::path root);

  using Builder = std::function<BuildOutcome(const std::filesystem::path& directory)>;
  // The entry of `key`; unless it exists (and `fresh` is false), `build` runs in an empty directory
  // and its outcome becomes the entry.
  CachedBuild build(const std::string& key, bool fresh, const Builder& build) const;

 private:
  std::filesystem::path root_;
};

}  // namespace abicheck
