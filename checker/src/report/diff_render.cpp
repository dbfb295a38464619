#include "report/diff_render.h"

#include <fmt/format.h>

#include <map>
#include <nlohmann/json.hpp>

#include "report/suppression_render.h"

namespace abicheck {

nlohmann::json diff_section(const AbiDiff& diff) {
  nlohmann::json changes = nlohmann::json::array();
  for (const auto& change : diff.changes) {
    nlohmann::json item = {{"name", change.name},
                           {"kind", to_string(change.kind)},
                           {"verdict", to_string(change.verdict())},
                           {"detail", change.detail}};
    if (!change.suppressed_because.empty()) item["suppressed"] = change.suppressed_because;
    changes.push_back(std::move(item));
  }
  return {{"old", diff.old_release.to_string()},
          {"new", diff.new_release.to_string()},
          {"changes", changes},
          {"suppression_problems", suppression_problems_json(diff.suppression_problems)}};
}

std::string render_diff_text(const AbiDiff& diff, bool show_compatible) {
  std::string text;
  std::map<Verdict, int> counts;
  for (Verdict verdict : {Verdict::Breaking, Verdict::NeedsReview, Verdict::Compatible}) {
    for (const auto& change : diff.changes) {
      if (change.verdict() != verdict) continue;
      if (change.suppressed_because.empty()) counts[verdict]++;
      if (verdict == Verdict::Compatible && !show_compatible) continue;
      text += fmt::format("{:<12} {:<22} {}: {}{}\n", to_string(verdict), to_string(change.kind), change.name,
                          change.detail,
                          change.suppressed_because.empty() ? "" : " [suppressed: " + change.suppressed_because + "]");
    }
  }
  text += fmt::format("torch {} -> {}: {} breaking, {} needing review, {} compatible\n", diff.old_release.to_string(),
                      diff.new_release.to_string(), counts[Verdict::Breaking], counts[Verdict::NeedsReview],
                      counts[Verdict::Compatible]);
  text += render_suppression_problems_text(diff.suppression_problems);
  return text;
}

}  // namespace abicheck
