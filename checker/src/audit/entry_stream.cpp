#include "audit/entry_stream.h"

#include <algorithm>
#include <cstring>

namespace abicheck {

std::vector<char> read_whole_entry(EntryStream& stream) {
  stream.rewind();
  std::vector<char> bytes(stream.size());
  std::size_t done = 0;
  while (done < bytes.size()) {
    std::size_t got = stream.read(std::span<char>(bytes).subspan(done));
    if (got == 0) break;
    done += got;
  }
  bytes.resize(done);
  return bytes;
}

std::size_t MemoryEntryStream::read(std::span<char> into) {
  std::size_t count = std::min({into.size(), chunk_, bytes_.size() - position_});
  std::memcpy(into.data(), bytes_.data() + position_, count);
  position_ += count;
  return count;
}

}  // namespace abicheck
