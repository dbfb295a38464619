#include "matrix/shim_exports.h"

#include <sstream>

#include "core/process.h"
#include "core/tool_error.h"

namespace abicheck {

ShimExportIndex::ShimExportIndex(std::vector<StoredRelease> releases) : releases_(std::move(releases)) {}

void ShimExportIndex::load() {
  for (const auto& release : releases_) {  // oldest first, so the first insert wins
    for (const char* library : {"libtorch_cpu.so", "libtorch_cuda.so"}) {
      auto path = release.lib_dir / library;
      if (!std::filesystem::exists(path)) continue;
      ProcessResult result = run_process({.argv = {"nm", "-D", "--defined-only", path.string()},
                                          .timeout = std::chrono::seconds(120)});
      if (!result.succeeded()) throw ToolError(path.string() + ": nm failed (" + result.describe() + ")");
      std::istringstream lines(result.output);
      std::string address, type, name;
      while (lines >> address >> type >> name) {
        if (name.starts_with("torch_") || name.starts_with("aoti_torch_")) first_release_.emplace(name, release.version);
      }
    }
  }
}

std::optional<TorchVersion> ShimExportIndex::first_exporting(const std::string& symbol) {
  std::call_once(loaded_, [this] { load(); });
  auto found = first_release_.find(symbol);
  if (found == first_release_.end()) return std::nullopt;
  return found->second;
}

}  // namespace abicheck
