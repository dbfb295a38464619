#include "report/gate_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "gate/gate_judgement.h"
#include "report/aoti_render.h"
#include "report/audit_render.h"
#include "report/canary_render.h"
#include "report/diff_render.h"
#include "report/lint_render.h"
#include "report/matrix_render.h"
#include "report/report_document.h"

namespace abicheck {

nlohmann::json release_gate_document(const ReleaseGateResult& result) {
  const StoredRelease& candidate = result.candidate.release;
  nlohmann::json document =
      new_report_document("release-gate", fmt::format("torch {} release gate", candidate.version.to_full_string()),
                          judge_release_gate(result));
  document["gate"] = {{"candidate", candidate.version.to_full_string()},
                      {"torch_dir", candidate.torch_dir.string()},
                      {"from_store", result.candidate.from_store},
                      {"last", result.last.to_string()}};
  document["diffs"] = nlohmann::json::array({diff_section(result.diff)});
  document["lint"] = lint_section(result.lint.report, candidate.include_dir);
  document["matrix"] = matrix_section(result.matrix);
  document["audit"] = audit_section(result.audit);
  if (result.canary) document["canary"] = canary_section(*result.canary);
  if (result.aoti) document["aoti"] = aoti_section(*result.aoti);
  return document;
}

}  // namespace abicheck
