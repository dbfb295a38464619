#include "audit/audit_judgement.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace abicheck {
namespace {

std::string release_list(const std::vector<TorchVersion>& releases) {
  std::vector<std::string> names;
  for (const auto& release : releases) names.push_back(release.to_string());
  return fmt::format("{}", fmt::join(names, ", "));
}

// What each kind of the audit's findings means, and what to do; the verdicts are to_string(AuditVerdict).
constexpr KindRow kAuditKinds[] = {
    {"unstable",
     "The binary imports libtorch's C++ ABI (or a shim no release has): it loads only where a release "
     "exports every symbol it imports, and the C++ ABI promises nothing across releases.",
     "Port the listed imports to the stable C shim and torch/csrc/stable, or allowlist them with a reason."},
    {"needs-newer-torch", "The binary uses stable shims newer than the torch it declares it runs on.",
     "Raise the declared target (TORCH_TARGET_VERSION, torch>= pin) to its min torch, or "
     "stop using the newer shims."},
    {"device-library-mismatch",
     "A device library the binary needs is not the one a claimed release ships: it does "
     "not load there.",
     "Build against the device runtime of those releases, or narrow the claimed releases."},
    {"device-runtime-mismatch",
     "The binary's device toolkit differs from the stored build of a release; a build of "
     "that release for its toolkit may exist.",
     "Check the release's build for the binary's toolkit, or build for the toolkit torch "
     "ships by default."},
    {"device-toolkit-minor",
     "Another minor version of the same device toolkit: the loader accepts it, a "
     "package's own version check may not.",
     "Nothing for the loader; check that the package's import does not compare minors."},
    {"undefined-symbol",
     "The binary imports a symbol that no library its load reaches defines (torch's, the libraries it and "
     "torch NEED, the system's): the loader refuses it on those releases, whatever its verdict.",
     "Link the library that defines the symbol (add it to the binary's NEEDED), or stop using the symbol."},
    {"platform-tag-unmet",
     "The wheel's manylinux or musllinux tag names systems an object of it does not load on: it needs a symbol "
     "version their C or C++ runtime does not define, a library they need not have, or a symbol their library lacks "
     "(auditwheel's policies).",
     "Build on the oldest system the tag names (the manylinux image of the tag), ship the library in the wheel "
     "(auditwheel repair), or tag the wheel for the systems it fits."},
    {"dispatcher-operator",
     "An operator the binary calls through the dispatcher is missing or has another schema "
     "on a release it claims.",
     "Raise the target past the break, or call an overload every claimed release has."},
    {"pt2-not-fully-read",
     "An AOTInductor package could not be read whole (format version, a model without its object): what it could "
     "not read is not vouched for.",
     "Check how the package was made (the finding names the part); repackage it with a supported torch."},
    {"not-audited", "An input could not be read completely, so what it imports is unknown.",
     "Check the file (the finding names the problem); the rest was audited."},
};
// Where an unstable object's libtorch C++ imports are all exported, so it loads although it is not on
// the stable ABI: "; every libtorch C++ symbol it imports (88) is exported by torch 2.14.0, 2.15.0".
std::string exported_everywhere_note(const ObjectAudit& object) {
  std::vector<std::string> releases;
  std::size_t imports = 0;
  for (const auto& load : object.loads) {
    if (!load.claimed || !load.torch_cxx_all_exported()) continue;
    releases.push_back(load.release.to_full_string());
    imports = load.torch_cxx_imports;
  }
  if (releases.empty()) return "";
  return fmt::format(
      "; every libtorch C++ symbol it imports ({}) is exported by torch {} in the store, so the loader binds it "
      "there, though the C++ ABI promises nothing across releases",
      imports, fmt::join(releases, ", "));
}

}  // namespace

std::string platform_misfit_message(const PlatformTagMisfit& misfit) {
  std::vector<std::string> parts;
  if (!misfit.versions.empty()) {
    parts.push_back(fmt::format("needs {}, which they do not define", fmt::join(misfit.versions, ", ")));
  }
  if (!misfit.libraries.empty()) {
    parts.push_back(fmt::format("needs {}, which they need not have and the wheel does not ship",
                                fmt::join(misfit.libraries, ", ")));
  }
  if (!misfit.missing_symbols.empty()) {
    parts.push_back(
        fmt::format("imports {}, which some of their libraries lack", fmt::join(misfit.missing_symbols, ", ")));
  }
  std::string fits = misfit.fits.empty() ? "" : fmt::format(" (its symbol versions fit {})", misfit.fits);
  return fmt::format("tagged {}, but on the systems that tag names it does not load: {}{}", misfit.tag,
                     fmt::join(parts, "; "), fits);
}

std::vector<Finding> release_load_findings(const ObjectAudit& object, const std::string& where) {
  // One finding per distinct reason, naming every release it holds for, in the order first seen.
  std::vector<std::pair<const DeviceMisfit*, std::vector<TorchVersion>>> grouped;
  for (const auto& load : object.loads) {
    if (!load.claimed) continue;
    for (const auto& misfit : load.device_misfits) {
      auto same = std::ranges::find_if(grouped, [&](const auto& group) {
        return group.first->need == misfit.need && group.first->has == misfit.has &&
               group.first->blocks_load == misfit.blocks_load;
      });
      if (same == grouped.end()) grouped.push_back({&misfit, {load.release}});
      else same->second.push_back(load.release);
    }
  }
  std::vector<Finding> findings;
  // A symbol nothing defines stops the loader whatever the verdict says of torch's symbols, so it is a
  // finding of its own, one per set of symbols with the releases it holds for.
  std::vector<std::pair<const ReleaseLoad*, std::vector<TorchVersion>>> undefined;
  for (const auto& load : object.loads) {
    if (!load.claimed || load.undefined_symbols.empty()) continue;
    auto same = std::ranges::find_if(
        undefined, [&](const auto& group) { return group.first->undefined_symbols == load.undefined_symbols; });
    if (same == undefined.end()) undefined.push_back({&load, {load.release}});
    else same->second.push_back(load.release);
  }
  for (const auto& [load, releases] : undefined) {
    auto misfit = std::ranges::find_if(load->torch_misfits,
                                       [](const std::string& text) { return text.starts_with("undefined symbol"); });
    findings.push_back({.stage = "audit",
                        .kind = "undefined-symbol",
                        .where = where,
                        .message = fmt::format("does not load into torch {}: {}", release_list(releases), *misfit),
                        .consequence = Consequence::DoesNotLoad});
  }
  for (const auto& [misfit, releases] : grouped) {
    std::string torch = fmt::format("torch {}", release_list(releases));
    std::string ships =
        fmt::format("{} in the store {} {}", torch, releases.size() == 1 ? "ships" : "ship", misfit->has);
    Finding finding{.stage = "audit", .where = where};
    if (!misfit->blocks_load) {
      finding.kind = "device-toolkit-minor";
      finding.severity = FindingSeverity::Warning;
      finding.message = fmt::format(
          "{}; {}: the loader accepts another minor of one major, but a package that checks its build's version "
          "at import may refuse it",
          misfit->need, ships);
    } else if (misfit->other_build_may_fit) {
      finding.kind = "device-runtime-mismatch";
      finding.severity = FindingSeverity::Warning;
      finding.message = fmt::format(
          "{}; {}: it does not load into {}; a build of {} for its toolkit may exist on another index (torch "
          "publishes one per supported CUDA and ROCm)",
          misfit->need, ships, releases.size() == 1 ? "that build" : "those builds", torch);
    } else {
      finding.kind = "device-library-mismatch";
      finding.message = fmt::format("{}; {}: it does not load", misfit->need, ships);
      finding.consequence = Consequence::DoesNotLoad;
    }
    findings.push_back(std::move(finding));
  }
  return findings;
}

std::vector<Finding> operator_findings(const ObjectAudit& object, const std::string& where,
                                       std::optional<TorchVersion> only_release) {
  std::vector<Finding> findings;
  for (const auto& use : object.operators) {
    for (const auto& broken : use.breaks) {
      if (only_release && broken.release != *only_release) continue;
      findings.push_back(
          {.stage = "audit",
           .kind = "dispatcher-operator",
           .where = where,
           .message = fmt::format("calls operator '{}' through the dispatcher, which breaks on torch {}: {}", use.name,
                                  broken.release.to_string(), broken.problem),
           .consequence = Consequence::FailsAtCallTime});
    }
  }
  return findings;
}

std::string release_load_summary(const ObjectAudit& object) {
  if (object.loads.empty()) return "";
  std::vector<TorchVersion> loads;
  std::vector<TorchVersion> device_blocks;
  std::vector<TorchVersion> symbols_block;
  std::vector<TorchVersion> undefined_block;
  for (const auto& load : object.loads) {
    if (!load.claimed) continue;
    if (load.loads()) loads.push_back(load.release);
    else if (!load.undefined_symbols.empty()) undefined_block.push_back(load.release);
    else if (!load.torch_symbols_fit()) symbols_block.push_back(load.release);
    else device_blocks.push_back(load.release);
  }
  std::vector<std::string> parts;
  parts.push_back(loads.empty() ? "loads into no stored release it claims"
                                : fmt::format("loads into torch {}", release_list(loads)));
  if (!device_blocks.empty()) {
    parts.push_back(fmt::format("not into {} (device runtime)", release_list(device_blocks)));
  }
  if (!symbols_block.empty()) parts.push_back(fmt::format("not into {} (torch symbols)", release_list(symbols_block)));
  if (!undefined_block.empty()) {
    parts.push_back(fmt::format("not into {} (undefined symbols)", release_list(undefined_block)));
  }
  return fmt::format("{}: {}", object.path, fmt::join(parts, "; "));
}

std::optional<KindText> audit_kind_text(std::string_view kind) { return find_kind_text(kAuditKinds, kind); }

Judgement judge_audit(const AuditReport& report) {
  Judgement judgement;
  for (const auto& object : report.binaries) {
    if (object.verdict != AuditVerdict::Stable) {
      judgement.findings.push_back(
          {.stage = "audit",
           .kind = std::string(to_string(object.verdict)),
           .where = object.path,
           .message = fmt::format("{}{}", fmt::join(object.reasons, "; "), exported_everywhere_note(object))});
    }
    for (auto& finding : release_load_findings(object, object.path)) judgement.findings.push_back(std::move(finding));
    for (auto& finding : operator_findings(object, object.path)) judgement.findings.push_back(std::move(finding));
  }
  for (const auto& wheel : report.wheels) {
    for (const auto& misfit : wheel.platform_misfits) {
      judgement.findings.push_back({.stage = "audit",
                                    .kind = "platform-tag-unmet",
                                    .where = misfit.object,
                                    .message = platform_misfit_message(misfit),
                                    .consequence = Consequence::DoesNotLoad});
    }
  }
  for (const auto& failure : report.failures) {
    judgement.findings.push_back(
        {.stage = "audit", .kind = "not-audited", .where = failure.path, .message = failure.problem});
  }
  for (const auto& problem : report.suppression_problems) {
    judgement.findings.push_back(suppression_finding(problem, "audit"));
  }
  // A package the audit cannot read whole is a finding with its cause: what it could not read is
  // what it cannot vouch for.
  for (const auto& package : report.pt2_packages) {
    for (const auto& problem : package.contents.problems) {
      judgement.findings.push_back(
          {.stage = "audit", .kind = "pt2-not-fully-read", .where = package.path, .message = problem});
    }
  }
  judgement.explain_kinds("audit", audit_kind_text);
  auto not_stable =
      std::ranges::count_if(report.binaries, [](const ObjectAudit& o) { return o.verdict != AuditVerdict::Stable; });
  judgement.lines.push_back(fmt::format(
      "audit: {} {}, {} not stable{}{}{}", report.binaries.size(), report.binaries.size() == 1 ? "binary" : "binaries",
      not_stable, report.failures.empty() ? "" : fmt::format(", {} not audited", report.failures.size()),
      report.pt2_packages.empty() ? ""
                                  : fmt::format(", {} .pt2 package{} read", report.pt2_packages.size(),
                                                report.pt2_packages.size() == 1 ? "" : "s"),
      report.suppression_problems.empty()
          ? ""
          : fmt::format(", {} allowlist {} to fix", report.suppression_problems.size(),
                        report.suppression_problems.size() == 1 ? "entry" : "entries")));
  for (const auto& object : report.binaries) {
    if (std::string summary = release_load_summary(object); !summary.empty()) judgement.lines.push_back(summary);
  }
  return judgement;
}

}  // namespace abicheck
