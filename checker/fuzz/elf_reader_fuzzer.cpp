// libFuzzer target: any byte string handed to the ELF reader must end in ElfImports or an
// ElfReadError, never a crash, a hang or a sanitizer report; and the streaming reader (in chunks
// whose size the input's last byte picks) must come to the same imports or the same message, also
// when it may note only a few string runs and reads read-only sections again.
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "audit/elf_reader.h"
#include "audit/elf_stream_reader.h"
#include "audit/entry_stream.h"

namespace {

std::string outcome_of(const abicheck::BinaryImports& imports) {
  std::string text = imports.machine + "|" + imports.soname + "|" + (imports.has_symtab ? "symtab" : "") + "|" +
                     imports.target_marker.value_or("-");
  for (const auto& needed : imports.needed) text += "|n:" + needed;
  for (const auto& symbol : imports.undefined)
    text += "|u:" + symbol.name + "@" + symbol.version + "@" + symbol.library;
  for (const auto& candidate : imports.symbol_like_strings) text += "|s:" + candidate;
  for (const auto& name : imports.operator_like_strings) text += "|o:" + name;
  for (const auto& identifier : imports.identifier_strings) text += "|i:" + identifier;
  return text;
}

template <typename Read>
std::string outcome_of(Read read) {
  try {
    return outcome_of(read());
  } catch (const abicheck::ElfReadError& error) {
    return std::string("error: ") + error.what();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<char> image(data, data + size);
  std::string whole = outcome_of([&] { return abicheck::read_elf_imports(image); });
  std::size_t chunk = size ? 1 + data[size - 1] % 97 : 1;
  abicheck::MemoryEntryStream stream(std::span<const char>(reinterpret_cast<const char*>(data), size), chunk);
  abicheck::ElfStreamLimits always_streamed;
  always_streamed.whole_object_bytes = 0;
  std::string streamed = outcome_of([&] { return abicheck::read_elf_imports_streamed(stream, always_streamed); });
  if (streamed != whole) std::abort();
  // With room for a few noted runs only, the sections past them are read again in a last pass.
  abicheck::MemoryEntryStream again(std::span<const char>(reinterpret_cast<const char*>(data), size), chunk);
  always_streamed.max_string_run_bytes = 64 * (size ? data[size / 2] % 16 : 0);
  std::string few_runs = outcome_of([&] { return abicheck::read_elf_imports_streamed(again, always_streamed); });
  if (few_runs != whole) std::abort();
  return 0;
}
