#include "diff/behaviour_compare.h"

#include <fmt/format.h>

#include <algorithm>

namespace abicheck {
namespace {

std::string conversion_name(const ConversionBehaviour& conversion) {
  return fmt::format("from({} {})", conversion.type, conversion.value);
}

bool converted(const ConversionBehaviour* conversion) { return conversion && conversion->from != kRefused; }

// "from: 0x... -> 0x...; to: a -> b": what differs, in the words of the behaviour file.
std::string difference(const ConversionBehaviour& before, const ConversionBehaviour& after) {
  std::vector<std::string> parts;
  if (!same_encoding(before.from, after.from)) parts.push_back(fmt::format("from: {} -> {}", before.from, after.from));
  if (before.to != after.to) {
    parts.push_back(fmt::format("to: {} -> {}", before.to.empty() ? "(not decoded)" : before.to,
                                after.to.empty() ? "(not decoded)" : after.to));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace

std::vector<AbiChange> compare_behaviour(const BehaviourBaseline& old_behaviour,
                                         const BehaviourBaseline& new_behaviour) {
  std::vector<AbiChange> changes;
  for (const auto& before : old_behaviour.conversions) {
    const ConversionBehaviour* after = new_behaviour.find(before.type, before.value);
    if (!converted(&before)) continue;
    if (!converted(after)) {
      changes.push_back({conversion_name(before), ChangeKind::ConversionRemoved,
                         after ? fmt::format("from refuses it now (was {})", before.from)
                               : fmt::format("not converted by the new headers (was {})", before.from)});
      continue;
    }
    // A direction the new headers no longer decode is a removal of that direction; one they newly
    // decode is an addition; bits or values that differ are a change.
    if (!same_encoding(before.from, after->from) ||
        (!before.to.empty() && !after->to.empty() && before.to != after->to)) {
      changes.push_back({conversion_name(before), ChangeKind::ConversionChanged, difference(before, *after)});
    } else if (!before.to.empty() && after->to.empty()) {
      changes.push_back({conversion_name(before), ChangeKind::ConversionRemoved,
                         fmt::format("to no longer decodes it (was {})", before.to)});
    } else if (before.to.empty() && !after->to.empty()) {
      changes.push_back({conversion_name(before), ChangeKind::ConversionAdded, fmt::format("to: {}", after->to)});
    }
  }
  for (const auto& after : new_behaviour.conversions) {
    if (!converted(&after) || converted(old_behaviour.find(after.type, after.value))) continue;
    changes.push_back({conversion_name(after), ChangeKind::ConversionAdded,
                       after.to.empty() ? fmt::format("from: {}", after.from)
                                        : fmt::format("from: {}; to: {}", after.from, after.to)});
  }
  for (const auto& symbol : new_behaviour.extension.exports) {
    if (std::ranges::binary_search(old_behaviour.extension.exports, symbol)) continue;
    changes.push_back({symbol, ChangeKind::WrapperExported,
                       fmt::format("exported by an extension built with the headers of {}, not by one built with {}",
                                   new_behaviour.release.to_string(), old_behaviour.release.to_string())});
  }
  return changes;
}

}  // namespace abicheck
