#pragma once

#include <string>

namespace abicheck {

// Releases as documents write them, in release order: "2.9" < "2.10" < "2.10.1"; anything that is
// not a dotted number sorts after them, by its text. Grids and diff lists read oldest first.
bool release_text_less(const std::string& a, const std::string& b);

struct ReleaseTextLess {
  bool operator()(const std::string& a, const std::string& b) const { return release_text_less(a, b); }
};

}  // namespace abicheck
