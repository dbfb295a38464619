#include "audit/wheel_reader.h"

#include <fmt/format.h>
#include <zip.h>

#include <algorithm>
#include <cctype>
#include <sstream>

#include "audit/binary_imports.h"
#include "core/wheel_file_name.h"

namespace abicheck {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  return text;
}

// "2.10.0+cu128", "2.10.*", "2.10.0rc1" -> 2.10.0: the release that the bound is about.
std::optional<TorchVersion> parse_requirement_version(std::string_view text) {
  text = trim(text);
  std::size_t end = 0;
  while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
  std::string_view numeric = text.substr(0, end);
  while (numeric.ends_with('.')) numeric.remove_suffix(1);
  return TorchVersion::try_parse(numeric);
}

std::string describe_zip_error(zip_error_t* error) {
  std::string message = zip_error_strerror(error);
  zip_error_fini(error);
  return message;
}

bool is_unsafe_entry_name(std::string_view name) {
  if (name.empty() || name.front() == '/' || name.front() == '\\') return true;
  if (name.size() >= 2 && name[1] == ':') return true;  // a drive letter
  std::size_t start = 0;
  while (start <= name.size()) {
    std::size_t end = name.find_first_of("/\\", start);
    if (end == std::string_view::npos) end = name.size();
    if (name.substr(start, end - start) == "..") return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

std::optional<TorchVersion> torch_lower_bound_of_requirement(std::string_view line) {
  line = trim(line);
  std::size_t name_end = 0;
  while (name_end < line.size() && (std::isalnum(static_cast<unsigned char>(line[name_end])) || line[name_end] == '-' ||
                                    line[name_end] == '_' || line[name_end] == '.')) {
    ++name_end;
  }
  std::string name(line.substr(0, name_end));
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  if (name != "torch") return std::nullopt;
  std::string_view specifiers = line.substr(name_end);
  specifiers = specifiers.substr(0, specifiers.find(';'));
  if (auto bracket = specifiers.find(']');
      specifiers.find('[') != std::string_view::npos && bracket != std::string_view::npos) {
    specifiers.remove_prefix(bracket + 1);
  }
  std::optional<TorchVersion> bound;
  std::size_t start = 0;
  while (start < specifiers.size()) {
    std::size_t end = std::min(specifiers.find(',', start), specifiers.size());
    std::string_view clause = trim(specifiers.substr(start, end - start));
    while (!clause.empty() && (clause.front() == '(' || clause.front() == ' ')) clause.remove_prefix(1);
    while (!clause.empty() && (clause.back() == ')' || clause.back() == ' ')) clause.remove_suffix(1);
    for (std::string_view op : {">=", "==", "~=", "==="}) {
      if (clause.starts_with(op) && !clause.starts_with("===")) {
        if (auto version = parse_requirement_version(clause.substr(op.size()))) {
          if (!bound || *version > *bound) bound = version;
        }
        break;
      }
    }
    start = end + 1;
  }
  return bound;
}

void WheelReader::ArchiveCloser::operator()(zip* archive) const { zip_discard(archive); }

WheelReader::WheelReader(zip* archive, WheelLimits limits) : archive_(archive), limits_(limits) {
  validate_entries();
  read_metadata();
}

WheelReader::WheelReader(WheelReader&&) noexcept = default;
WheelReader::~WheelReader() = default;

WheelReader WheelReader::open_file(const std::filesystem::path& path, WheelLimits limits) {
  int code = 0;
  zip* archive = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
  if (!archive) {
    zip_error_t error;
    zip_error_init_with_code(&error, code);
    throw WheelReadError(fmt::format("not a readable wheel (zip): {}", describe_zip_error(&error)));
  }
  return WheelReader(archive, limits);
}

WheelReader WheelReader::open_memory(std::span<const char> bytes, WheelLimits limits) {
  zip_error_t error;
  zip_error_init(&error);
  zip_source_t* source = zip_source_buffer_create(bytes.data(), bytes.size(), 0, &error);
  if (!source) throw WheelReadError(fmt::format("not a readable wheel (zip): {}", describe_zip_error(&error)));
  zip* archive = zip_open_from_source(source, ZIP_RDONLY | ZIP_CHECKCONS, &error);
  if (!archive) {
    zip_source_free(source);
    throw WheelReadError(fmt::format("not a readable wheel (zip): {}", describe_zip_error(&error)));
  }
  zip_error_fini(&error);
  return WheelReader(archive, limits);
}

void WheelReader::validate_entries() {
  zip_int64_t count = zip_get_num_entries(archive_.get(), 0);
  if (count < 0 || static_cast<std::uint64_t>(count) > limits_.max_entries) {
    throw WheelReadError(fmt::format("{} entries: more than the {} a wheel may have", count, limits_.max_entries));
  }
  std::uint64_t total = 0;
  for (zip_int64_t index = 0; index < count; ++index) {
    zip_stat_t stat;
    zip_stat_init(&stat);
    if (zip_stat_index(archive_.get(), index, 0, &stat) != 0 || !(stat.valid & ZIP_STAT_NAME)) {
      throw WheelReadError(fmt::format("corrupt entry {}: {}", index, zip_strerror(archive_.get())));
    }
    std::string_view name = stat.name;
    if (is_unsafe_entry_name(name)) {
      throw WheelReadError(
          fmt::format("unsafe entry name '{}': absolute paths and '..' could write outside the install "
                      "directory",
                      name));
    }
    if (stat.size > limits_.max_entry_bytes) {
      throw WheelReadError(fmt::format("entry '{}' inflates to {} bytes, more than the {} allowed (zip bomb?)", name,
                                       stat.size, limits_.max_entry_bytes));
    }
    if (stat.size >= limits_.ratio_check_min_bytes &&
        static_cast<double>(stat.size) >
            limits_.max_compression_ratio * static_cast<double>(std::max<zip_uint64_t>(stat.comp_size, 1))) {
      throw WheelReadError(fmt::format("entry '{}' inflates {} bytes to {} (ratio over {:.0f}): a zip bomb", name,
                                       stat.comp_size, stat.size, limits_.max_compression_ratio));
    }
    total += stat.size;
    if (total > limits_.max_total_bytes) {
      throw WheelReadError(fmt::format("entries inflate to more than the {} bytes allowed for a wheel (zip bomb?)",
                                       limits_.max_total_bytes));
    }
  }
}

std::vector<char> WheelReader::read_entry(std::uint64_t index, std::uint64_t max_bytes) {
  ZipEntryStream entry(archive_.get(), index);
  entry.rewind();
  std::vector<char> bytes(std::min(entry.size(), max_bytes));
  std::size_t done = 0;
  while (done < bytes.size()) done += entry.read(std::span<char>(bytes).subspan(done));
  if (bytes.size() == entry.size()) entry.read({});  // an empty entry too must end where it says
  return bytes;
}

void WheelReader::read_metadata() {
  // A version file is a few lines; a bound keeps a hostile one from costing memory.
  constexpr std::uint64_t kMaxRecordBytes = 1ULL << 20;
  std::optional<RecordedToolkit> required_toolkit;
  zip_int64_t count = zip_get_num_entries(archive_.get(), 0);
  for (zip_int64_t index = 0; index < count; ++index) {
    std::string_view name = zip_get_name(archive_.get(), index, 0);
    if (!metadata_.recorded_toolkit && may_record_toolkit(name)) {
      std::vector<char> content = read_entry(index, kMaxRecordBytes);
      metadata_.recorded_toolkit = toolkit_recorded_in(name, std::string_view(content.data(), content.size()));
      if (name.ends_with(".py")) read_import_time_checks(name, content);
      continue;
    }
    if (name.ends_with(".py")) {
      read_import_time_checks(name, read_entry(index, kMaxRecordBytes));
      continue;
    }
    auto slash = name.find('/');
    if (slash == std::string_view::npos || !name.substr(0, slash).ends_with(".dist-info")) continue;
    std::string_view file = name.substr(slash + 1);
    if (file != "METADATA" && file != "WHEEL") continue;
    metadata_.dist_info = std::string(name.substr(0, slash));
    std::vector<char> content = read_entry(index, 16ULL << 20);
    std::istringstream lines(std::string(content.begin(), content.end()));
    for (std::string line; std::getline(lines, line);) {
      std::string_view text = trim(line);
      if (file == "WHEEL" && text.starts_with("Tag:")) {
        if (text.find("-abi3-") != std::string_view::npos) metadata_.abi3 = true;
      } else if (file == "METADATA" && text.starts_with("Requires-Dist:")) {
        std::string_view requirement = trim(text.substr(std::string_view("Requires-Dist:").size()));
        metadata_.import_checks.declared_requirements.push_back(requirement_name(requirement));
        // A bound under an extra is optional, so only an unconditional torch requirement declares a target.
        if (requirement.find("extra") != std::string_view::npos) continue;
        if (!required_toolkit) required_toolkit = toolkit_required_by(requirement);
        if (auto bound = torch_lower_bound_of_requirement(requirement)) {
          metadata_.torch_lower_bound = bound;
          metadata_.torch_requirement = std::string(requirement);
        }
      }
    }
  }
  if (!metadata_.recorded_toolkit) metadata_.recorded_toolkit = std::move(required_toolkit);
  if (metadata_.recorded_toolkit) metadata_.recorded_toolkit->minor_checked_by = metadata_.cuda_minor_checked_by;
}

void WheelReader::read_import_time_checks(std::string_view name, const std::vector<char>& content) {
  const std::string_view source(content.data(), content.size());
  if (metadata_.cuda_minor_checked_by.empty() && refuses_other_cuda_minor(source)) {
    metadata_.cuda_minor_checked_by = std::string(name);
  }
  ImportTimeChecks& checks = metadata_.import_checks;
  auto top = name.substr(0, name.find('/'));
  if (!top.ends_with(".data") && !top.ends_with(".dist-info")) {
    checks.python_imports[std::string(name)] = module_level_imports(source);
  }
  if (checks.release_copy_picked_by.empty() && picks_copy_per_release(source)) {
    checks.release_copy_picked_by = std::string(name);
  }
  if (checks.torch_version_checked_by.empty() && refuses_other_torch_version(source)) {
    checks.torch_version_checked_by = std::string(name);
  }
  if (!checks.torch_built_with) {
    if (auto recorded = torch_build_recorded_in(source)) {
      checks.torch_built_with = recorded->version;
      checks.torch_built_with_source = fmt::format("{}: {}", name, recorded->line);
    }
  }
}

void WheelReader::apply_file_name_tags(const std::string& file_name) {
  auto name = parse_wheel_file_name(file_name);
  if (!name) return;
  if (name->abi.find("abi3") != std::string::npos) metadata_.abi3 = true;
  if (!metadata_.recorded_toolkit) {
    if (auto version = toolkit_of_local_version(name->version)) {
      metadata_.recorded_toolkit =
          RecordedToolkit{*version, fmt::format("wheel version {}", name->version), metadata_.cuda_minor_checked_by};
    }
  }
}

void WheelReader::for_each_binary_entry(const std::function<void(const std::string&, EntryStream&)>& visit) {
  zip_int64_t count = zip_get_num_entries(archive_.get(), 0);
  for (zip_int64_t index = 0; index < count; ++index) {
    std::string name = zip_get_name(archive_.get(), index, 0);
    if (name.ends_with('/')) continue;
    if (!binary_format_of(read_entry(index, 8))) continue;
    ZipEntryStream entry(archive_.get(), index);
    visit(name, entry);
  }
}

std::vector<std::string> WheelReader::file_names() const {
  std::vector<std::string> names;
  zip_int64_t count = zip_get_num_entries(archive_.get(), 0);
  for (zip_int64_t index = 0; index < count; ++index) {
    std::string name = zip_get_name(archive_.get(), index, 0);
    if (!name.ends_with('/')) names.push_back(std::move(name));
  }
  return names;
}

std::optional<std::string> WheelReader::read_small_entry(std::string_view name, std::uint64_t max_bytes) {
  zip_int64_t index = zip_name_locate(archive_.get(), std::string(name).c_str(), 0);
  if (index < 0) return std::nullopt;
  zip_stat_t stat;
  zip_stat_init(&stat);
  if (zip_stat_index(archive_.get(), index, 0, &stat) != 0 || stat.size > max_bytes) return std::nullopt;
  std::vector<char> content = read_entry(static_cast<std::uint64_t>(index), max_bytes);
  return std::string(content.begin(), content.end());
}

void WheelReader::for_each_entry_ending(std::string_view suffix,
                                        const std::function<void(const std::string&, EntryStream&)>& visit) {
  zip_int64_t count = zip_get_num_entries(archive_.get(), 0);
  for (zip_int64_t index = 0; index < count; ++index) {
    std::string name = zip_get_name(archive_.get(), index, 0);
    if (!name.ends_with(suffix)) continue;
    ZipEntryStream entry(archive_.get(), index);
    visit(name, entry);
  }
}

}  // namespace abicheck
