// The code the fuzz targets exercise (the audit's readers and what they call), compiled as one unit by
// run_fuzzers.sh: one parse of the headers they share instead of twelve (79 -> 34 CPU-s with ASan and
// UBSan, bench/HISTORY.md). ci/check_unity_names.py checks this unit as it checks the build's, so that
// no file captures another's name.
#include "audit/binary_imports.cpp"
#include "audit/elf_reader.cpp"
#include "audit/elf_stream_reader.cpp"
#include "audit/entry_stream.cpp"
#include "audit/import_time_checks.cpp"
#include "audit/object_file_reader.cpp"
#include "audit/python_imports.cpp"
#include "audit/recorded_toolkit.cpp"
#include "audit/wheel_reader.cpp"
#include "baseline/symbol_digests.cpp"
#include "core/content_hash.cpp"
#include "core/device_library.cpp"
#include "core/torch_version.cpp"
#include "core/wheel_file_name.cpp"
