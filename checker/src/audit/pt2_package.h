#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "audit/wheel_reader.h"

namespace abicheck {

// The package format versions (the archive's `archive_version`) the loaders of the releases this
// tool knows read: torch 2.9 to 2.15 write and read "0".
inline constexpr std::string_view kKnownPt2ArchiveVersion = "0";

// One compiled model of an AOTInductor package: the folder data/aotinductor/<name>/.
struct Pt2Model {
  std::string name;
  // What its metadata (<hash>.wrapper_metadata.json) records of where it was compiled for; "" where
  // nothing is recorded. The CPU ISA matters: the code is compiled for the compiling machine's CPU
  // (-march=native), so a package made on an AVX-512 machine needs one to run.
  std::string device;                // AOTI_DEVICE_KEY: "cpu", "cuda"
  std::string platform;              // AOTI_PLATFORM: "linux"
  std::string machine;               // AOTI_MACHINE: "x86_64"
  std::string cpu_isa;               // AOTI_CPU_ISA: "AVX512 AVX512_VNNI"
  std::string compute_capability;    // AOTI_COMPUTE_CAPABILITY: "90" for a CUDA package
  std::vector<std::string> objects;  // entries of its compiled shared objects (wrapper and kernels)
  std::vector<std::string> sources;  // entries of its generated C++ (kept in the package beside the objects)
};

// What a .pt2 package (torch.export and torch._inductor.aoti_compile_and_package) records of itself,
// read from the archive alone: nothing of it is run.
struct Pt2Contents {
  std::string root;                            // the folder every entry is under ("model/"); "" when none
  std::optional<std::string> archive_format;   // "pt2"
  std::optional<std::string> archive_version;  // "0"
  // The torch serialization format of its records (.data/version). Torch 2.9 to 2.15 record no torch
  // version in the package: what it needs of torch is what its objects import.
  std::optional<std::string> serialization_version;
  std::vector<Pt2Model> models;  // by name
  // What keeps the tool from reading it fully, one line each: a format version no known loader
  // reads, a model with no compiled object, no model at all.
  std::vector<std::string> problems;
};

// Whether an archive's entries look like a .pt2 package: an `archive_format` file at the top of
// its root folder (a wheel has none). The entries are `WheelReader::file_names()`.
bool looks_like_pt2(const std::vector<std::string>& entries);

// Reads the package's own records and lists its models. Throws WheelReadError where the archive is.
Pt2Contents read_pt2_contents(WheelReader& reader);

// A package a command is about to load (aoti, check): read as the audit reads it, before any loader
// starts. Throws ToolError naming the file and the problem where there is nothing a loader could load: no
// such file, not a readable archive, or no AOTInductor model in it (an exported program without compiled
// code). A package it can read with problems of its own is returned; the audit reports those.
Pt2Contents require_loadable_pt2(const std::filesystem::path& file);

}  // namespace abicheck
