#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "check/extension_check.h"

namespace abicheck {

// The check's report document (report_document.h): its judgement as the verdict, a "check" section
// with the project's facts (build system, target and where it was read, runtimes, builds, notes),
// and the lint, smoke-run matrix and audit sections as those commands write them.
nlohmann::json check_document(const CheckResult& result);

// What `check` prints: target, lint diagnostics, builds, audit verdicts, the smoke grid, notes and
// the verdict lines.
std::string render_check_text(const CheckResult& result);

}  // namespace abicheck
