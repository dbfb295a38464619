#include "audit/pt2_package.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "core/tool_error.h"

namespace abicheck {
namespace {

constexpr std::string_view kArchiveFormat = "archive_format";
constexpr std::string_view kAotInductorDir = "data/aotinductor/";
// A record file is a few bytes; metadata a few kilobytes. A bound keeps a hostile one from costing memory.
constexpr std::uint64_t kMaxRecordBytes = 1ULL << 20;

std::string without_surrounding_space(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  std::size_t start = 0;
  while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
  return text.substr(start);
}

// The folder of the package's records: "" when `archive_format` is at the top, "model/" when it is
// one folder down (torch writes the archive under a folder named after it); nullopt when neither.
std::optional<std::string> package_root(const std::vector<std::string>& entries) {
  for (const auto& name : entries) {
    if (name == kArchiveFormat) return "";
    if (name.ends_with(fmt::format("/{}", kArchiveFormat)) && std::count(name.begin(), name.end(), '/') == 1) {
      return name.substr(0, name.size() - kArchiveFormat.size());
    }
  }
  return std::nullopt;
}

// Fills what a model's metadata file records (AOTI_DEVICE_KEY, ...); false when it is no such file.
bool read_model_metadata(const std::string& text, Pt2Model& model) {
  nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("AOTI_DEVICE_KEY")) return false;
  auto field = [&](const char* key) {
    auto found = parsed.find(key);
    return found != parsed.end() && found->is_string() ? found->get<std::string>() : std::string();
  };
  model.device = field("AOTI_DEVICE_KEY");
  model.platform = field("AOTI_PLATFORM");
  model.machine = field("AOTI_MACHINE");
  model.cpu_isa = field("AOTI_CPU_ISA");
  model.compute_capability = field("AOTI_COMPUTE_CAPABILITY");
  return true;
}

}  // namespace

bool looks_like_pt2(const std::vector<std::string>& entries) { return package_root(entries).has_value(); }

Pt2Contents read_pt2_contents(WheelReader& reader) {
  Pt2Contents contents;
  const std::vector<std::string> entries = reader.file_names();
  std::optional<std::string> root = package_root(entries);
  if (!root) {
    // Without its records the models may still be there: the root is then the folder above data/.
    contents.problems.push_back(
        "records no archive_format: not a package torch.export or AOTInductor wrote, or one of a format this tool "
        "does not know");
    for (const auto& name : entries) {
      if (auto at = name.find(kAotInductorDir); at != std::string::npos) {
        root = name.substr(0, at);
        break;
      }
    }
  }
  contents.root = root.value_or("");
  auto record = [&](std::string_view file) -> std::optional<std::string> {
    auto text = reader.read_small_entry(contents.root + std::string(file), kMaxRecordBytes);
    return text ? std::optional(without_surrounding_space(*text)) : std::nullopt;
  };
  contents.archive_format = record(kArchiveFormat);
  if (contents.archive_format && *contents.archive_format != "pt2") {
    contents.problems.push_back(fmt::format("archive_format says '{}', not 'pt2'", *contents.archive_format));
  }
  // The spec's archive_version; releases before it wrote `version`.
  contents.archive_version = record("archive_version");
  if (!contents.archive_version) contents.archive_version = record("version");
  contents.serialization_version = record(".data/version");
  if (contents.archive_version && *contents.archive_version != kKnownPt2ArchiveVersion) {
    contents.problems.push_back(
        fmt::format("package format version {} (archive_version); the loaders of torch 2.9 to 2.15 read version {}: "
                    "they may refuse it or misread its files",
                    *contents.archive_version, kKnownPt2ArchiveVersion));
  }

  std::map<std::string, Pt2Model> models;
  const std::string models_dir = contents.root + std::string(kAotInductorDir);
  for (const auto& name : entries) {
    if (!name.starts_with(models_dir)) continue;
    std::string relative = name.substr(models_dir.size());
    std::size_t slash = relative.find('/');
    // Files straight in data/aotinductor/ are the one unnamed model of the first packages.
    std::string model_name = slash == std::string::npos ? "" : relative.substr(0, slash);
    Pt2Model& model = models[model_name];
    model.name = model_name;
    if (name.ends_with(".so")) {
      model.objects.push_back(name);
    } else if (name.ends_with(".cpp")) {
      model.sources.push_back(name);
    } else if (name.ends_with("_metadata.json") && model.device.empty()) {
      if (auto text = reader.read_small_entry(name, kMaxRecordBytes)) read_model_metadata(*text, model);
    }
  }
  for (auto& [name, model] : models) {
    if (model.objects.empty()) {
      contents.problems.push_back(fmt::format(
          "model '{}' holds no compiled shared object{}: nothing of it can be audited, and a loader must compile it",
          name, model.sources.empty() ? "" : " (only its generated C++)"));
    }
    contents.models.push_back(std::move(model));
  }
  if (contents.models.empty()) {
    contents.problems.push_back(fmt::format(
        "holds no AOTInductor model (nothing under {}): an exported program without compiled code", kAotInductorDir));
  }
  return contents;
}

Pt2Contents require_loadable_pt2(const std::filesystem::path& file) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) {
    throw ToolError(fmt::format("{}: no such .pt2 package", file.string()));
  }
  Pt2Contents contents;
  try {
    WheelReader reader = WheelReader::open_file(file);
    contents = read_pt2_contents(reader);
  } catch (const WheelReadError& problem) {
    std::string what = problem.what();
    if (what.starts_with("not a readable wheel")) what.replace(0, 20, "not a readable .pt2 package");
    throw ToolError(fmt::format("{}: {}", file.string(), what));
  }
  if (contents.models.empty()) {
    throw ToolError(fmt::format("{}: holds no AOTInductor model (nothing under {}): nothing to load", file.string(),
                                kAotInductorDir));
  }
  return contents;
}

}  // namespace abicheck
