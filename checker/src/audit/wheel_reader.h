#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "audit/entry_stream.h"
#include "audit/import_time_checks.h"
#include "audit/recorded_toolkit.h"
#include "core/torch_version.h"

struct zip;

namespace abicheck {

// Bounds that keep a hostile archive from exhausting memory and time. Binary entries are streamed
// (audit/entry_stream.h), so an entry's size bounds the work, not the memory; Mach-O and PE entries
// are still inflated whole, so for them it bounds the memory too.
struct WheelLimits {
  std::uint64_t max_entry_bytes = 4ULL << 30;   // the largest CUDA extension objects are ~1-2 GB
  std::uint64_t max_total_bytes = 32ULL << 30;  // declared uncompressed size of the whole wheel
  std::uint64_t max_entries = 200000;
  // Real objects compress 3-10x; a ratio far past that on a large entry is a bomb, not code.
  double max_compression_ratio = 1000;
  std::uint64_t ratio_check_min_bytes = 16ULL << 20;
};

// What the wheel's own metadata says about torch and the Python ABI.
struct WheelMetadata {
  std::string dist_info;                          // "torchaudio-2.9.0.dist-info"
  std::optional<TorchVersion> torch_lower_bound;  // from Requires-Dist: torch>=X (or ==X, ~=X)
  std::string torch_requirement;                  // the requirement as written, for reports
  bool abi3 = false;                              // a wheel tag with the abi3 ABI
  // The CUDA or ROCm version the wheel records about its build: a package's version.py or build-info
  // JSON first, then an NVIDIA runtime requirement, then a local label of the wheel's version (+cu128).
  std::optional<RecordedToolkit> recorded_toolkit;
  // A Python file of the wheel that refuses another CUDA major.minor at import (refuses_other_cuda_minor).
  std::string cuda_minor_checked_by;
  // What its Python files decide at import: a per-release copy, a torch version check.
  ImportTimeChecks import_checks;
};

// The lower bound of a Requires-Dist line's torch requirement; nullopt when the line is about
// another project or sets no lower bound. Exposed for tests: `torch (>=2.10,<3)`, `torch==2.10.*`.
std::optional<TorchVersion> torch_lower_bound_of_requirement(std::string_view requirement_line);

// A wheel opened through libzip. Every entry name is checked on open (no absolute paths, no `..`),
// and declared sizes against WheelLimits; reads are bounded by the declared size.
class WheelReader {
 public:
  static WheelReader open_file(const std::filesystem::path& path, WheelLimits limits = {});
  // For the fuzzer: the bytes must outlive the reader.
  static WheelReader open_memory(std::span<const char> bytes, WheelLimits limits = {});
  WheelReader(WheelReader&&) noexcept;
  ~WheelReader();

  const WheelMetadata& metadata() const { return metadata_; }
  // Sets the abi3 flag from the wheel's file name tags (name-version-python-abi-platform.whl), and the
  // recorded toolkit from a local label of its version when the wheel's files record none.
  void apply_file_name_tags(const std::string& file_name);

  // Calls visit for each entry whose content starts with an ELF, Mach-O or PE magic, in archive order,
  // with a stream that inflates it (valid during the call only). Other entries are inflated no further
  // than their first bytes. A stream throws WheelReadError where the entry is corrupt, shorter or longer
  // than it declares.
  void for_each_binary_entry(const std::function<void(const std::string& name, EntryStream& entry)>& visit);

  // Every file entry's name, in archive order (what a .pt2 package's reader looks through).
  std::vector<std::string> file_names() const;
  // The whole content of the entry `name`; nullopt when there is none or it declares more than
  // max_bytes (a hostile archive's "small" file).
  std::optional<std::string> read_small_entry(std::string_view name, std::uint64_t max_bytes);
  // Calls visit for each file entry whose name ends with `suffix` (".pt2": a package inside a wheel),
  // with a stream that inflates it, valid during the call only.
  void for_each_entry_ending(std::string_view suffix,
                             const std::function<void(const std::string& name, EntryStream& entry)>& visit);

 private:
  WheelReader(zip* archive, WheelLimits limits);
  void validate_entries();
  void read_metadata();
  // What one Python file of the wheel decides at import (import_time_checks.h, recorded_toolkit.h).
  void read_import_time_checks(std::string_view name, const std::vector<char>& content);
  std::vector<char> read_entry(std::uint64_t index, std::uint64_t max_bytes);

  struct ArchiveCloser {
    void operator()(zip* archive) const;
  };
  std::unique_ptr<zip, ArchiveCloser> archive_;
  WheelLimits limits_;
  WheelMetadata metadata_;
};

}  // namespace abicheck
