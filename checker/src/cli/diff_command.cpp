#include <fmt/format.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "diff/baseline_diff.h"
#include "diff/baseline_source.h"
#include "report/diff_json.h"
#include "report/html_report.h"

namespace abicheck {
namespace {

// Breaking first, then needs-review, then compatible additions as a count unless asked for.
void print_diff(const AbiDiff& diff, bool show_compatible) {
  std::map<Verdict, int> counts;
  for (Verdict verdict : {Verdict::Breaking, Verdict::NeedsReview, Verdict::Compatible}) {
    for (const auto& change : diff.changes) {
      if (change.verdict() != verdict) continue;
      if (change.suppressed_because.empty()) counts[verdict]++;
      if (verdict == Verdict::Compatible && !show_compatible) continue;
      fmt::print("{:<12} {:<22} {}: {}{}\n", to_string(verdict), to_string(change.kind), change.name, change.detail,
                 change.suppressed_because.empty() ? "" : " [suppressed: " + change.suppressed_because + "]");
    }
  }
  fmt::print("torch {} -> {}: {} breaking, {} needing review, {} compatible\n", diff.old_release.to_string(),
             diff.new_release.to_string(), counts[Verdict::Breaking], counts[Verdict::NeedsReview],
             counts[Verdict::Compatible]);
}

}  // namespace

void add_diff_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  struct Options {
    std::string old_spec;
    std::string new_spec;
    std::optional<std::filesystem::path> suppressions;
    std::optional<std::string> json_path;
    std::optional<std::string> html_path;
    bool show_compatible = false;
    bool bench = false;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("diff", "compare the stable ABI of two releases; exit 1 on a breaking change");
  command->add_option("old", options->old_spec, "a release (2.10), a baseline directory, or a torch dir / header tree")
      ->required();
  command->add_option("new", options->new_spec, "the same kinds of operand")->required();
  command->add_option("--suppressions", options->suppressions, "TOML file of accepted changes with their reasons");
  command->add_option("--json", options->json_path, "write {\"changes\": [...]} to FILE (-: stdout)");
  command->add_option("--html", options->html_path, "write the diff as a self-contained HTML report to FILE (-: stdout)");
  command->add_flag("--all", options->show_compatible, "also list compatible additions one by one");
  command->add_flag("--bench", options->bench, "print how long the comparison took");
  command->callback([&action, &common, options] {
    action = [&common, options] {
      std::vector<Suppression> suppressions;
      if (options->suppressions) suppressions = load_suppressions(*options->suppressions);
      ReleaseBaseline old_baseline = obtain_baseline(options->old_spec, common.store_root);
      ReleaseBaseline new_baseline = obtain_baseline(options->new_spec, common.store_root);
      auto start = std::chrono::steady_clock::now();
      AbiDiff diff = diff_baselines(old_baseline, new_baseline, suppressions, options->old_spec, options->new_spec);
      double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      nlohmann::ordered_json output = diff_to_json(diff);
      if (options->json_path) write_file_atomically(*options->json_path, output.dump(2) + "\n");
      if (options->html_path) {
        nlohmann::json document = {{"title", fmt::format("torch {} -> {}: stable ABI diff", diff.old_release.to_string(),
                                                         diff.new_release.to_string())}};
        add_to_report(document, nlohmann::json::parse(output.dump()), "diff");
        write_file_atomically(*options->html_path, render_html_report(document));
      }
      if (options->json_path != "-" && options->html_path != "-") print_diff(diff, options->show_compatible);
      if (options->bench) fmt::print("bench: diff {} -> {} took {:.3f} s\n", options->old_spec, options->new_spec, seconds);
      return diff.has_breaking() ? ExitCode::Findings : ExitCode::Clean;
    };
  });
}

}  // namespace abicheck
