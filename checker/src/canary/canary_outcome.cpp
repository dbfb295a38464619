#include "canary/canary_outcome.h"

#include <array>
#include <utility>

namespace abicheck {
namespace {

constexpr std::array kNames = {
    std::pair{CanaryOutcome::Loaded, std::string_view("loaded")},
    std::pair{CanaryOutcome::LoadedNotExecuted, std::string_view("loaded-not-executed")},
    std::pair{CanaryOutcome::UndefinedSymbol, std::string_view("undefined-symbol")},
    std::pair{CanaryOutcome::MissingLibrary, std::string_view("missing-library")},
    std::pair{CanaryOutcome::Refused, std::string_view("refused")},
    std::pair{CanaryOutcome::OperatorMissing, std::string_view("operator-missing")},
    std::pair{CanaryOutcome::SmokeFailed, std::string_view("smoke-failed")},
    std::pair{CanaryOutcome::Crash, std::string_view("crash")},
    std::pair{CanaryOutcome::Timeout, std::string_view("timeout")},
    std::pair{CanaryOutcome::Environment, std::string_view("environment")},
    std::pair{CanaryOutcome::CouldNotInstall, std::string_view("could-not-install")},
};
static_assert(kNames.size() == static_cast<std::size_t>(kLastCanaryOutcome) + 1, "a name for every outcome");

}  // namespace

bool is_load(CanaryOutcome outcome) {
  return outcome == CanaryOutcome::Loaded || outcome == CanaryOutcome::LoadedNotExecuted;
}

bool is_observable(CanaryOutcome outcome) { return outcome != CanaryOutcome::Environment; }

std::string_view to_string(CanaryOutcome outcome) { return kNames[static_cast<std::size_t>(outcome)].second; }

std::optional<CanaryOutcome> canary_outcome_from_string(std::string_view text) {
  for (const auto& [outcome, name] : kNames) {
    if (name == text) return outcome;
  }
  return std::nullopt;
}

bool bears_out(CanaryOutcome predicted, CanaryOutcome observed) {
  return is_load(predicted) ? is_load(observed) : predicted == observed;
}

}  // namespace abicheck
