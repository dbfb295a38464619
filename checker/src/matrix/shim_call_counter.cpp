#include "matrix/shim_call_counter.h"

#include <fmt/format.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <cstring>
#include <fstream>

#include "core/content_hash.h"
#include "core/process.h"
#include "core/project_paths.h"

namespace abicheck {
namespace {

namespace fs = std::filesystem;

// One record of the counts file, as shim_counter.c writes it.
constexpr std::size_t kNameSize = 120;
constexpr std::size_t kRecordSize = kNameSize + sizeof(std::uint64_t);
constexpr std::string_view kCounterName = "shim_counter.so";

bool is_x86_64() {
  utsname machine{};
  return uname(&machine) == 0 && std::string_view(machine.machine) == "x86_64";
}

}  // namespace

std::map<std::string, std::string> ShimCallCounter::environment(const fs::path& counts_base) const {
  if (!library) return {};
  return {{"LD_AUDIT", library->string()},
          {"TORCH_ABI_CHECK_SHIM_COUNTS", counts_base.string()},
          {"TORCH_ABI_CHECK_SHIM_PER_PROCESS", "1"}};
}

ShimCallCounter prepare_shim_call_counter(const fs::path& cache_dir) {
  if (!is_x86_64()) return {.unavailable = "not measured: the call counter's trampolines are x86-64 code"};
  const fs::path source = project_root() / "matrix" / "shim_counter.c";
  if (!fs::exists(source)) return {.unavailable = fmt::format("not measured: {} is missing", source.string())};
  const fs::path directory = cache_dir / "shim-counter" / ContentHash().add_file(source, source.parent_path()).hex();
  const fs::path library = directory / kCounterName;
  if (fs::exists(library)) return {.library = library};
  fs::create_directories(directory);
  // Built beside its final name and renamed, so that parallel runs never load half a file.
  const fs::path partial = directory / fmt::format("{}.{}", kCounterName, getpid());
  ProcessResult built = run_process({.argv = {"cc", "-shared", "-fPIC", "-O2", "-o", partial.string(), source.string()},
                                     .timeout = std::chrono::seconds(120)});
  if (!built.succeeded()) {
    fs::remove(partial);
    return {.unavailable = fmt::format("not measured: cc {} ({})", built.describe(), built.tail(1))};
  }
  fs::rename(partial, library);
  return {.library = library};
}

std::optional<std::map<std::string, std::uint64_t>> read_shim_call_counts(const fs::path& counts_file) {
  std::ifstream stream(counts_file, std::ios::binary);
  if (!stream) return std::nullopt;
  std::map<std::string, std::uint64_t> counts;
  std::array<char, kRecordSize> record{};
  while (stream.read(record.data(), record.size())) {
    const auto name_length = strnlen(record.data(), kNameSize);
    if (name_length == 0 || name_length == kNameSize) break;  // the first unused slot
    std::uint64_t calls = 0;
    std::memcpy(&calls, record.data() + kNameSize, sizeof calls);
    counts[std::string(record.data(), name_length)] += calls;
  }
  return counts;
}

}  // namespace abicheck
