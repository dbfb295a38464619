#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace abicheck {

// An object read front to back, as many passes as its reader needs: a wheel's entry inflated by
// libzip (wheel_reader.cpp) or bytes already in memory. Each pass costs a read (an inflate) of the
// bytes up to where it stops; nothing of the object is held between passes by the stream itself.
class EntryStream {
 public:
  virtual ~EntryStream() = default;
  // The size the entry declares. A pass that reads to the end has checked that the content has
  // exactly this size (and, for a zip entry, its CRC): it throws otherwise.
  virtual std::uint64_t size() const = 0;
  // Starts a new pass at byte 0.
  virtual void rewind() = 0;
  // Fills the front of `into` with the next bytes and says how many; 0 only at the end. The read that
  // returns the last byte checks the size, and throws where the content is shorter or longer.
  virtual std::size_t read(std::span<char> into) = 0;
};

// The whole content in one buffer, for the readers that need it (Mach-O and PE objects).
std::vector<char> read_whole_entry(EntryStream& stream);

// Bytes in memory, handed out `chunk` bytes at a time (tests use small chunks to cross every boundary).
class MemoryEntryStream : public EntryStream {
 public:
  explicit MemoryEntryStream(std::span<const char> bytes, std::size_t chunk = std::size_t{1} << 20)
      : bytes_(bytes), chunk_(chunk ? chunk : 1) {}
  std::uint64_t size() const override { return bytes_.size(); }
  void rewind() override { position_ = 0; }
  std::size_t read(std::span<char> into) override;

 private:
  std::span<const char> bytes_;
  std::size_t chunk_;
  std::size_t position_ = 0;
};

}  // namespace abicheck
