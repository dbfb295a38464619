#pragma once

#include "aoti/aoti_run.h"
#include "core/finding.h"

namespace abicheck {

// The AOTInductor suite's verdict. Every package that fails under a release at or after the one that
// compiled it is an error, grouped by release and cause, with the workaround where the tool knows
// one; a package the audit cannot read whole is an error; a reference model a release cannot
// compile is a warning (the model's or the compiler's problem, not the ABI's); a load that the
// audit predicted to fail but that worked is a warning (the prediction should learn it).
Judgement judge_aoti(const AotiResult& result);

// "wide_ops (compiled by torch 2.12.1)", or a user's file name: how a package is named to people.
std::string aoti_package_label(const AotiPackage& package);

}  // namespace abicheck
