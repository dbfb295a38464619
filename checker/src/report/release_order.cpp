#include "report/release_order.h"

#include <algorithm>
#include <vector>

namespace abicheck {
namespace {

std::vector<long> release_key(const std::string& release) {
  std::vector<long> key;
  for (std::size_t start = 0; start <= release.size();) {
    std::size_t end = std::min(release.find('.', start), release.size());
    std::string part = release.substr(start, end - start);
    if (part.empty() || !std::ranges::all_of(part, [](char c) { return c >= '0' && c <= '9'; })) return {};
    key.push_back(std::stol(part));
    start = end + 1;
  }
  return key;
}

}  // namespace

bool release_text_less(const std::string& a, const std::string& b) {
  auto key_a = release_key(a);
  auto key_b = release_key(b);
  if (key_a.empty() != key_b.empty()) return !key_a.empty();
  if (key_a != key_b) return key_a < key_b;
  return a < b;
}

}  // namespace abicheck
