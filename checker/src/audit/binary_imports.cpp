#include "audit/binary_imports.h"

#include <array>
#include <cstring>

#include "audit/elf_reader.h"
#include "audit/elf_stream_reader.h"
#include "audit/entry_stream.h"
#include "audit/object_file_reader.h"

namespace abicheck {
namespace {

bool is_identifier_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

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

std::size_t scan_read_only_string_at(std::string_view data, std::size_t match, std::set<std::string>& candidates,
                                     std::optional<std::string>& marker) {
  constexpr std::string_view kAotiPrefix = "aoti_";
  std::size_t next = match + std::string_view("torch").size();
  std::string_view rest = data.substr(match);
  if (rest.starts_with(kTargetMarkerPrefix)) {
    std::string_view value = rest.substr(kTargetMarkerPrefix.size());
    value = value.substr(0, std::min(value.find('\0'), std::size_t{64}));
    if (!marker) marker = std::string(value);
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
  candidates.emplace(data.substr(start, end - start));
  return end;
}

void scan_read_only_strings(std::string_view data, std::set<std::string>& candidates,
                            std::optional<std::string>& marker) {
  std::size_t position = 0;
  while ((position = data.find("torch", position)) != std::string_view::npos) {
    position = scan_read_only_string_at(data, position, candidates, marker);
  }
}

}  // namespace abicheck
