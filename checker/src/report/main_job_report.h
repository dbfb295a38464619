#pragma once

#include <nlohmann/json_fwd.hpp>

#include "job/main_job.h"

namespace abicheck {

// The main job's report document (report_document.h): its judgement as the verdict, and the matrix,
// every diff and the header lint (paths relative to the linted release's include dir).
nlohmann::json main_job_document(const MainJobResult& result);

}  // namespace abicheck
