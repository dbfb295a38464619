#pragma once

#include <optional>
#include <string_view>

namespace abicheck {

// What happened, or was predicted to happen, when a published package met a torch release. Distinct
// on purpose: each asks its maintainer something else.
enum class CanaryOutcome {
  Loaded,             // imported, every library loaded, its operators registered, its smoke ran (if any)
  LoadedNotExecuted,  // the same, but its code needs a GPU and there is none: nothing of it ran
  UndefinedSymbol,    // a library of the package did not load: a symbol torch no longer (or not yet) has
  MissingLibrary,     // a library did not load: a torch or device runtime library it needs is absent
  Refused,            // the package's own Python refused the release (a version check, an exception at import)
  OperatorMissing,    // loaded, but operators it registered under the release it was built for are absent
  SmokeFailed,        // loaded, and its smoke snippet raised
  Crash,              // the cell's process died of a signal
  Timeout,            // the cell did not finish in time
  Environment,        // it needs what a user's machine brings, absent here (a GPU driver, a vendor runtime):
                      // says nothing of torch either way, so it is neither a break nor a pass
  CouldNotInstall,    // the package could not be got ready (not on the index, not a wheel, another platform)
};

inline constexpr CanaryOutcome kLastCanaryOutcome = CanaryOutcome::CouldNotInstall;

std::string_view to_string(CanaryOutcome outcome);  // "loaded", "undefined-symbol", …
std::optional<CanaryOutcome> canary_outcome_from_string(std::string_view text);

// Loaded or loaded-not-executed: the package got in, whether or not its code ran.
bool is_load(CanaryOutcome outcome);

// Whether an observation can be held against a prediction: not one that failed for the environment.
bool is_observable(CanaryOutcome outcome);

// Whether an observation bears the prediction out: a predicted load is borne out by either kind of
// load, every other prediction only by itself.
bool bears_out(CanaryOutcome predicted, CanaryOutcome observed);

}  // namespace abicheck
