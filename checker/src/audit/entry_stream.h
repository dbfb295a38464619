#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

struct zip;
struct zip_file;

namespace abicheck {

// A wheel that cannot be audited as a whole: not a zip, corrupt, unsafe entry names, a zip bomb.
// The message is one line without the file name.
class WheelReadError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An object read front to back, as many passes as its reader needs: a wheel's entry (ZipEntryStream)
// or bytes already in memory. Each pass costs a read (an inflate) of the bytes up to where it stops;
// nothing of the object is held between passes by the stream itself.
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

// One entry of a zip archive (index `index` of `archive`, which must outlive it), inflated as it is
// read. A deflated entry's raw compressed bytes are inflated by ISA-L's igzip (several times zlib's
// speed, which is what a wheel's audit costs: docs/wheel-reading.md), which also computes the CRC;
// stored entries and any other method are read through libzip. Either way a pass that reaches the
// declared size checks that the content ends there and that its CRC is the one the archive records.
// Every problem is a WheelReadError naming the entry.
class ZipEntryStream final : public EntryStream {
 public:
  ZipEntryStream(zip* archive, std::uint64_t index);
  ~ZipEntryStream() override;
  ZipEntryStream(const ZipEntryStream&) = delete;
  ZipEntryStream& operator=(const ZipEntryStream&) = delete;

  std::uint64_t size() const override { return size_; }
  void rewind() override;
  std::size_t read(std::span<char> into) override;

 private:
  class Inflater;

  // Inflating past the declared size means the header lied: the classic bomb shape. Reaching the
  // end is also where the CRC is checked.
  void check_ends_here();
  [[noreturn]] void fail(const std::string& problem) const;
  void close();

  zip* archive_;
  std::uint64_t index_;
  std::string name_;
  std::uint64_t size_ = 0;
  std::uint32_t crc_ = 0;
  bool inflate_here_ = false;  // a deflated, unencrypted entry: ISA-L inflates its raw bytes
  struct FileCloser {
    void operator()(zip_file* file) const;
  };
  std::unique_ptr<zip_file, FileCloser> file_;
  std::unique_ptr<Inflater> inflater_;
  std::uint64_t position_ = 0;
  bool checked_end_ = false;
};

}  // namespace abicheck
