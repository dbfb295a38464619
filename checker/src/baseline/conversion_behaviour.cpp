#include "baseline/conversion_behaviour.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "core/file_text.h"
#include "core/tool_error.h"

namespace abicheck {

const ConversionBehaviour* BehaviourBaseline::find(std::string_view type, std::string_view value) const {
  auto at = std::ranges::lower_bound(conversions, std::pair(type, value), {}, [](const ConversionBehaviour& c) {
    return std::pair<std::string_view, std::string_view>(c.type, c.value);
  });
  if (at == conversions.end() || at->type != type || at->value != value) return nullptr;
  return &*at;
}

namespace {

// One shim code in an encoding: the getters that return it, and the rest of its words (a device's index).
struct ShimCode {
  std::set<std::string> getters;
  std::string rest;
};

// The encoding with each shim code replaced by "@", and the codes in order.
std::pair<std::string, std::vector<ShimCode>> split_shim_codes(std::string_view from) {
  static const std::regex named(
      R"(([a-z0-9_]+\(\)(?: or [a-z0-9_]+\(\))*)( << 32 \| 0x[0-9a-f]{8})? = 0x[0-9a-f]{16})");
  static const std::regex getter(R"([a-z0-9_]+)");
  std::string text(from);
  std::string skeleton;
  std::vector<ShimCode> codes;
  auto last = text.cbegin();
  for (auto it = std::sregex_iterator(text.begin(), text.end(), named); it != std::sregex_iterator(); ++it) {
    skeleton.append(last, (*it)[0].first);
    skeleton += '@';
    last = (*it)[0].second;
    ShimCode code{{}, (*it)[2].str()};
    std::string names = (*it)[1].str();
    for (auto name = std::sregex_iterator(names.begin(), names.end(), getter); name != std::sregex_iterator(); ++name) {
      if (name->str() != "or") code.getters.insert(name->str());
    }
    codes.push_back(std::move(code));
  }
  skeleton.append(last, text.cend());
  return {skeleton, codes};
}

}  // namespace

bool same_encoding(std::string_view old_from, std::string_view new_from) {
  if (old_from == new_from) return true;
  auto [old_skeleton, old_codes] = split_shim_codes(old_from);
  auto [new_skeleton, new_codes] = split_shim_codes(new_from);
  if (old_skeleton != new_skeleton || old_codes.size() != new_codes.size()) return false;
  for (std::size_t i = 0; i < old_codes.size(); ++i) {
    if (old_codes[i].rest != new_codes[i].rest) return false;
    if (!std::ranges::includes(new_codes[i].getters, old_codes[i].getters)) return false;
  }
  return true;
}

std::string behaviour_to_json(const BehaviourBaseline& behaviour) {
  nlohmann::ordered_json conversions = nlohmann::ordered_json::array();
  for (const auto& conversion : behaviour.conversions) {
    nlohmann::ordered_json entry = {{"type", conversion.type}, {"value", conversion.value}, {"from", conversion.from}};
    if (!conversion.to.empty()) entry["to"] = conversion.to;
    conversions.push_back(std::move(entry));
  }
  nlohmann::ordered_json document = {
      {"schema_version", kBehaviourSchemaVersion},
      {"release", behaviour.release.to_string()},
      {"target", behaviour.target.to_string()},
      {"conversions", std::move(conversions)},
      {"probe_extension", {{"exports", behaviour.extension.exports}, {"imports", behaviour.extension.imports}}}};
  return document.dump(1) + "\n";
}

BehaviourBaseline parse_behaviour(std::string_view text, const std::string& origin) {
  try {
    auto document = nlohmann::json::parse(text);
    int version = document.at("schema_version").get<int>();
    if (version != kBehaviourSchemaVersion) {
      throw ToolError(
          fmt::format("{}: behaviour schema version {}, this tool reads {}", origin, version, kBehaviourSchemaVersion));
    }
    auto version_of = [&](std::string_view field) {
      std::string text = document.at(field).get<std::string>();
      std::optional<TorchVersion> parsed = TorchVersion::try_parse(text);
      if (!parsed) throw ToolError(fmt::format("{}: {} '{}' is not a torch version", origin, field, text));
      return *parsed;
    };
    const auto& extension = document.at("probe_extension");
    BehaviourBaseline behaviour{version_of("release"),
                                version_of("target"),
                                {},
                                {extension.at("exports").get<std::vector<std::string>>(),
                                 extension.at("imports").get<std::vector<std::string>>()}};
    std::ranges::sort(behaviour.extension.exports);
    std::ranges::sort(behaviour.extension.imports);
    for (const auto& entry : document.at("conversions")) {
      behaviour.conversions.push_back({entry.at("type").get<std::string>(), entry.at("value").get<std::string>(),
                                       entry.at("from").get<std::string>(), entry.value("to", std::string())});
    }
    auto key = [](const ConversionBehaviour& c) { return std::tie(c.type, c.value); };
    std::ranges::sort(behaviour.conversions, {}, key);
    auto twice = std::ranges::adjacent_find(behaviour.conversions, {}, key);
    if (twice != behaviour.conversions.end()) {
      throw ToolError(fmt::format("{}: {} {} is listed twice", origin, twice->type, twice->value));
    }
    return behaviour;
  } catch (const nlohmann::json::exception& error) {
    throw ToolError(fmt::format("{}: not a valid behaviour file: {}", origin, error.what()));
  }
}

BehaviourBaseline load_behaviour(const std::filesystem::path& path) {
  return parse_behaviour(read_file_text(path), path.string());
}

}  // namespace abicheck
