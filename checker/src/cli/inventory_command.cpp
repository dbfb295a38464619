#include <fmt/format.h>

#include <map>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "inventory/inventory_collector.h"
#include "store/release_store.h"

namespace abicheck {
namespace {

void print_inventory_summary(const ShimInventory& inventory) {
  std::map<std::pair<std::string, std::string>, int> counts;  // (kind, since) -> declarations
  for (const auto& declaration : inventory.declarations) {
    counts[{std::string(to_string(declaration.kind)), declaration.since.to_string()}]++;
  }
  fmt::print("torch {}: {} declarations of the stable surface\n", inventory.release.to_string(),
             inventory.declarations.size());
  fmt::print("{:<14} {:>6} {:>7}\n", "kind", "since", "count");
  for (const auto& [key, count] : counts) fmt::print("{:<14} {:>6} {:>7}\n", key.first, key.second, count);
  for (const auto& note : inventory.notes) fmt::print("note: {}\n", note);
}

}  // namespace

void add_inventory_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  struct Options {
    std::string torch;
    std::optional<std::string> json_path;
    unsigned jobs = 0;
  };
  auto options = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "inventory", "list every declaration of a torch release's stable surface, with the target that shows it");
  as_operand(command->add_option("--torch", options->torch,
                                 "a release (2.10), a torch package dir, or an include dir of headers"),
             Operand::Release)
      ->required();
  as_operand(
      command->add_option("--json", options->json_path, "write the inventory (shim_decls format) to OUT (-: stdout)"),
      Operand::Output);
  command->add_option("--jobs", options->jobs, "parallel libclang parses (default: cores, at most 4)");
  command->callback([&action, &common, options] {
    action = [&common, options] {
      ResolvedRelease release = ReleaseStore::open(common.store_root).resolve(options->torch);
      ShimInventory inventory = collect_inventory(release.include_dir, {.jobs = options->jobs});
      if (options->json_path) {
        write_file_atomically(*options->json_path, inventory_to_json(inventory));
      } else {
        print_inventory_summary(inventory);
      }
      return ExitCode::Clean;
    };
  });
}

}  // namespace abicheck
