#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "check/extension_check.h"
#include "check/package_check.h"

namespace abicheck {

// The check's report document (report_document.h): its judgement as the verdict, a "check" section
// with the project's facts (build system, target and where it was read, runtimes, builds, notes),
// and the lint, smoke-run matrix and audit sections as those commands write them.
nlohmann::json check_document(const CheckResult& result);

// What `check` prints: target, lint diagnostics, builds, audit verdicts, the smoke grid, notes and
// the verdict lines.
std::string render_check_text(const CheckResult& result);

// A package's check as one document of the same shape: the "check" section names the package as the
// project (no build system, no builds; its minimum torch as the target, read from its shims), with the
// audit and aoti sections as `audit` and `aoti` write them.
nlohmann::json package_check_document(const PackageCheckResult& result);

// What `check MODEL.pt2` prints: the audit's verdict of each object, the aoti grid and the verdict lines.
std::string render_package_check_text(const nlohmann::json& document);

}  // namespace abicheck
