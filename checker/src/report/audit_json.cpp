#include "report/audit_json.h"

#include <map>

namespace abicheck {
namespace {

nlohmann::json optional_version(const std::optional<TorchVersion>& version) {
  return version ? nlohmann::json(version->to_string()) : nlohmann::json(nullptr);
}

nlohmann::json binary_json(const ObjectAudit& object) {
  nlohmann::json unstable = nlohmann::json::array();
  for (const auto& symbol : object.unstable) {
    unstable.push_back({{"name", symbol.name}, {"demangled", symbol.demangled}, {"namespace", symbol.group}});
  }
  nlohmann::json allowed = nlohmann::json::array();
  for (const auto& [symbol, reason] : object.allowed) {
    allowed.push_back({{"name", symbol.name}, {"demangled", symbol.demangled}, {"reason", reason}});
  }
  nlohmann::json shims = nlohmann::json::array();
  for (const auto& shim : object.shims) {
    shims.push_back({{"name", shim.name}, {"since", optional_version(shim.introduced)},
                     {"use", shim.dynamic_lookup ? "dlsym" : "import"}});
  }
  std::map<std::string, nlohmann::json> by_category;
  for (const auto& symbol : object.imports) {
    auto& list = by_category[std::string(to_string(symbol.category))];
    if (list.is_null()) list = nlohmann::json::array();
    list.push_back(symbol.name);
  }
  return {
      {"path", object.path},
      {"wheel", object.wheel.empty() ? nlohmann::json(nullptr) : nlohmann::json(object.wheel)},
      {"verdict", to_string(object.verdict)},
      {"min_torch", optional_version(object.min_torch)},
      {"min_torch_to_load", optional_version(object.min_torch_to_load)},
      {"declared_target", object.declared_target ? nlohmann::json(object.declared_target->version.to_string()) : nullptr},
      {"declared_target_source", object.declared_target ? nlohmann::json(object.declared_target->source) : nullptr},
      {"machine", object.machine},
      {"stripped", object.stripped},
      {"needed", object.needed},
      {"unstable_symbols", unstable},
      {"allowed_symbols", allowed},
      {"shim_symbols", shims},
      {"abi3_violations", object.abi3_violations},
      {"imports", by_category},
      {"reasons", object.reasons},
  };
}

}  // namespace

nlohmann::json audit_to_json(const AuditReport& report) {
  nlohmann::json binaries = nlohmann::json::array();
  for (const auto& object : report.binaries) binaries.push_back(binary_json(object));
  nlohmann::json wheels = nlohmann::json::array();
  for (const auto& wheel : report.wheels) {
    wheels.push_back({{"path", wheel.path},
                      {"verdict", to_string(wheel.verdict)},
                      {"min_torch", optional_version(wheel.min_torch)},
                      {"declared_target", wheel.declared_target ? nlohmann::json(wheel.declared_target->version.to_string()) : nullptr},
                      {"abi3", wheel.abi3},
                      {"objects", wheel.object_count}});
  }
  nlohmann::json failures = nlohmann::json::array();
  for (const auto& failure : report.failures) failures.push_back({{"path", failure.path}, {"problem", failure.problem}});
  nlohmann::json stale = nlohmann::json::array();
  for (const auto& entry : report.stale_allowlist_entries) {
    stale.push_back({{"pattern", entry.pattern}, {"line", entry.line}, {"reason", entry.reason}});
  }
  nlohmann::json document = {{"binaries", binaries}, {"wheels", wheels}, {"errors", failures},
                             {"stale_allowlist_entries", stale}};
  return document;
}

}  // namespace abicheck
