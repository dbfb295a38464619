#include "report/junit.h"

#include <fmt/format.h>

#include <algorithm>

namespace abicheck {
namespace {

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default:
        // XML 1.0 forbids most control characters even when escaped; logs can carry them.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\n' && c != '\t' && c != '\r') {
          out += '?';
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace

std::string render_junit(const std::string& suite_name, const std::vector<JUnitCase>& cases) {
  auto count = [&](JUnitCase::Outcome outcome) {
    return std::ranges::count_if(cases, [&](const JUnitCase& c) { return c.outcome == outcome; });
  };
  double total_seconds = 0;
  for (const auto& c : cases) total_seconds += c.seconds;
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += fmt::format("<testsuites>\n<testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n",
                     xml_escape(suite_name), cases.size(), count(JUnitCase::Outcome::Failed),
                     count(JUnitCase::Outcome::Error), count(JUnitCase::Outcome::Skipped), total_seconds);
  for (const auto& c : cases) {
    xml += fmt::format("  <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\"", xml_escape(c.class_name),
                       xml_escape(c.name), c.seconds);
    const char* element = c.outcome == JUnitCase::Outcome::Failed    ? "failure"
                          : c.outcome == JUnitCase::Outcome::Error   ? "error"
                          : c.outcome == JUnitCase::Outcome::Skipped ? "skipped"
                                                                     : nullptr;
    if (element == nullptr && c.output.empty()) {
      xml += "/>\n";
      continue;
    }
    xml += ">\n";
    if (element != nullptr) xml += fmt::format("    <{} message=\"{}\"/>\n", element, xml_escape(c.message));
    if (!c.output.empty()) xml += fmt::format("    <system-out>{}</system-out>\n", xml_escape(c.output));
    xml += "  </testcase>\n";
  }
  xml += "</testsuite>\n</testsuites>\n";
  return xml;
}

}  // namespace abicheck
