#include "report/main_job_report.h"

#include <nlohmann/json.hpp>

#include "report/aoti_render.h"
#include "report/canary_render.h"
#include "report/diff_render.h"
#include "report/lint_render.h"
#include "report/matrix_render.h"
#include "report/report_document.h"

namespace abicheck {

nlohmann::json main_job_document(const MainJobResult& result) {
  nlohmann::json document = new_report_document("ci", "torch-abi-check main job", judge_main_job(result));
  document["matrix"] = matrix_section(result.matrix);
  document["diffs"] = nlohmann::json::array();
  for (const auto& diff : result.diffs) document["diffs"].push_back(diff_section(diff));
  document["lint"] = lint_section(result.lint.report, result.lint_release.include_dir);
  if (result.canary) document["canary"] = canary_section(*result.canary);
  if (result.aoti) document["aoti"] = aoti_section(*result.aoti);
  return document;
}

}  // namespace abicheck
