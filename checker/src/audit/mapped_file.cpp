#include "audit/mapped_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/tool_error.h"

namespace abicheck {

MappedFile::MappedFile(const std::filesystem::path& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is then rejected as not a regular file.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw ToolError(fmt::format("{}: cannot open: {}", path.string(), std::strerror(errno)));
  struct stat info {};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    ::close(fd);
    throw ToolError(fmt::format("{}: not a regular file", path.string()));
  }
  size_ = static_cast<std::size_t>(info.st_size);
  if (size_ > 0) {
    address_ = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
    if (address_ == MAP_FAILED) {
      int error = errno;
      ::close(fd);
      address_ = nullptr;
      throw ToolError(fmt::format("{}: cannot map: {}", path.string(), std::strerror(error)));
    }
  }
  ::close(fd);
}

MappedFile::~MappedFile() {
  if (address_) ::munmap(address_, size_);
}

}  // namespace abicheck
