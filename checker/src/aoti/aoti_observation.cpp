#include "aoti/aoti_observation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <regex>

namespace abicheck {
namespace {

using nlohmann::json;

// The leaves of a tree torch's pytree serialized (treespec_dumps: [protocol, node], a node
// {"type", "context", "children_spec"}, a leaf's "type" null); none where it is no such tree.
std::optional<std::size_t> spec_leaves(const std::string& serialized) {
  const json spec = json::parse(serialized, nullptr, /*allow_exceptions=*/false);
  if (!spec.is_array() || spec.size() != 2 || !spec[1].is_object()) return std::nullopt;
  std::size_t leaves = 0;
  std::vector<const json*> pending = {&spec[1]};
  while (!pending.empty()) {
    const json& node = *pending.back();
    pending.pop_back();
    if (!node.is_object() || !node.contains("type")) return std::nullopt;
    if (node["type"].is_null()) {
      ++leaves;
      continue;
    }
    const auto children = node.find("children_spec");
    if (children == node.end() || !children->is_array()) return std::nullopt;
    for (const auto& child : *children) pending.push_back(&child);
  }
  return leaves;
}

// What a package loaded but not run takes and gives, from the call spec the C++ loader read of it.
std::string loaded_detail(const json& result) {
  const json spec = result.value("call_spec", json::array());
  if (spec.size() != 2 || !spec[0].is_string() || !spec[1].is_string()) return "loaded, not run (no inputs)";
  const auto inputs = spec_leaves(spec[0].get<std::string>());
  const auto outputs = spec_leaves(spec[1].get<std::string>());
  if (!inputs || !outputs) return "loaded, not run (no inputs); its call spec is not a tree the tool reads";
  return fmt::format("loaded, not run (no inputs); its call spec takes {} input{} and gives {} output{}", *inputs,
                     *inputs == 1 ? "" : "s", *outputs, *outputs == 1 ? "" : "s");
}

std::vector<std::string> warnings_of(const json& result) {
  std::vector<std::string> warnings;
  for (const auto& warning : result.value("warnings", json::array())) warnings.push_back(warning.get<std::string>());
  return warnings;
}

// The cause of a failed load, from the loader's own message.
void explain_load_failure(const json& result, TorchVersion runtime, AotiLoader loader, AotiObservation& observed) {
  const std::string error = result.value("error", "");
  const std::string release = runtime.to_full_string();
  static const std::regex undefined_shim(R"(undefined symbol: (aoti_torch_\w+))");
  static const std::regex unregistered_operator(R"(Could not find schema for (\w+::[\w.]*\w))");
  std::smatch match;
  if (result.contains("retry")) {
    const json& retry = result["retry"];
    const std::string module = retry.value("import", "");
    observed.cause = fmt::format(
        "torch {}'s torch._inductor.aoti_load_package uses {} without importing it: in a fresh process, where "
        "nothing else imported it first, every package fails to load",
        release, module);
    observed.workaround = fmt::format("import {} before calling torch._inductor.aoti_load_package", module);
    const std::string retry_stage = retry.value("stage", "");
    if (retry_stage.empty()) {
      observed.workaround_verified = true;
      observed.workaround += retry.value("matches", false) ? " (tried here: the package then loads and matches eager)"
                                                           : " (tried here: the package then loads)";
    } else {
      observed.workaround +=
          fmt::format(" (tried here: it then fails at {}: {})", retry_stage, retry.value("error", ""));
    }
    for (auto& warning : warnings_of(retry)) observed.warnings.push_back(std::move(warning));
  } else if (std::regex_search(error, match, undefined_shim)) {
    observed.cause = fmt::format(
        "the package's compiled code imports {}, which torch {} does not export (a shim newer "
        "than the release, or one it removed)",
        match[1].str(), release);
    observed.workaround = "compile the package with the oldest torch it must run on";
  } else if (std::regex_search(error, match, unregistered_operator)) {
    observed.cause = fmt::format(
        "the package calls the operator {} (through the shim's proxy executor), which no library loaded into the "
        "process registers",
        match[1].str());
    observed.workaround = "load the extension that defines the operator before loading the package";
  } else if (error.find("version") != std::string::npos &&
             (error.find("archive") != std::string::npos || error.find("package") != std::string::npos)) {
    observed.cause = fmt::format("torch {}'s loader refuses the package's format version", release);
    observed.workaround = "compile the package with a torch whose package format this release reads";
  } else {
    observed.cause = fmt::format("torch {}'s {} raised {}", release, loader_call(loader),
                                 result.value("error_type", std::string("an error")));
  }
}

}  // namespace

std::string_view to_string(AotiOutcome outcome) {
  switch (outcome) {
    case AotiOutcome::Matches: return "matches";
    case AotiOutcome::Loaded: return "loaded";
    case AotiOutcome::WrongResult: return "wrong-result";
    case AotiOutcome::LoadFailed: return "load-failed";
    case AotiOutcome::RunFailed: return "run-failed";
    case AotiOutcome::Crash: return "crash";
    case AotiOutcome::Timeout: return "timeout";
  }
  return "crash";
}

std::string_view to_string(AotiLoader loader) { return loader == AotiLoader::Cpp ? "cpp" : "python"; }

std::string_view loader_call(AotiLoader loader) {
  return loader == AotiLoader::Cpp ? "torch::inductor::AOTIModelPackageLoader" : "torch._inductor.aoti_load_package";
}

bool is_failure(AotiOutcome outcome) { return outcome != AotiOutcome::Matches && outcome != AotiOutcome::Loaded; }

AotiObservation judge_aoti_cell(const json& result, TorchVersion runtime, AotiLoader loader) {
  AotiObservation observed;
  observed.seconds = result.value("seconds", 0.0);
  observed.warnings = warnings_of(result);
  const std::string stage = result.value("stage", "");
  observed.detail = result.value("error", "");
  const std::string release = runtime.to_full_string();
  if (stage.empty()) {
    observed.outcome = result.value("outputs", 0) > 0 ? AotiOutcome::Matches : AotiOutcome::Loaded;
    if (observed.outcome == AotiOutcome::Loaded && result.contains("call_spec"))
      observed.detail = loaded_detail(result);
  } else if (stage == "load") {
    observed.outcome = AotiOutcome::LoadFailed;
    explain_load_failure(result, runtime, loader, observed);
  } else if (stage == "run") {
    observed.outcome = AotiOutcome::RunFailed;
    observed.cause = fmt::format("the package loads into torch {} but raises when run", release);
  } else if (stage == "compare") {
    observed.outcome = AotiOutcome::WrongResult;
    std::vector<std::string> mismatches;
    for (const auto& mismatch : result.value("mismatches", json::array())) {
      mismatches.push_back(mismatch.get<std::string>());
    }
    observed.cause = fmt::format("under torch {} the package's outputs differ from eager's: {}", release,
                                 fmt::join(mismatches, "; "));
  } else if (stage == "timeout") {
    observed.outcome = AotiOutcome::Timeout;
    observed.cause = fmt::format("loading or running the package under torch {} did not end", release);
  } else {
    observed.outcome = AotiOutcome::Crash;
    observed.cause = fmt::format("the cell's process died under torch {}", release);
  }
  return observed;
}

}  // namespace abicheck
