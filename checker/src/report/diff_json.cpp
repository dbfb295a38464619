#include "report/diff_json.h"

namespace abicheck {

nlohmann::ordered_json diff_to_json(const AbiDiff& diff) {
  nlohmann::ordered_json changes = nlohmann::ordered_json::array();
  for (const auto& change : diff.changes) {
    nlohmann::ordered_json item = {{"name", change.name},
                                   {"kind", to_string(change.kind)},
                                   {"verdict", to_string(change.verdict())},
                                   {"detail", change.detail}};
    if (!change.suppressed_because.empty()) item["suppressed"] = change.suppressed_because;
    changes.push_back(std::move(item));
  }
  return {{"old", diff.old_release.to_string()}, {"new", diff.new_release.to_string()}, {"changes", changes}};
}

}  // namespace abicheck
