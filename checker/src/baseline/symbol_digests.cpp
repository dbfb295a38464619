#include "baseline/symbol_digests.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cstring>

#include "core/content_hash.h"

namespace abicheck {
namespace {

std::uint64_t name_digest(std::string_view name) { return ContentHash().add(name).value(); }

}  // namespace

void SymbolDigests::add(std::string_view symbol) { hashes_.push_back(name_digest(symbol)); }

void SymbolDigests::seal() {
  std::ranges::sort(hashes_);
  hashes_.erase(std::unique(hashes_.begin(), hashes_.end()), hashes_.end());
}

bool SymbolDigests::contains(std::string_view symbol) const {
  return std::ranges::binary_search(hashes_, name_digest(symbol));
}

std::string SymbolDigests::serialize(std::string_view header, const std::vector<std::string>& words) const {
  std::string bytes = fmt::format("{}{}\n{}\n", header, fmt::join(words, " "), hashes_.size());
  std::size_t start = bytes.size();
  bytes.resize(start + hashes_.size() * sizeof(std::uint64_t));
  std::memcpy(bytes.data() + start, hashes_.data(), hashes_.size() * sizeof(std::uint64_t));
  return bytes;
}

std::optional<std::pair<SymbolDigests, std::vector<std::string>>> SymbolDigests::deserialize(std::string_view bytes,
                                                                                             std::string_view header) {
  if (!bytes.starts_with(header)) return std::nullopt;
  bytes.remove_prefix(header.size());
  std::size_t words_end = bytes.find('\n');
  if (words_end == std::string_view::npos) return std::nullopt;
  std::size_t count_end = bytes.find('\n', words_end + 1);
  if (count_end == std::string_view::npos) return std::nullopt;
  std::size_t count = 0;
  std::string_view count_text = bytes.substr(words_end + 1, count_end - words_end - 1);
  auto [end, error] = std::from_chars(count_text.data(), count_text.data() + count_text.size(), count);
  std::string_view digests = bytes.substr(count_end + 1);
  if (error != std::errc() || end != count_text.data() + count_text.size() ||
      digests.size() != count * sizeof(std::uint64_t)) {
    return std::nullopt;
  }
  std::pair<SymbolDigests, std::vector<std::string>> read;
  std::string_view words = bytes.substr(0, words_end);
  for (std::size_t begin = 0; begin < words.size();) {
    std::size_t space = std::min(words.find(' ', begin), words.size());
    read.second.emplace_back(words.substr(begin, space - begin));
    begin = space + 1;
  }
  read.first.hashes_.resize(count);
  std::memcpy(read.first.hashes_.data(), digests.data(), digests.size());
  return read;
}

}  // namespace abicheck
