#include "report/suppression_render.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

namespace abicheck {

nlohmann::json suppression_problems_json(const std::vector<SuppressionProblem>& problems) {
  nlohmann::json items = nlohmann::json::array();
  for (const auto& problem : problems) {
    items.push_back({{"kind", problem.kind_name()},
                     {"file", problem.file},
                     {"line", problem.line},
                     {"entry", problem.entry},
                     {"reason", problem.reason},
                     {"expires", problem.expires ? nlohmann::json(problem.expires->to_string()) : nullptr}});
  }
  return items;
}

std::string render_suppression_problems_text(const std::vector<SuppressionProblem>& problems) {
  std::string text;
  for (const auto& problem : problems) {
    text +=
        fmt::format("{}:{}: {} suppression: {}\n", problem.file, problem.line, problem.kind_name(), problem.message());
  }
  return text;
}

}  // namespace abicheck
