#include <fmt/format.h>

#include <chrono>
#include <map>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "diff/baseline_diff.h"
#include "diff/baseline_source.h"

namespace abicheck {
namespace {

std::string diff_to_json(const AbiDiff& diff) {
  nlohmann::ordered_json changes = nlohmann::ordered_json::array();
  for (const auto& change : diff.changes) {
    nlohmann::ordered_json item = {{"name", change.name},
                                   {"kind", to_string(change.kind)},
                                   {"verdict", to_string(change.verdict())},
                                   {"detail", change.detail}};
    if (!change.suppressed_because.empty()) item["suppressed"] = change.suppressed_because;
    changes.push_back(std::move(item));
  }
  nlohmann::ordered_json document = {
      {"old", diff.old_release.to_string()}, {"new", diff.new_release.to_string()}, {"changes", changes}};
  return document.dump(2) + "\n";
}

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
      if (options->json_path) write_file_atomically(*options->json_path, diff_to_json(diff));
      if (!options->json_path || *options->json_path != "-") print_diff(diff, options->show_compatible);
      if (options->bench) fmt::print("bench: diff {} -> {} took {:.3f} s\n", options->old_spec, options->new_spec, seconds);
      return diff.has_breaking() ? ExitCode::Findings : ExitCode::Clean;
    };
  });
}

}  // namespace abicheck
