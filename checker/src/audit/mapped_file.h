#pragma once

#include <cstddef>
#include <filesystem>
#include <span>

namespace abicheck {

// A file mapped into memory (copy-on-write, so libelf may treat the image as writable without
// touching the file): audited objects are read in place, never copied.
class MappedFile {
 public:
  // Throws ToolError naming the file when it cannot be opened or mapped.
  explicit MappedFile(const std::filesystem::path& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<char> bytes() const { return {static_cast<char*>(address_), size_}; }

 private:
  void* address_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace abicheck
