#include <fmt/format.h>

#include <map>

#include "baseline/release_history.h"
#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/project_paths.h"
#include "diff/baseline_diff.h"
#include "diff/baseline_source.h"
#include "report/markup.h"

namespace abicheck {
namespace {

// One row of the timeline: a release and what it changed against the one before.
struct TimelineEntry {
  TorchVersion release;
  int functions = 0;
  std::optional<AbiDiff> diff;  // none for the oldest baseline
};

int count_functions(const ShimInventory& inventory) {
  return static_cast<int>(
      std::ranges::count(inventory.declarations, DeclarationKind::Function, &ShimDeclaration::kind));
}

std::map<ChangeKind, std::vector<const AbiChange*>> by_kind(const AbiDiff& diff) {
  std::map<ChangeKind, std::vector<const AbiChange*>> groups;
  for (const auto& change : diff.changes) groups[change.kind].push_back(&change);
  return groups;
}

int count_verdict(const AbiDiff& diff, Verdict verdict) {
  return static_cast<int>(
      std::ranges::count_if(diff.changes, [&](const AbiChange& c) { return c.verdict() == verdict; }));
}

std::string render_markdown(const std::vector<TimelineEntry>& entries) {
  std::string out =
      "# Stable ABI timeline\n\n| release | shim functions | added | removed | breaking | needs review |\n"
      "|---|---:|---:|---:|---:|---:|\n";
  for (const auto& entry : entries) {
    if (!entry.diff) {
      out += fmt::format("| {} | {} | | | | |\n", entry.release.to_string(), entry.functions);
      continue;
    }
    auto groups = by_kind(*entry.diff);
    out += fmt::format("| {} | {} | {} | {} | {} | {} |\n", entry.release.to_string(), entry.functions,
                       groups[ChangeKind::Added].size(), groups[ChangeKind::FunctionRemoved].size(),
                       count_verdict(*entry.diff, Verdict::Breaking), count_verdict(*entry.diff, Verdict::NeedsReview));
  }
  for (const auto& entry : entries) {
    if (!entry.diff) continue;
    out += fmt::format("\n## {} (against {})\n\n", entry.release.to_string(), entry.diff->old_release.to_string());
    for (const auto& [kind, changes] : by_kind(*entry.diff)) {
      out += fmt::format("* **{}** ({}, {}):", to_string(kind), to_string(verdict_of(kind)), changes.size());
      if (kind == ChangeKind::Added) {
        for (const auto* change : changes) out += " `" + change->name + "`";
        out += "\n";
        continue;
      }
      out += "\n";
      for (const auto* change : changes) out += fmt::format("  * `{}`: {}\n", change->name, change->detail);
    }
  }
  return out;
}

std::string render_html(const std::vector<TimelineEntry>& entries) {
  std::string out =
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Stable ABI timeline</title>\n"
      "<style>body{font-family:sans-serif}table{border-collapse:collapse}td,th{border:1px solid #999;padding:2px 8px}"
      ".breaking{color:#b00}.needs-review{color:#a60}.compatible{color:#070}</style></head><body>\n"
      "<h1>Stable ABI timeline</h1>\n<table><tr><th>release</th><th>shim functions</th><th>added</th>"
      "<th>removed</th><th>breaking</th><th>needs review</th></tr>\n";
  for (const auto& entry : entries) {
    if (!entry.diff) {
      out += fmt::format("<tr><td>{}</td><td>{}</td><td></td><td></td><td></td><td></td></tr>\n",
                         entry.release.to_string(), entry.functions);
      continue;
    }
    auto groups = by_kind(*entry.diff);
    out += fmt::format(
        "<tr><td><a href=\"#r{}\">{}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
        entry.release.to_string(), entry.release.to_string(), entry.functions, groups[ChangeKind::Added].size(),
        groups[ChangeKind::FunctionRemoved].size(), count_verdict(*entry.diff, Verdict::Breaking),
        count_verdict(*entry.diff, Verdict::NeedsReview));
  }
  out += "</table>\n";
  for (const auto& entry : entries) {
    if (!entry.diff) continue;
    out += fmt::format("<h2 id=\"r{}\">{} (against {})</h2>\n<ul>\n", entry.release.to_string(),
                       entry.release.to_string(), entry.diff->old_release.to_string());
    for (const auto& [kind, changes] : by_kind(*entry.diff)) {
      std::string_view verdict = to_string(verdict_of(kind));
      out +=
          fmt::format("<li class=\"{}\"><b>{}</b> ({}, {})<ul>\n", verdict, to_string(kind), verdict, changes.size());
      for (const auto* change : changes) {
        out += fmt::format("<li><code>{}</code>{}</li>\n", escape_markup(change->name),
                           kind == ChangeKind::Added ? "" : ": " + escape_markup(change->detail));
      }
      out += "</ul></li>\n";
    }
    out += "</ul>\n";
  }
  return out + "</body></html>\n";
}

}  // namespace

void add_timeline_command(CLI::App& app, const CommonOptions&, CommandAction& action) {
  struct Options {
    std::filesystem::path baselines;
    std::optional<std::string> markdown_path;
    std::optional<std::string> html_path;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("timeline", "what each committed baseline added, changed and removed");
  add_baselines_option(command, options->baselines);
  as_operand(command->add_option("--markdown", options->markdown_path, "write Markdown to OUT (default: stdout)"),
             Operand::Output);
  as_operand(command->add_option("--html", options->html_path, "write HTML to OUT"), Operand::Output);
  command->callback([&action, options] {
    action = [options] {
      ReleaseHistory history = ReleaseHistory::open(baselines_or_default(options->baselines));
      const std::filesystem::path& directory = history.directory();
      std::vector<TimelineEntry> entries;
      std::optional<ReleaseBaseline> previous;
      std::filesystem::path previous_path;
      auto first_shipped = first_shipped_releases(history.inventories());
      for (const auto& path : history.baseline_dirs()) {
        ReleaseBaseline baseline = load_baseline(path);
        TimelineEntry entry{baseline.inventory.release, count_functions(baseline.inventory), std::nullopt};
        // Committed baselines: each one's compile errors are those its release shipped with.
        if (previous)
          entry.diff = diff_baselines(*previous, baseline, {}, previous_path.string(), path.string(),
                                      {baseline.inventory.compile_error_identities(), first_shipped});
        entries.push_back(std::move(entry));
        previous = std::move(baseline);
        previous_path = path;
      }
      if (entries.empty()) throw ToolError(fmt::format("{}: no baselines", directory.string()));
      if (options->html_path) write_file_atomically(*options->html_path, render_html(entries));
      if (options->markdown_path || !options->html_path) {
        write_file_atomically(options->markdown_path.value_or("-"), render_markdown(entries));
      }
      return ExitCode::Clean;
    };
  });
}

}  // namespace abicheck
