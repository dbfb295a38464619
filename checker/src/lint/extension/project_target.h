#pragma once

#include <optional>
#include <vector>

#include "core/torch_version.h"
#include "lint/extension/extension_facts.h"
#include "lint/extension/extension_sources.h"

namespace abicheck {

// A project's TORCH_TARGET_VERSION, decided one way for the lint (E006) and for `check`: the oldest
// target its build files and sources write down is what it promises; when they write none, the
// oldest its compile commands pass. Compile commands speak only then: a compilation database may
// build several libraries at different targets on purpose (the reference kernels do).
struct ProjectTarget {
  TorchVersion version;         // a minor release
  TargetDefinition definition;  // the definition that says it
};

// A definition's value as a release: what it evaluates to or its integer literal
// (0x020A000000000000ULL), else a version written as text ("2.10"); nullopt for anything else.
std::optional<TorchVersion> target_version(const TargetDefinition& definition);

// In a build file or a source's #define, rather than only on a compile command.
bool is_written_down(const TargetDefinition& definition);

// The target among `definitions` (see above); nullopt when none of them has a value.
std::optional<ProjectTarget> project_target(const std::vector<TargetDefinition>& definitions);

// Every definition the lint saw: each unit's (compile command, then #defines), then the build files'.
std::vector<TargetDefinition> target_definitions(const ExtensionFacts& facts);

// The same before any parse, for a caller that needs the target to set the lint up (`check`): the
// build files', the compile commands' and the #defines of the sources themselves, read lexically.
std::vector<TargetDefinition> target_definitions(const ExtensionSources& sources);

}  // namespace abicheck
