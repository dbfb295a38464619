#include "diff/abigail_compare.h"

#include <abg-comparison.h>
#include <abg-corpus.h>
#include <abg-reader.h>
#include <fmt/format.h>

#include <algorithm>
#include <sstream>

#include "core/tool_error.h"

namespace abicheck {
namespace {

namespace ir = abigail::ir;
namespace comparison = abigail::comparison;

ir::corpus_sptr read_corpus(const std::string& abixml, const std::string& origin, ir::environment& env) {
  std::istringstream in(abixml);
  ir::corpus_sptr corpus = abigail::abixml::read_corpus_from_abixml(&in, env);
  if (!corpus) throw ToolError(fmt::format("{}: libabigail cannot read the ABI model", origin));
  return corpus;
}

// libabigail's own account of a subtype change, on one line: what changed inside a type whose
// name stayed the same (a struct that grew a member, a typedef that now names another type).
std::string one_line_report(const comparison::diff_sptr& diff) {
  std::ostringstream out;
  diff->report(out);
  std::string text;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    std::size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    if (!text.empty()) text += text.back() == ':' ? " " : "; ";
    text += line.substr(start);
  }
  return text;
}

std::string describe_type_change(const comparison::diff_sptr& diff) {
  std::string before = diff->first_subject()->get_pretty_representation();
  std::string after = diff->second_subject()->get_pretty_representation();
  if (before != after) return fmt::format("'{}' became '{}'", before, after);
  return fmt::format("'{}' changed: {}", before, one_line_report(diff));
}

// Which parameter changed and how: the detail a release manager needs to judge the break.
std::string describe_function_change(const comparison::function_decl_diff& diff) {
  std::vector<std::string> parts;
  const auto& type_diff = diff.type_diff();
  if (!type_diff) return one_line_report(diff.type_diff());
  if (auto result = type_diff->return_type_diff(); result && result->has_changes()) {
    parts.push_back("return type " + describe_type_change(result));
  }
  std::vector<comparison::fn_parm_diff_sptr> changed;
  for (const auto& [key, parameter_diff] : type_diff->subtype_changed_parms()) changed.push_back(parameter_diff);
  std::ranges::sort(changed, {}, [](const auto& d) { return d->first_parameter()->get_index(); });
  for (const auto& parameter_diff : changed) {
    const auto& parameter = parameter_diff->first_parameter();
    parts.push_back(fmt::format("parameter {} '{}': {}", parameter->get_index(), std::string(parameter->get_name()),
                                describe_type_change(parameter_diff->type_diff())));
  }
  for (const auto& parameter : type_diff->sorted_deleted_parms()) {
    parts.push_back(fmt::format("parameter {} '{}' of type '{}' removed", parameter->get_index(),
                                std::string(parameter->get_name()), parameter->get_type_pretty_representation()));
  }
  for (const auto& parameter : type_diff->sorted_added_parms()) {
    parts.push_back(fmt::format("parameter {} '{}' of type '{}' added", parameter->get_index(),
                                std::string(parameter->get_name()), parameter->get_type_pretty_representation()));
  }
  if (parts.empty()) return one_line_report(type_diff);
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : "; ") + part;
  return text;
}

}  // namespace

std::vector<AbiChange> compare_abi_models(const std::string& old_abixml, const std::string& new_abixml,
                                          const std::string& old_origin, const std::string& new_origin) {
  ir::environment env;
  ir::corpus_sptr old_corpus = read_corpus(old_abixml, old_origin, env);
  ir::corpus_sptr new_corpus = read_corpus(new_abixml, new_origin, env);
  comparison::diff_context_sptr context(new comparison::diff_context);
  // As abidiff does by default: a renamed parameter, or a typedef that names the same type (int64_t
  // written `long`), changes nothing a caller compiled against.
  context->switch_categories_off(comparison::get_default_harmless_categories_bitmap());
  comparison::corpus_diff_sptr corpus_diff = comparison::compute_diff(old_corpus, new_corpus, context);
  corpus_diff->apply_filters_and_suppressions_before_reporting();

  std::vector<AbiChange> changes;
  for (const auto& function_diff : corpus_diff->changed_functions_sorted()) {
    if (!function_diff->has_changes() || !function_diff->to_be_reported()) continue;
    changes.push_back({std::string(function_diff->first_function_decl()->get_name()),
                       ChangeKind::SignatureChanged,
                       describe_function_change(*function_diff),
                       {}});
  }
  return changes;
}

}  // namespace abicheck
