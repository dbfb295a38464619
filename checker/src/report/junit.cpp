#include "report/junit.h"

#include <fmt/format.h>

#include <algorithm>

#include "report/markup.h"

namespace abicheck {

std::string render_junit(const std::string& suite_name, const std::vector<JUnitCase>& cases) {
  auto count = [&](JUnitCase::Outcome outcome) {
    return std::ranges::count_if(cases, [&](const JUnitCase& c) { return c.outcome == outcome; });
  };
  double total_seconds = 0;
  for (const auto& c : cases) total_seconds += c.seconds;
  std::string xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  xml += fmt::format(
      "<testsuites>\n<testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" "
      "time=\"{:.3f}\">\n",
      escape_markup(suite_name), cases.size(), count(JUnitCase::Outcome::Failed), count(JUnitCase::Outcome::Error),
      count(JUnitCase::Outcome::Skipped), total_seconds);
  for (const auto& c : cases) {
    xml += fmt::format("  <testcase classname=\"{}\" name=\"{}\" time=\"{:.3f}\"", escape_markup(c.class_name),
                       escape_markup(c.name), c.seconds);
    const char* element = c.outcome == JUnitCase::Outcome::Failed    ? "failure"
                          : c.outcome == JUnitCase::Outcome::Error   ? "error"
                          : c.outcome == JUnitCase::Outcome::Skipped ? "skipped"
                                                                     : nullptr;
    if (element == nullptr && c.output.empty()) {
      xml += "/>\n";
      continue;
    }
    xml += ">\n";
    if (element != nullptr) xml += fmt::format("    <{} message=\"{}\"/>\n", element, escape_markup(c.message));
    if (!c.output.empty()) xml += fmt::format("    <system-out>{}</system-out>\n", escape_markup(c.output));
    xml += "  </testcase>\n";
  }
  xml += "</testsuite>\n</testsuites>\n";
  return xml;
}

}  // namespace abicheck
