#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace abicheck {

// SARIF 2.1.0 of a report document: one run whose rule table is the lint's rules (those that ran,
// even without a finding) plus the kind of every other finding, and one result per finding that
// has a place in a file (code scanning shows nothing without one).
std::string render_report_sarif(const nlohmann::json& document);

}  // namespace abicheck
