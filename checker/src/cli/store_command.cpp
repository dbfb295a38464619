#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/command.h"
#include "core/atomic_file.h"
#include "core/process.h"
#include "store/release_store.h"
#include "store/store_script.h"

namespace abicheck {
namespace {

std::string gigabytes(std::uint64_t bytes) { return fmt::format("{:.2f} GB", static_cast<double>(bytes) / 1e9); }

nlohmann::json device_runtime_json(const DeviceRuntime& runtime) {
  nlohmann::json libraries = nlohmann::json::array();
  for (const auto& library : runtime.libraries) {
    libraries.push_back({{"soname", library.soname},
                         {"family", library.family},
                         {"major", library.major ? nlohmann::json(*library.major) : nlohmann::json(nullptr)}});
  }
  const auto& toolkit = runtime.toolkit;
  return {{"toolkit", toolkit ? nlohmann::json(to_string(toolkit->toolkit)) : nlohmann::json(nullptr)},
          {"major", toolkit ? nlohmann::json(toolkit->major) : nlohmann::json(nullptr)},
          {"minor", toolkit && toolkit->minor ? nlohmann::json(*toolkit->minor) : nlohmann::json(nullptr)},
          {"libraries", libraries}};
}

nlohmann::json release_json(const StoredRelease& release) {
  return {
      {"version", release.version.to_full_string()},
      {"python", release.python.string()},
      {"torch_dir", release.torch_dir.string()},
      {"include_dir", release.include_dir.string()},
      {"lib_dir", release.lib_dir.string()},
      {"cuda_major", release.cuda_major ? nlohmann::json(*release.cuda_major) : nlohmann::json(nullptr)},
      {"cuda_version", release.cuda_version},
      {"device_runtime", device_runtime_json(release.device)},
      {"disk_bytes", release.disk_bytes},
      {"install_seconds", release.install_seconds},
  };
}

// `store list --json` is a document of its own (docs/schemas/store-list.schema.json), not a report.
constexpr int kStoreListSchemaVersion = 2;

ExitCode list_releases(const ReleaseStore& store, const std::optional<std::string>& json_path) {
  auto releases = store.releases();
  if (json_path) {
    nlohmann::json releases_json = nlohmann::json::array();
    for (const auto& release : releases) releases_json.push_back(release_json(release));
    nlohmann::json document = {{"schema_version", kStoreListSchemaVersion},
                               {"store", store.root().string()},
                               {"shared_disk_bytes", store.shared_disk_bytes()},
                               {"releases", releases_json}};
    write_file_atomically(json_path->empty() ? "-" : *json_path, document.dump(2) + "\n");
    return ExitCode::Clean;
  }
  fmt::print("store: {}\n", store.root().string());
  if (releases.empty()) {
    fmt::print("no torch release installed (run: torch-abi-check store install)\n");
    return ExitCode::Clean;
  }
  std::uint64_t total = store.shared_disk_bytes();
  for (const auto& release : releases) {
    fmt::print("{:<8} {:<10} {:>8}   installed in {:.0f} s\n", release.version.to_full_string(),
               release.device.describe(), gigabytes(release.disk_bytes), release.install_seconds);
    fmt::print("  python   {}\n  include  {}\n  lib      {}\n", release.python.string(), release.include_dir.string(),
               release.lib_dir.string());
    // One soname per library and major: cuDNN's nine parts read as libcudnn.so.9 (JSON lists them all).
    std::vector<std::string> sonames;
    std::set<std::pair<std::string, std::optional<int>>> shown;
    for (const auto& library : release.device.libraries) {
      if (shown.emplace(library.family, library.major).second) sonames.push_back(library.soname);
    }
    if (!sonames.empty()) fmt::print("  device   {}\n", fmt::join(sonames, " "));
    total += release.disk_bytes;
  }
  fmt::print("shared CUDA libraries: {}; store total: {}\n", gigabytes(store.shared_disk_bytes()), gigabytes(total));
  return ExitCode::Clean;
}

// The script's exit code is ours.
ExitCode store_script_exit_code(const ReleaseStore& store, const std::vector<std::string>& arguments) {
  ProcessResult result = run_store_script(store, arguments);
  if (!result.exit_code) throw ToolError(fmt::format("the store script ended by {}", result.describe()));
  return *result.exit_code == 0 ? ExitCode::Clean : ExitCode::ToolError;
}

}  // namespace

void add_store_command(CLI::App& app, const CommonOptions& common, CommandAction& action) {
  struct Options {
    std::vector<std::string> install_versions;
    std::optional<std::string> install_from;
    std::optional<std::string> index_url;
    std::vector<std::string> find_links;
    bool dry_run = false;
    std::optional<std::string> list_json;
    std::string version;  // for path and remove
    std::string python;   // for adopt
  };
  auto options = std::make_shared<Options>();
  auto* store = app.add_subcommand("store", "install, list and locate real torch releases from PyPI");
  store->require_subcommand(1);

  auto* install = store->add_subcommand(
      "install", "install torch releases (default: the newest patch of every minor release from 2.9 on)");
  as_operand(install->add_option("versions", options->install_versions, "versions such as 2.10 or 2.10.0"),
             Operand::Version);
  as_operand(install->add_option("--from", options->install_from,
                                 "the newest patch of every minor release from VERSION to the newest (a project's "
                                 "target)"),
             Operand::Version)
      ->excludes(install->get_option("versions"));
  install->add_option("--index-url", options->index_url,
                      "take torch's wheels from this package index (pip's --index-url; file:// works)");
  install->add_option("--find-links", options->find_links,
                      "take torch's wheels from this directory or page of wheels (pip's --find-links; repeatable)");
  install->add_flag("--dry-run", options->dry_run, "print the exact releases it would install, one a line");
  install->callback([&action, &common, options] {
    action = [&common, options] {
      std::vector<std::string> arguments = {"install"};
      if (options->dry_run) arguments.emplace_back("--dry-run");
      if (options->install_from) {
        TorchVersion::parse(*options->install_from);  // a malformed version is bad input before any download
        arguments.insert(arguments.end(), {"--from", *options->install_from});
      }
      if (options->index_url) arguments.insert(arguments.end(), {"--index-url", *options->index_url});
      for (const auto& location : options->find_links) arguments.insert(arguments.end(), {"--find-links", location});
      arguments.insert(arguments.end(), options->install_versions.begin(), options->install_versions.end());
      return store_script_exit_code(open_store(common), arguments);
    };
  });

  auto* list = store->add_subcommand("list", "show the installed releases");
  as_operand(list->add_option("--json", options->list_json, "write JSON to OUT (no OUT or -: standard output)"),
             Operand::Output)
      ->expected(0, 1);
  list->callback([&action, &common, options] {
    action = [&common, options] { return list_releases(open_store(common), options->list_json); };
  });

  auto* path = store->add_subcommand("path", "print the root of one installed release");
  as_operand(path->add_option("version", options->version, "2.10 (newest installed 2.10.x), 2.10.1 or newest"),
             Operand::Release)
      ->required();
  path->callback([&action, &common, options] {
    action = [&common, options] {
      // The root of a release the store holds; a torch directory is where it is already.
      if (std::filesystem::exists(options->version)) {
        throw ToolError(
            fmt::format("{}: a directory, not an installed release (2.10, 2.10.1, newest)", options->version));
      }
      std::cout << open_store(common).resolve(options->version).root.string() << "\n";
      return ExitCode::Clean;
    };
  });

  auto* adopt = store->add_subcommand(
      "adopt", "record the torch that an existing Python imports (a GPU machine's own) as a release, where it is");
  as_operand(adopt->add_option("python", options->python, "that environment's python"), Operand::File)->required();
  adopt->callback([&action, &common, options] {
    action = [&common, options] {
      return store_script_exit_code(open_store(common), {"adopt", std::filesystem::absolute(options->python).string()});
    };
  });

  auto* remove = store->add_subcommand("remove", "remove an installed release");
  as_operand(remove->add_option("version", options->version, "2.10 (newest installed 2.10.x) or 2.10.1"),
             Operand::Version)
      ->required();
  remove->callback([&action, &common, options] {
    action = [&common, options] {
      TorchVersion::parse(options->version);
      return store_script_exit_code(open_store(common), {"remove", options->version});
    };
  });
}

}  // namespace abicheck
