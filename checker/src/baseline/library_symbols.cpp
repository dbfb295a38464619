#include "baseline/library_symbols.h"

#include <fmt/format.h>

#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>

#include "baseline/library_exports.h"
#include "core/atomic_file.h"
#include "core/content_hash.h"
#include "core/file_text.h"
#include "core/process.h"
#include "core/project_paths.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// The first line of a cache file; a change of the format or of what is read changes it.
constexpr std::string_view kLibrarySymbolsHeader = "torch-abi-check library-symbols 1\n";

// ldconfig -p lists every word size and architecture the cache holds ("(libc6)" is i386 on an
// x86-64 machine); the loader takes only its own.
#if defined(__x86_64__)
constexpr std::string_view kCacheArchitecture = "x86-64";
constexpr std::string_view kMultiarch = "x86_64-linux-gnu";
#elif defined(__aarch64__)
constexpr std::string_view kCacheArchitecture = "AArch64";
constexpr std::string_view kMultiarch = "aarch64-linux-gnu";
#else
constexpr std::string_view kCacheArchitecture = "";
constexpr std::string_view kMultiarch = "";
#endif

// soname -> path, from `ldconfig -p` lines: "\tlibc.so.6 (libc6,x86-64) => /lib/x86_64-linux-gnu/libc.so.6".
std::map<std::string, fs::path, std::less<>> read_loader_cache() {
  std::map<std::string, fs::path, std::less<>> cache;
  std::optional<fs::path> ldconfig;
  for (const char* candidate : {"/sbin/ldconfig", "/usr/sbin/ldconfig"}) {
    std::error_code error;
    if (fs::is_regular_file(candidate, error)) ldconfig = candidate;
    if (ldconfig) break;
  }
  if (!ldconfig) {
    const char* path = std::getenv("PATH");
    ldconfig = find_executable("ldconfig", path ? path : "");
  }
  if (!ldconfig) return cache;
  ProcessResult listed;
  try {
    listed = run_process({.argv = {ldconfig->string(), "-p"}, .timeout = std::chrono::seconds(30)});
  } catch (const std::exception&) {
    return cache;  // no cache to ask: the default directories still answer
  }
  if (!listed.succeeded()) return cache;
  std::istringstream lines(listed.output);
  for (std::string line; std::getline(lines, line);) {
    std::size_t open = line.find(" (");
    std::size_t close = line.find(") => ");
    if (open == std::string::npos || close == std::string::npos || close < open) continue;
    std::string_view flags = std::string_view(line).substr(open + 2, close - open - 2);
    if (!kCacheArchitecture.empty() && flags.find(kCacheArchitecture) == std::string_view::npos) continue;
    std::string soname = line.substr(0, open);
    soname.erase(0, soname.find_first_not_of(" \t"));
    cache.emplace(std::move(soname), fs::path(line.substr(close + 5)));  // the first entry wins, as for the loader
  }
  return cache;
}

}  // namespace

LibrarySymbols LibrarySymbols::read(const fs::path& library) {
  LibrarySymbols symbols;
  symbols.needed_ = read_needed_libraries(library);
  for_each_exported_symbol(library, [&](std::string_view name) { symbols.symbols_.add(name); });
  symbols.symbols_.seal();
  return symbols;
}

LibrarySymbols LibrarySymbols::of(std::vector<std::string> needed, SymbolDigests exported) {
  LibrarySymbols symbols;
  symbols.needed_ = std::move(needed);
  symbols.symbols_ = std::move(exported);
  symbols.symbols_.seal();
  return symbols;
}

bool LibrarySymbols::exports(std::string_view symbol) const { return symbols_.contains(symbol); }

std::string LibrarySymbols::serialize() const { return symbols_.serialize(kLibrarySymbolsHeader, needed_); }

std::optional<LibrarySymbols> LibrarySymbols::deserialize(std::string_view bytes) {
  auto read = SymbolDigests::deserialize(bytes, kLibrarySymbolsHeader);
  if (!read) return std::nullopt;
  LibrarySymbols symbols;
  symbols.symbols_ = std::move(read->first);
  symbols.needed_ = std::move(read->second);
  return symbols;
}

std::shared_ptr<const LibrarySymbols> library_symbols(const fs::path& library, const fs::path& cache_dir) {
  static std::mutex mutex;
  static std::map<std::pair<std::string, fs::path>, std::shared_ptr<const LibrarySymbols>> read_before;
  // Every object's load asks again for the same paths: answered before the path is resolved and
  // stat'ed, which costs more syscalls than the rest of the lookup.
  static std::map<std::pair<fs::path, fs::path>, std::shared_ptr<const LibrarySymbols>> asked_before;
  {
    std::lock_guard lock(mutex);
    if (auto found = asked_before.find({library, cache_dir}); found != asked_before.end()) return found->second;
  }
  std::error_code error;
  fs::path file = fs::canonical(library, error);
  if (error) file = library;
  // A library replaced in place (a system upgrade) changes its size or modification time.
  ContentHash key;
  key.add(kLibrarySymbolsHeader).add(file.string()).add(std::to_string(fs::file_size(file, error)));
  key.add(std::to_string(fs::last_write_time(file, error).time_since_epoch().count()));
  std::pair read_key{key.hex(), cache_dir};
  {
    std::lock_guard lock(mutex);
    if (auto found = read_before.find(read_key); found != read_before.end()) return found->second;
  }
  // Read outside the lock: another thread's object may need another library meanwhile.
  std::shared_ptr<const LibrarySymbols> symbols;
  fs::path cached = cache_dir / (read_key.first + ".symbols");
  if (fs::is_regular_file(cached, error)) {
    if (auto from_cache = LibrarySymbols::deserialize(read_file_text(cached))) {
      symbols = std::make_shared<const LibrarySymbols>(std::move(*from_cache));
    }
  }
  if (!symbols) {
    symbols = std::make_shared<const LibrarySymbols>(LibrarySymbols::read(file));
    try {
      fs::create_directories(cache_dir);
      write_file_atomically(cached, symbols->serialize());
    } catch (const std::exception&) {
      // A read-only cache: every process reads the library itself.
    }
  }
  std::lock_guard lock(mutex);
  auto& kept = read_before.try_emplace(read_key, std::move(symbols)).first->second;
  asked_before.try_emplace({library, cache_dir}, kept);
  return kept;
}

std::shared_ptr<const LibrarySymbols> library_symbols(const fs::path& library) {
  return library_symbols(library, user_cache_dir() / "library-symbols");
}

std::optional<fs::path> find_system_library(std::string_view soname) {
  static const std::map<std::string, fs::path, std::less<>> cache = read_loader_cache();
  if (auto found = cache.find(soname); found != cache.end()) return found->second;
  std::vector<fs::path> directories = {"/lib64", "/usr/lib64"};
  if (!kMultiarch.empty()) {
    directories.push_back(fs::path("/lib") / kMultiarch);
    directories.push_back(fs::path("/usr/lib") / kMultiarch);
  }
  directories.insert(directories.end(), {"/lib", "/usr/lib"});
  for (const auto& directory : directories) {
    std::error_code error;
    if (fs::is_regular_file(directory / soname, error)) return directory / soname;
  }
  return std::nullopt;
}

std::string system_runtime_library_defining(std::string_view symbol) {
  static const std::vector<std::pair<std::string, std::shared_ptr<const LibrarySymbols>>> runtimes = [] {
    std::vector<std::pair<std::string, std::shared_ptr<const LibrarySymbols>>> found;
    for (const char* soname : {"libc.so.6", "libm.so.6", "librt.so.1", "libpthread.so.0", "libdl.so.2",
                               "libstdc++.so.6", "libgcc_s.so.1", "ld-linux-x86-64.so.2", "ld-linux-aarch64.so.1"}) {
      std::optional<fs::path> file = find_system_library(soname);
      if (!file) continue;
      try {
        found.emplace_back(soname, library_symbols(*file));
      } catch (const std::exception&) {
        // Not an ELF object: nothing the loader would bind to either.
      }
    }
    return found;
  }();
  for (const auto& [soname, symbols] : runtimes) {
    if (symbols->exports(symbol)) return soname;
  }
  return "";
}

}  // namespace abicheck
