// libFuzzer target: any byte string handed to the ELF reader must end in ElfImports or an
// ElfReadError, never a crash, a hang or a sanitizer report.
#include <cstdint>
#include <vector>

#include "audit/elf_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<char> image(data, data + size);
  try {
    abicheck::read_elf_imports(image);
  } catch (const abicheck::ElfReadError&) {
  }
  return 0;
}
