#include <fmt/format.h>

#include <chrono>
#include <nlohmann/json.hpp>

#include "baseline/release_history.h"
#include "cli/command.h"
#include "diff/baseline_diff.h"
#include "diff/baseline_source.h"
#include "diff/diff_judgement.h"
#include "diff/suppressions.h"
#include "report/diff_render.h"
#include "report/report_document.h"

namespace abicheck {

void add_diff_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  struct Options {
    std::string old_spec;
    std::string new_spec;
    std::optional<std::filesystem::path> suppressions;
    std::filesystem::path baselines;
    ReportOutputs outputs;
    bool show_compatible = false;
    bool bench = false;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand("diff", "compare the stable ABI of two releases; exit 1 on a breaking change");
  as_operand(command->add_option("old", options->old_spec,
                                 "a release (2.10), a baseline directory, or a torch dir / header tree"),
             Operand::Release)
      ->required();
  as_operand(command->add_option("new", options->new_spec, "the same kinds of operand"), Operand::Release)->required();
  as_operand(command->add_option(
                 "--suppressions", options->suppressions,
                 "TOML file of accepted changes, each with a reason and an optional expiry (docs/suppressions.md)"),
             Operand::File);
  add_baselines_option(command, options->baselines);
  add_output_options(command, options->outputs);
  command->add_flag("--all", options->show_compatible, "also list compatible additions one by one");
  command->add_flag("--bench", options->bench, "print how long the comparison took");
  command->callback([&action, &common, options] {
    action = [&common, options] {
      std::optional<SuppressionFile> suppressions;
      if (options->suppressions) suppressions = load_suppressions(*options->suppressions, suppression_today());
      ReleaseHistory history = ReleaseHistory::open(baselines_or_default(options->baselines));
      ReleaseBaseline old_baseline = obtain_baseline(options->old_spec, common.store_root, history);
      ReleaseBaseline new_baseline = obtain_baseline(options->new_spec, common.store_root, history);
      HistoryFacts facts = history_facts(history, new_baseline.inventory.release);
      auto start = std::chrono::steady_clock::now();
      AbiDiff diff = diff_baselines(old_baseline, new_baseline, suppressions ? &*suppressions : nullptr,
                                    options->old_spec, options->new_spec, facts);
      double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

      nlohmann::json document = new_report_document(
          "diff",
          fmt::format("torch {} -> {}: stable ABI diff", diff.old_release.to_string(), diff.new_release.to_string()),
          judge_diff(diff));
      document["diffs"] = nlohmann::json::array({diff_section(diff)});
      std::string text = render_diff_text(diff, options->show_compatible);
      if (options->bench)
        text += fmt::format("bench: diff {} -> {} took {:.3f} s\n", options->old_spec, options->new_spec, seconds);
      return finish_command(document, options->outputs, text);
    };
  });
}

}  // namespace abicheck
