#pragma once

#include <CLI/CLI.hpp>
#include <filesystem>
#include <functional>

#include "core/tool_error.h"

namespace abicheck {

// Options every subcommand shares.
struct CommonOptions {
  std::filesystem::path store_root;  // --store; empty means ReleaseStore::default_root()
};

// What the chosen subcommand does once the command line parsed; its result is the exit code.
using CommandAction = std::function<ExitCode()>;

// Each subcommand lives in its own file and adds itself to the app; the one that the command line
// names sets `action`.
void add_store_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_lint_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_audit_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_inventory_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_baseline_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_diff_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_timeline_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_matrix_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_report_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_release_gate_command(CLI::App& app, const CommonOptions& common, CommandAction& action);
void add_check_command(CLI::App& app, const CommonOptions& common, CommandAction& action);

}  // namespace abicheck
