// libFuzzer target: any byte string opened as a wheel must end in its binary entries being read
// or a WheelReadError, within the reader's size bounds.
#include <cstdint>

#include "audit/binary_imports.h"
#include "audit/wheel_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  abicheck::WheelLimits limits;
  limits.max_entry_bytes = 64ULL << 20;  // the fuzzer's memory, not a real wheel's
  limits.max_total_bytes = 256ULL << 20;
  try {
    auto reader = abicheck::WheelReader::open_memory({reinterpret_cast<const char*>(data), size}, limits);
    reader.for_each_binary_entry([](const std::string&, abicheck::EntryStream& entry) {
      try {
        abicheck::read_binary_imports(entry);
      } catch (const abicheck::BinaryReadError&) {
      }
    });
  } catch (const abicheck::WheelReadError&) {
  }
  return 0;
}
