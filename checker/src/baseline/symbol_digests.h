#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace abicheck {

// Exported symbol names kept as their 64-bit digests (ContentHash), sorted, as the symbol caches of
// torch's libraries (TorchSymbolExports) and of any other library (LibrarySymbols) keep them: a few MB
// for a CUDA release's ~10^6 names instead of ~100 MB of text. Two names of one digest would make a
// missing symbol look exported; for ~10^6 names and the few hundred an object imports, the chance is
// below 10^-10.
class SymbolDigests {
 public:
  void add(std::string_view symbol);
  // Sorts and drops repeats: after the last add, before the first contains.
  void seal();
  bool contains(std::string_view symbol) const;
  std::size_t size() const { return hashes_.size(); }

  // A cache file's bytes: `header` (its first line, naming the format), `words` on one line
  // (space-separated: the libraries read, or the sonames needed), the digest count on one line, then
  // the digests as 8-byte integers in this machine's byte order (the cache is this machine's own).
  std::string serialize(std::string_view header, const std::vector<std::string>& words) const;
  // The digests and the words back; nullopt for a file of another format or a truncated one.
  static std::optional<std::pair<SymbolDigests, std::vector<std::string>>> deserialize(std::string_view bytes,
                                                                                       std::string_view header);

 private:
  std::vector<std::uint64_t> hashes_;
};

}  // namespace abicheck
