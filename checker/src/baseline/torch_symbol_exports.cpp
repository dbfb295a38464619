#include "baseline/torch_symbol_exports.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
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

}  // namespace

bool is_torch_built_library(std::string_view name) {
  return std::ranges::any_of(kTorchLibraryPrefixes, [&](auto prefix) { return name.starts_with(prefix); });
}

std::vector<fs::path> TorchSymbolExports::torch_libraries(const fs::path& lib_dir) {
  std::vector<fs::path> libraries;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(lib_dir, error)) {
    std::string name = entry.path().filename().string();
    bool shared_object = name.ends_with(".so") || name.find(".so.") != std::string::npos;
    bool torch_built = is_torch_built_library(name);
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
    for_each_exported_symbol(library, [&](std::string_view name) { exports.symbols_.add(name); });
  }
  exports.symbols_.seal();
  return exports;
}

bool TorchSymbolExports::exports(std::string_view symbol) const { return symbols_.contains(symbol); }

std::string TorchSymbolExports::serialize() const { return symbols_.serialize(kCacheHeader, libraries_); }

std::optional<TorchSymbolExports> TorchSymbolExports::deserialize(std::string_view bytes) {
  auto read = SymbolDigests::deserialize(bytes, kCacheHeader);
  if (!read) return std::nullopt;
  TorchSymbolExports exports;
  exports.symbols_ = std::move(read->first);
  exports.libraries_ = std::move(read->second);
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
