#pragma once

#include <string>
#include <string_view>

namespace abicheck {

// Escapes text for XML and HTML alike (JUnit, the HTML report, the timeline): the five markup
// characters become entities, and control characters that XML 1.0 forbids even when escaped
// (logs carry them) become '?'.
std::string escape_markup(std::string_view text);

}  // namespace abicheck
