#pragma once

#include <cstddef>
#include <functional>

namespace abicheck {

// Runs `work(i)` for i in [0, count) on up to `jobs` threads (the caller's among them); the first
// exception stops the rest from starting and is rethrown. For the matrix's builds and cells and the
// canary's releases: work that waits on child processes.
void parallel_for_each(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& work);

}  // namespace abicheck
