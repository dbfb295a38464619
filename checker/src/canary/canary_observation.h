#pragma once

#include <filesystem>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <set>
#include <string>
#include <vector>

#include "canary/canary_outcome.h"
#include "core/torch_version.h"

namespace abicheck {

// What one package did under one release, judged from what matrix/canary_cells.py saw.
struct Observation {
  TorchVersion release;
  CanaryOutcome outcome = CanaryOutcome::Loaded;
  std::string detail;               // one line: "undefined symbol torch_list_size (torchcodec/libtorchcodec_image.so)"
  std::vector<std::string> notes;   // what did not decide the outcome but a reader wants to know
  std::set<std::string> operators;  // "ns::name" the package registered
  double seconds = 0;
  bool cached = false;
};

// Judges a cell's raw result (the JSON the cell wrote): a crash or timeout first, then a library
// that did not load because a torch or device library is missing, then for a symbol (the order the
// prediction uses), then the package's own refusal at import, then its smoke. A library that needs a system library
// torch does not bring (FFmpeg's, say) is a note: it is optional to the package and says nothing about torch.
// `device_code`: the package has CUDA/ROCm code, so a load without a GPU executed none of it.
Observation judge_cell_result(const nlohmann::json& result, TorchVersion release,
                              const std::filesystem::path& package_dir, bool device_code);

// Marks as operator-missing every loaded cell that lacks operators the package registers under its
// reference release: the one its requirement pins when stored, else the release where it registered
// the most (the newest of those). Returns the reference, or nullopt when no cell registered any.
std::optional<TorchVersion> mark_missing_operators(std::vector<Observation>& row,
                                                   const std::optional<TorchVersion>& pinned);

}  // namespace abicheck
