#include "audit/binary_imports.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "audit/elf_reader.h"
#include "audit/elf_stream_reader.h"
#include "audit/entry_stream.h"
#include "audit/object_file_reader.h"

namespace abicheck {
bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool is_read_only_string_char(char c) { return is_identifier_char(c) || c == ':' || c == '.'; }

namespace {

std::uint32_t big_endian_word(std::span<const char> bytes, std::size_t at) {
  std::uint32_t value = 0;
  for (std::size_t i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

}  // namespace

std::string_view to_string(BinaryFormat format) {
  switch (format) {
    case BinaryFormat::Elf: return "elf";
    case BinaryFormat::MachO: return "mach-o";
    case BinaryFormat::Pe: return "pe";
  }
  return "elf";
}

std::string_view platform_of(BinaryFormat format) {
  switch (format) {
    case BinaryFormat::Elf: return "linux";
    case BinaryFormat::MachO: return "macos";
    case BinaryFormat::Pe: return "windows";
  }
  return "linux";
}

std::string_view platform_display_name(BinaryFormat format) {
  switch (format) {
    case BinaryFormat::Elf: return "Linux";
    case BinaryFormat::MachO: return "macOS";
    case BinaryFormat::Pe: return "Windows";
  }
  return "Linux";
}

std::optional<BinaryFormat> binary_format_of(std::span<const char> head) {
  if (looks_like_elf(head)) return BinaryFormat::Elf;
  if (head.size() >= 2 && head[0] == 'M' && head[1] == 'Z') return BinaryFormat::Pe;
  if (head.size() < 8) return std::nullopt;
  switch (big_endian_word(head, 0)) {
    case 0xFEEDFACE:
    case 0xFEEDFACF:
    case 0xCEFAEDFE:
    case 0xCFFAEDFE: return BinaryFormat::MachO;
    // A universal binary shares its magic with Java class files; its second word counts the
    // architectures (a handful) where a class file has its version (45 and up).
    case 0xCAFEBABE:
    case 0xCAFEBABF: return big_endian_word(head, 4) < 40 ? std::optional(BinaryFormat::MachO) : std::nullopt;
    default: return std::nullopt;
  }
}

std::vector<BinaryImports> read_binary_imports(std::span<char> image) {
  std::optional<BinaryFormat> format = binary_format_of(image);
  if (!format || *format == BinaryFormat::Elf) return {read_elf_imports(image)};
  return read_object_file_imports(image, *format);
}

std::vector<BinaryImports> read_binary_imports(EntryStream& stream) {
  std::array<char, 8> head{};
  stream.rewind();
  std::size_t got = 0;
  while (got < head.size()) {
    std::size_t more = stream.read(std::span<char>(head).subspan(got));
    if (more == 0) break;
    got += more;
  }
  std::optional<BinaryFormat> format = binary_format_of(std::span<const char>(head.data(), got));
  if (!format || *format == BinaryFormat::Elf) return {read_elf_imports_streamed(stream)};
  std::vector<char> image = read_whole_entry(stream);
  return read_object_file_imports(image, *format);
}

namespace {

bool is_identifier(std::string_view text) {
  return !text.empty() && !(text[0] >= '0' && text[0] <= '9') &&
         std::all_of(text.begin(), text.end(), is_identifier_char);
}

// "aten::add" or "aten::add.Tensor": a namespace, "::", a name and an optional overload, all identifiers.
bool is_operator_name(std::string_view text) {
  std::size_t scope = text.find("::");
  if (scope == std::string_view::npos || !is_identifier(text.substr(0, scope))) return false;
  std::string_view rest = text.substr(scope + 2);
  std::size_t dot = rest.find('.');
  if (dot == std::string_view::npos) return is_identifier(rest);
  return is_identifier(rest.substr(0, dot)) && is_identifier(rest.substr(dot + 1));
}

}  // namespace

std::size_t scan_read_only_string_at(std::string_view data, std::size_t match, ReadOnlyStrings& found) {
  constexpr std::string_view kAotiPrefix = "aoti_";
  std::size_t next = match + std::string_view("torch").size();
  std::string_view rest = data.substr(match);
  if (rest.starts_with(kTargetMarkerPrefix)) {
    std::string_view value = rest.substr(kTargetMarkerPrefix.size());
    value = value.substr(0, std::min(value.find('\0'), std::size_t{64}));
    if (!found.target_marker) found.target_marker = std::string(value);
    return next;
  }
  if (!rest.starts_with("torch_")) return next;
  std::size_t start = match;
  if (start >= kAotiPrefix.size() && data.substr(start - kAotiPrefix.size(), kAotiPrefix.size()) == kAotiPrefix) {
    start -= kAotiPrefix.size();
  }
  if (start > 0 && data[start - 1] != '\0') return next;
  std::size_t end = match;
  while (end < data.size() && end - start < 256 && is_identifier_char(data[end])) ++end;
  if (end >= data.size() || data[end] != '\0') return next;
  found.shim_names.emplace(data.substr(start, end - start));
  return end;
}

void classify_read_only_string(std::string_view text, ReadOnlyStrings& found) {
  constexpr std::size_t kLongestIdentifier = 64;
  if (text.size() <= kLongestIdentifier && is_identifier(text)) {
    found.identifiers.emplace(text);
  } else if (text.size() <= kLongestReadOnlyString && is_operator_name(text)) {
    found.operator_names.emplace(text);
  }
}

void scan_read_only_strings(std::string_view data, ReadOnlyStrings& found) {
  std::size_t position = 0;
  while ((position = data.find("torch", position)) != std::string_view::npos) {
    position = scan_read_only_string_at(data, position, found);
  }
  // Every NUL-terminated string: an operator's name and its overload are two string literals
  // (aoti_torch_call_dispatcher("aten::transpose", "int", ...)), which the linker may place anywhere.
  std::size_t start = 0;
  while (start < data.size()) {
    std::size_t end = data.find('\0', start);
    if (end == std::string_view::npos) break;  // not terminated inside the section: not a C string
    classify_read_only_string(data.substr(start, end - start), found);
    start = end + 1;
  }
}

void ReadOnlyStrings::move_into(BinaryImports& imports) {
  imports.symbol_like_strings.assign(shim_names.begin(), shim_names.end());
  imports.operator_like_strings.assign(operator_names.begin(), operator_names.end());
  imports.identifier_strings.assign(identifiers.begin(), identifiers.end());
  imports.target_marker = std::move(target_marker);
}

}  // namespace abicheck
