#include "baseline/torch_symbol_exports.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

#include "baseline/library_exports.h"
#include "core/atomic_file.h"
#include "core/content_hash.h"
#include "core/file_text.h"
#include "core/project_paths.h"
#include "core/tool_error.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// The first line of a cache file; a change of the format or of what is read changes it.
constexpr std::string_view kCacheHeader = "torch-abi-check torch-exports 1\n";

constexpr std::array kTorchLibraryPrefixes = {std::string_view("libtorch"), std::string_view("libc10"),
                                              std::string_view("libshm"), std::string_view("libcaffe2")};

std::uint64_t name_digest(std::string_view name) { return ContentHash().add(name).value(); }

}  // namespace

std::vector<fs::path> TorchSymbolExports::torch_libraries(const fs::path& lib_dir) {
  std::vector<fs::path> libraries;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(lib_dir, error)) {
    std::string name = entry.path().filename().string();
    bool shared_object = name.ends_with(".so") || name.find(".so.") != std::string::npos;
    bool torch_built =
        std::ranges::any_of(kTorchLibraryPrefixes, [&](auto prefix) { return name.starts_with(prefix); });
    // A versioned library's symlinks name the same object: read the file once.
    if (shared_object && torch_built && entry.is_regular_file(error) && !entry.is_symlink(error)) {
      libraries.push_back(entry.path());
    }
  }
  // What they NEED from lib_dir is in the loader's scope of every object that NEEDs them.
  std::set<fs::path> listed;
  for (const auto& library : libraries) listed.insert(fs::canonical(library, error));
  const std::size_t own = libraries.size();
  for (std::size_t i = 0; i < own; ++i) {
    for (const auto& soname : read_needed_libraries(libraries[i])) {
      fs::path candidate = lib_dir / soname;
      if (!fs::is_regular_file(candidate, error)) continue;
      if (listed.insert(fs::canonical(candidate, error)).second) libraries.push_back(candidate);
    }
  }
  std::ranges::sort(libraries);
  return libraries;
}

TorchSymbolExports TorchSymbolExports::read(const fs::path& lib_dir) {
  TorchSymbolExports exports;
  for (const auto& library : torch_libraries(lib_dir)) {
    exports.libraries_.push_back(library.filename().string());
    for_each_exported_symbol(library, [&](std::string_view name) { exports.hashes_.push_back(name_digest(name)); });
  }
  std::ranges::sort(exports.hashes_);
  exports.hashes_.erase(std::unique(exports.hashes_.begin(), exports.hashes_.end()), exports.hashes_.end());
  return exports;
}

bool TorchSymbolExports::exports(std::string_view symbol) const {
  return std::ranges::binary_search(hashes_, name_digest(symbol));
}

// Format: the header line, the library names on one line (space-separated), the digest count on
// one line, then the digests as 8-byte integers in this machine's byte order (the cache is this
// machine's own).
std::string TorchSymbolExports::serialize() const {
  std::string bytes = fmt::format("{}{}\n{}\n", kCacheHeader, fmt::join(libraries_, " "), hashes_.size());
  std::size_t start = bytes.size();
  bytes.resize(start + hashes_.size() * sizeof(std::uint64_t));
  std::memcpy(bytes.data() + start, hashes_.data(), hashes_.size() * sizeof(std::uint64_t));
  return bytes;
}

std::optional<TorchSymbolExports> TorchSymbolExports::deserialize(std::string_view bytes) {
  if (!bytes.starts_with(kCacheHeader)) return std::nullopt;
  bytes.remove_prefix(kCacheHeader.size());
  std::size_t libraries_end = bytes.find('\n');
  if (libraries_end == std::string_view::npos) return std::nullopt;
  std::size_t count_end = bytes.find('\n', libraries_end + 1);
  if (count_end == std::string_view::npos) return std::nullopt;
  std::size_t count = 0;
  std::string_view count_text = bytes.substr(libraries_end + 1, count_end - libraries_end - 1);
  auto [end, error] = std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
  std::string_view digests = bytes.substr(count_end + 1);
  if (error != std::errc() || end != count_text.data() + count_text.size() ||
      digests.size() != count * sizeof(std::uint64_t)) {
    return std::nullopt;
  }
  TorchSymbolExports exports;
  std::string_view names = bytes.substr(0, libraries_end);
  for (std::size_t begin = 0; begin < names.size();) {
    std::size_t space = std::min(names.find(' ', begin), names.size());
    exports.libraries_.emplace_back(names.substr(begin, space - begin));
    begin = space + 1;
  }
  exports.hashes_.resize(count);
  std::memcpy(exports.hashes_.data(), digests.data(), digests.size());
  return exports;
}

std::string torch_exports_key(const fs::path& lib_dir) {
  ContentHash key;
  key.add(kCacheHeader);
  for (const auto& library : TorchSymbolExports::torch_libraries(lib_dir)) {
    std::error_code error;
    key.add(library.filename().string()).add(std::to_string(fs::file_size(library, error)));
    std::string build_id = read_build_id(library);
    if (build_id.empty()) key.add_file(library, lib_dir);
    else key.add(build_id);
  }
  return key.hex();
}

std::shared_ptr<const TorchSymbolExports> torch_symbol_exports(const fs::path& lib_dir, const fs::path& cache_dir) {
  static std::mutex mutex;
  static std::map<std::pair<fs::path, fs::path>, std::shared_ptr<const TorchSymbolExports>> read_before;
  std::lock_guard lock(mutex);
  auto& exports = read_before[{lib_dir, cache_dir}];
  if (exports) return exports;
  fs::path cached = cache_dir / (torch_exports_key(lib_dir) + ".exports");
  std::error_code error;
  if (fs::is_regular_file(cached, error)) {
    if (auto from_cache = TorchSymbolExports::deserialize(read_file_text(cached))) {
      exports = std::make_shared<const TorchSymbolExports>(std::move(*from_cache));
      return exports;
    }
  }
  auto read = std::make_shared<const TorchSymbolExports>(TorchSymbolExports::read(lib_dir));
  try {
    fs::create_directories(cache_dir);
    write_file_atomically(cached, read->serialize());
  } catch (const std::exception&) {
    // A read-only cache: every process reads the libraries itself.
  }
  exports = read;
  return exports;
}

std::shared_ptr<const TorchSymbolExports> torch_symbol_exports(const fs::path& lib_dir) {
  return torch_symbol_exports(lib_dir, user_cache_dir() / "torch-exports");
}

}  // namespace abicheck
