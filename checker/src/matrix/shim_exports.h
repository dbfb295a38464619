#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/torch_version.h"
#include "store/release_store.h"

namespace abicheck {

// Which stored release first exports each shim symbol (from libtorch_cpu.so and libtorch_cuda.so),
// so that a load failure can be checked: the missing symbol must be a shim newer than the runtime.
// Read from the libraries' dynamic symbol tables (baseline/library_exports.h) on first use, once per run.
class ShimExportIndex {
 public:
  explicit ShimExportIndex(std::vector<StoredRelease> releases);
  std::optional<TorchVersion> first_exporting(const std::string& symbol);

 private:
  void load();
  std::vector<StoredRelease> releases_;
  std::once_flag loaded_;
  std::map<std::string, TorchVersion> first_release_;
};

}  // namespace abicheck
