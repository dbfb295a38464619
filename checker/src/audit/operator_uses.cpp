#include "audit/operator_uses.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <set>

namespace abicheck {
namespace {

bool has_overload_part(std::string_view name) { return name.find('.', name.find("::")) != std::string_view::npos; }

// The overloads a string may call. A string naming its overload calls that one. A bare name calls
// the overload passed beside it, a string literal of its own: the default one (the empty string,
// present in every object) or one whose name is among the object's strings. When none of those is
// registered, any overload of the operator may be meant.
std::set<std::string> possible_overloads(const std::string& name, const std::vector<std::string>& identifiers,
                                         const OperatorHistory& history) {
  std::set<std::string> overloads, every;
  for (const auto& [release, schemas] : history) {
    if (has_overload_part(name)) {
      if (schemas.find(name)) overloads.insert(name);
      continue;
    }
    for (const OperatorSchema* schema : schemas.overloads_of(name)) {
      every.insert(schema->qualified_name());
      if (schema->overload.empty() || std::ranges::binary_search(identifiers, schema->overload)) {
        overloads.insert(schema->qualified_name());
      }
    }
  }
  return overloads.empty() ? every : overloads;
}

std::optional<TorchVersion> first_claimed_release(const OperatorHistory& history, TorchVersion from) {
  auto found = history.lower_bound(from);
  return found == history.end() ? std::nullopt : std::optional(found->first);
}

// The first release after `base` on which every overload the use may call (and `base` registers) fails.
std::optional<OperatorUse::Break> later_break(const OperatorUse& use, const OperatorHistory& history,
                                              TorchVersion base) {
  const OperatorSchemas& at_base = history.at(base);
  std::optional<OperatorUse::Break> latest;
  for (const auto& overload : use.overloads) {
    const OperatorSchema* called = at_base.find(overload);
    if (!called) continue;
    auto broken = first_operator_break(history, base, overload);
    if (!broken) return std::nullopt;  // this overload keeps working: the call may be fine
    if (latest && latest->release >= broken->release) continue;
    std::string problem =
        broken->schema ? fmt::format(
                             "there it is '{}', on torch {} (claimed too) '{}', and no schema adapter covers callers "
                             "built for the older one",
                             broken->schema->text, base.to_string(), called->text)
                       : fmt::format("{} is not registered there (on torch {} it is '{}')", overload, base.to_string(),
                                     called->text);
    latest = OperatorUse::Break{broken->release, std::move(problem)};
  }
  return latest;
}

}  // namespace

bool reaches_dispatcher_by_name(const BinaryImports& imports) {
  constexpr std::array kShims = {std::string_view("torch_call_dispatcher"),
                                 std::string_view("aoti_torch_call_dispatcher")};
  // c10::Dispatcher::findSchema(OperatorName const&), findSchemaOrThrow(char const*, char const*),
  // findOp(OperatorName const&), as Itanium mangles them.
  constexpr std::array kDispatcherLookups = {std::string_view("_ZN3c1010Dispatcher10findSchema"),
                                             std::string_view("_ZN3c1010Dispatcher17findSchemaOrThrow"),
                                             std::string_view("_ZN3c1010Dispatcher6findOp")};
  auto is_shim = [&](std::string_view name) { return std::ranges::find(kShims, name) != kShims.end(); };
  for (const auto& symbol : imports.undefined) {
    if (is_shim(symbol.name)) return true;
    if (std::ranges::any_of(kDispatcherLookups, [&](auto prefix) { return symbol.name.starts_with(prefix); })) {
      return true;
    }
  }
  return std::ranges::any_of(imports.symbol_like_strings, is_shim);
}

std::vector<OperatorUse> find_operator_uses(const BinaryImports& imports, const OperatorHistory& history) {
  std::vector<OperatorUse> uses;
  for (const auto& name : imports.operator_like_strings) {
    std::set<std::string> overloads = possible_overloads(name, imports.identifier_strings, history);
    if (overloads.empty()) continue;  // no release registers it: not an operator of torch's
    OperatorUse use{.name = name, .overloads = {overloads.begin(), overloads.end()}};
    for (const auto& overload : use.overloads) {
      auto since = first_registering_release(history, overload);
      if (since && (!use.introduced || *since < *use.introduced)) use.introduced = since;
    }
    uses.push_back(std::move(use));
  }
  return uses;
}

void judge_operator_uses(std::vector<OperatorUse>& uses, const OperatorHistory& history,
                         std::optional<TorchVersion> claimed_from) {
  for (auto& use : uses) {
    use.breaks.clear();
    if (!use.introduced) continue;
    TorchVersion from = claimed_from ? claimed_from->minor_release() : *use.introduced;
    if (auto first = first_claimed_release(history, from); first && *first < *use.introduced) {
      use.breaks.push_back({*first, fmt::format("not registered there (the oldest release that registers it is {})",
                                                use.introduced->to_string())});
    }
    auto base = first_claimed_release(history, std::max(from, *use.introduced));
    if (!base) continue;
    if (auto broken = later_break(use, history, *base)) use.breaks.push_back(std::move(*broken));
  }
}

}  // namespace abicheck
