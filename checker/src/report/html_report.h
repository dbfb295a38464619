#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace abicheck {

// One self-contained HTML page (inline CSS and JS, nothing fetched) of a report document
// (report_document.h): the verdict the stages wrote, one grid per matrix suite and backend with
// every cell's log, and the diff, lint and audit tables. The document is embedded as
// <script type="application/json" id="report-data">. Deterministic: the same document renders to
// the same bytes.
std::string render_html_report(const nlohmann::json& document);

}  // namespace abicheck
