// libFuzzer target: any byte string handed to the audit's Mach-O/PE reader (as the format its magic
// announces, else either by the input's length, so that every input reaches LLVM's Object library)
// must end in BinaryImports or a BinaryReadError, never a crash, a hang or a sanitizer report.
#include <cstdint>
#include <vector>

#include "audit/binary_imports.h"
#include "audit/object_file_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<char> image(data, data + size);
  auto format =
      abicheck::binary_format_of(image).value_or(size % 2 ? abicheck::BinaryFormat::MachO : abicheck::BinaryFormat::Pe);
  if (format == abicheck::BinaryFormat::Elf) format = abicheck::BinaryFormat::MachO;
  try {
    abicheck::read_object_file_imports(image, format);
  } catch (const abicheck::BinaryReadError&) {
  }
  return 0;
}
