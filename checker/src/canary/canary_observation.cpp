#include "canary/canary_observation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>

#include "core/device_library.h"

namespace abicheck {
namespace {

using nlohmann::json;

constexpr std::string_view kUndefinedSymbol = "undefined symbol: ";
constexpr std::string_view kCannotOpen = ": cannot open shared object file";

std::string relative_to(const std::string& path, const std::filesystem::path& base) {
  std::string prefix = base.string() + "/";
  return path.starts_with(prefix) ? path.substr(prefix.size()) : path;
}

// "…: undefined symbol: _ZN3c10…" -> the symbol.
std::optional<std::string> undefined_symbol(const std::string& error) {
  auto at = error.find(kUndefinedSymbol);
  if (at == std::string::npos) return std::nullopt;
  std::string symbol = error.substr(at + kUndefinedSymbol.size());
  return symbol.substr(0, symbol.find_first_of(" )\n"));
}

// "libcudart.so.12: cannot open shared object file: …" -> "libcudart.so.12".
std::optional<std::string> missing_library(const std::string& error) {
  auto at = error.find(kCannotOpen);
  if (at == std::string::npos) return std::nullopt;
  std::string before = error.substr(0, at);
  auto start = before.find_last_of(" (");
  std::string name = start == std::string::npos ? before : before.substr(start + 1);
  return std::filesystem::path(name).filename().string();
}

// A library torch or its device runtime brings: one the release should have provided. Exact names,
// since packages name theirs after torch too (torchcodec's libtorchcodec_core7.so).
bool torch_or_device_library(const std::string& soname) {
  static const std::regex torch_library(
      R"(lib(torch(_cpu|_cuda|_hip|_python|_global_deps)?|c10(_cuda|_hip)?|shm)\.so)");
  return std::regex_match(soname, torch_library) || parse_device_library(soname).has_value();
}

bool owned_by_package(const std::string& soname, const json& libraries) {
  return std::ranges::any_of(libraries, [&](const json& library) {
    return std::filesystem::path(library["path"].get<std::string>()).filename() == soname;
  });
}

// The package's load outcome over all its libraries, with the prediction's precedence: a torch or
// device library missing, then an undefined symbol; every other failure is a note.
void judge_libraries(const json& libraries, const std::filesystem::path& package_dir, Observation& observation,
                     bool& decided) {
  std::optional<std::string> missing;
  std::optional<std::string> undefined;
  for (const auto& library : libraries) {
    if (library["loaded"].get<bool>()) continue;
    std::string path = relative_to(library["path"].get<std::string>(), package_dir);
    std::string error = library["error"].get<std::string>();
    std::optional<std::string> soname = missing_library(error);
    if (auto symbol = undefined_symbol(error)) {
      std::string what = fmt::format("undefined symbol {} ({})", *symbol, path);
      if (undefined) observation.notes.push_back(what);
      else undefined = what;
    } else if (soname && owned_by_package(*soname, libraries)) {
      observation.notes.push_back(fmt::format("{}: not loaded, since {} of the package did not load", path, *soname));
    } else if (soname && torch_or_device_library(*soname)) {
      std::string what =
          fmt::format("{} needs {}, which torch {} does not bring", path, *soname, observation.release.to_string());
      if (missing) observation.notes.push_back(what);
      else missing = what;
    } else if (soname) {
      observation.notes.push_back(fmt::format(
          "{}: optional, needs {} from the system (not torch's), which is not installed here", path, *soname));
    } else {
      observation.notes.push_back(fmt::format("{}: {}", path, error));
    }
  }
  if (missing) {
    observation.outcome = CanaryOutcome::MissingLibrary;
    observation.detail = *missing;
    if (undefined) observation.notes.push_back(*undefined);
  } else if (undefined) {
    observation.outcome = CanaryOutcome::UndefinedSymbol;
    observation.detail = *undefined;
  }
  decided = missing || undefined;
}

}  // namespace

Observation judge_cell_result(const json& result, TorchVersion release, const std::filesystem::path& package_dir,
                              bool device_code) {
  Observation observation{.release = release};
  observation.seconds = result.value("seconds", 0.0);
  std::string stage = result.value("stage", "");
  std::string error = result.value("error", "");
  if (stage == "timeout" || stage == "crash") {
    observation.outcome = stage == "timeout" ? CanaryOutcome::Timeout : CanaryOutcome::Crash;
    observation.detail = error;
    return observation;
  }
  const json torch_lacks = result.value("torch_lacks", json::object());  // a copy: items() must not outlive it
  for (const auto& [soname, path] : torch_lacks.items()) {
    observation.notes.push_back(fmt::format("the store's torch {} lacks its own {}: loaded from this machine's {}",
                                            release.to_string(), soname, path.get<std::string>()));
  }
  const json operators = result.value("operators", json::object());  // a copy: items() must not outlive it
  for (const auto& [name_space, names] : operators.items()) {
    for (const auto& name : names)
      observation.operators.insert(fmt::format("{}::{}", name_space, name.get<std::string>()));
  }
  bool decided = false;
  judge_libraries(result.value("libraries", json::array()), package_dir, observation, decided);
  if (stage == "import") {
    if (decided) {
      observation.notes.insert(observation.notes.begin(), fmt::format("the import failed: {}", error));
      return observation;
    }
    if (auto symbol = undefined_symbol(error)) {
      observation.outcome = CanaryOutcome::UndefinedSymbol;
      observation.detail = fmt::format("undefined symbol {} (at import)", *symbol);
    } else if (auto soname = missing_library(error); soname && torch_or_device_library(*soname)) {
      observation.outcome = CanaryOutcome::MissingLibrary;
      observation.detail =
          fmt::format("needs {} at import, which torch {} does not bring", *soname, observation.release.to_string());
    } else if (soname && !owned_by_package(*soname, result.value("libraries", json::array()))) {
      // Neither torch nor the package brings it: the user's machine must (a GPU driver, a vendor's
      // runtime such as Ascend CANN or TensorRT). Absent here, the cell says nothing about torch.
      observation.outcome = CanaryOutcome::Environment;
      observation.detail =
          *soname == "libcuda.so.1"
              ? std::string("needs a GPU driver (libcuda.so.1), absent here")
              : fmt::format("needs {} from the machine (a driver or vendor runtime), absent here", *soname);
      observation.notes.insert(observation.notes.begin(), fmt::format("the import failed: {}", error));
    } else {
      observation.outcome = CanaryOutcome::Refused;
      observation.detail = error;
    }
    return observation;
  }
  if (decided) return observation;
  std::string smoke = result.value("smoke", "none");
  if (smoke == "failed") {
    observation.outcome = CanaryOutcome::SmokeFailed;
    observation.detail = error;
  } else if (smoke == "skipped") {
    observation.outcome = CanaryOutcome::LoadedNotExecuted;
    observation.detail = "its smoke needs a GPU and this machine has none";
  } else if (smoke == "none" && device_code && !result.value("gpu", false)) {
    observation.outcome = CanaryOutcome::LoadedNotExecuted;
    observation.detail = "no GPU here: its device code was loaded, not run";
  } else {
    observation.outcome = CanaryOutcome::Loaded;
    observation.detail = smoke == "ran" ? "imported, loaded, smoke ran" : "imported and loaded";
  }
  return observation;
}

std::optional<TorchVersion> mark_missing_operators(std::vector<Observation>& row,
                                                   const std::optional<TorchVersion>& pinned) {
  const Observation* reference = nullptr;
  for (const auto& observation : row) {
    if (observation.operators.empty()) continue;
    if (pinned && observation.release.minor_release() == pinned->minor_release()) {
      reference = &observation;
      break;
    }
    if (reference == nullptr || observation.operators.size() >= reference->operators.size()) reference = &observation;
  }
  if (reference == nullptr) return std::nullopt;
  const TorchVersion reference_release = reference->release;
  const std::set<std::string> expected = reference->operators;
  for (auto& observation : row) {
    if (!is_load(observation.outcome)) {
      continue;
    }
    std::vector<std::string> missing;
    std::ranges::set_difference(expected, observation.operators, std::back_inserter(missing));
    if (missing.empty()) continue;
    observation.notes.push_back(observation.detail);
    observation.outcome = CanaryOutcome::OperatorMissing;
    std::vector<std::string> shown(missing.begin(), missing.begin() + std::min<std::size_t>(missing.size(), 4));
    observation.detail =
        fmt::format("{} of the {} operators it registers on torch {} missing: {}{}", missing.size(), expected.size(),
                    reference_release.to_string(), fmt::join(shown, ", "), missing.size() > shown.size() ? ", …" : "");
  }
  return reference_release;
}

}  // namespace abicheck
