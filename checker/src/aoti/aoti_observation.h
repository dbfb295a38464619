#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "core/torch_version.h"

namespace abicheck {

enum class AotiOutcome {
  Matches,      // loaded, ran, and every output matches eager under the same release
  Loaded,       // loaded and nothing to compare with (a package without reference inputs)
  WrongResult,  // ran, but an output differs from eager
  LoadFailed,   // torch._inductor.aoti_load_package raised
  RunFailed,    // loaded, but running it raised
  Crash,        // the cell's process died
  Timeout,
};

// Which loader a cell used: torch._inductor.aoti_load_package in the release's Python
// (matrix/aoti_cells.py), or torch::inductor::AOTIModelPackageLoader in a C++ runner built against the
// release (matrix/aoti_cpp_runner.cpp).
enum class AotiLoader { Python, Cpp };

std::string_view to_string(AotiOutcome outcome);
std::string_view to_string(AotiLoader loader);
// The loader's own name, for causes: "torch._inductor.aoti_load_package".
std::string_view loader_call(AotiLoader loader);
bool is_failure(AotiOutcome outcome);

// What one package did under one release, judged from what matrix/aoti_cells.py saw, with the cause
// the tool makes of a failure and what a user can do about it where there is something.
struct AotiObservation {
  AotiOutcome outcome = AotiOutcome::Matches;
  // One line: the loader's own error, or the first mismatch; for a package the C++ loader loaded but
  // could not run (no inputs), how many inputs and outputs its call spec names.
  std::string detail;
  std::string cause;       // why, in the tool's words ("" when it matched)
  std::string workaround;  // what a user can do; "" when the tool knows nothing to do
  // The cell tried the workaround in the same child: the package then loaded (and matched eager).
  bool workaround_verified = false;
  std::vector<std::string> warnings;  // what the loader warned about
  double seconds = 0;
  bool cached = false;
};

// Judges a cell's raw result. A load that raised AttributeError for a submodule of torch._inductor
// is the loader using a module nothing imported (torch 2.10.0's aoti_load_package and
// torch._inductor.codecache): the cell retried after importing it, and the workaround is that
// import, verified where the retry loaded. An undefined aoti_torch_* symbol is a shim the release
// does not export; a mention of the archive's version is a changed package format; "Could not find
// schema for ns::op" an operator of an extension that was not loaded first.
AotiObservation judge_aoti_cell(const nlohmann::json& result, TorchVersion runtime,
                                AotiLoader loader = AotiLoader::Python);

}  // namespace abicheck
