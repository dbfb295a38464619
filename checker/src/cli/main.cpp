#include <fmt/format.h>

#include <iostream>

#include "cli/command.h"

using namespace abicheck;

int main(int argc, char** argv) {
  CLI::App app{"torch-abi-check: proves that extensions built on PyTorch's stable ABI keep working across releases",
               "torch-abi-check"};
  app.set_version_flag("--version", TORCH_ABI_CHECK_VERSION);
  app.require_subcommand(1);
  app.fallthrough();

  CommonOptions common;
  as_operand(
      app.add_option("--store", common.store_root,
                     "torch release store (default: $TORCH_ABI_CHECK_STORE, else $XDG_CACHE_HOME/torch-abi-check)"),
      Operand::WorkDirectory);

  CommandAction action;
  add_store_command(app, common, action);
  add_lint_command(app, common, action);
  add_audit_command(app, common, action);
  add_inventory_command(app, common, action);
  add_baseline_command(app, common, action);
  add_diff_command(app, common, action);
  add_timeline_command(app, common, action);
  add_matrix_command(app, common, action);
  add_canary_command(app, common, action);
  add_aoti_command(app, common, action);
  add_report_command(app, common, action);
  add_release_gate_command(app, common, action);
  add_check_command(app, common, action);
  add_ci_command(app, common, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForAllHelp& help) {
    return app.exit(help);
  } catch (const CLI::CallForVersion& version) {
    return app.exit(version);
  } catch (const CLI::ParseError& error) {
    std::cerr << "torch-abi-check: error: " << error.what() << " (see --help)\n";
    return static_cast<int>(ExitCode::ToolError);
  }

  try {
    return static_cast<int>(action());
  } catch (const ToolError& error) {
    // An empty one was said already, by a helper that shared the terminal (the store's script).
    if (*error.what() != '\0') std::cerr << "torch-abi-check: error: " << error.what() << "\n";
  } catch (const std::exception& error) {
    std::cerr << "torch-abi-check: internal error: " << error.what() << "\n";
  }
  return static_cast<int>(ExitCode::ToolError);
}
