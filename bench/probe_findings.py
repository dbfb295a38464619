#!/usr/bin/env python3
"""Every finding on the real releases, probed (issue 43): is what it claims true?

Runs the tool on the store's real releases, `lint headers` of each release and `diff` of each pair of
consecutive releases (and the audit of generated extensions), reads each finding's claimed consequence
and builds the smallest extension that exercises it, against the real headers and libraries; then runs
it the way a user would, in a fresh process of the release the finding names (bench/probe_loader.py:
`import torch`, a forked child per probe that dlopens it and calls it). Each finding is labelled:

  confirmed       the consequence happens as stated (the compiler refuses, the loader names the symbol,
                  the call fails, the dispatcher has no such schema)
  refuted         it does not (the probe compiled, loaded, or the call worked)
  not-probeable   with the reason (a device shim for a backend no stored release is built for, an
                  argument of a type no probe builds)

Never asks the tool whether a finding is true: truth comes from g++, the dynamic loader and libtorch.

Consequences and their probes (each finding's message says which it is):
  "does not load on torch R: undefined symbol S"   build at the named target with the finding's headers a
      library that takes S's address; load it under R: confirmed when the loader names S.
  "fails at call time on torch R ..."              build at the target a library whose probe_run converts
      the enumerator through the wrapper the finding names; call it under R: confirmed when it fails.
  "does not compile" / "lose it"                   compile a use at the named target: confirmed when g++
      refuses it with an error that names the declaration.
  "is gone at every target" (H003): compile a use at its old guard with the old headers (the control), then
      with the new ones: confirmed when only the new ones refuse it.
  function-removed, export-removed: build with the old release's headers, load under the new one: confirmed
      when the loader names S.
  "first visible at target T before, at T' now" (guard-changed): compile a use at T with the new headers.
  guard-corrected (needs review, probed for the claim that makes it no break): a use at T built with the old
      headers does not load on torch T.
  operator-removed, overload-removed: ask the new release's dispatcher through the C shim
      torch_call_dispatcher, from a library built with the old release's headers: confirmed when libtorch
      answers that it has no such schema.
  audit min_torch and per-release loads: an extension built with each release's headers at target 2.10
      (torch's error path looks a newer shim up with dlsym), audited, then loaded and called under every
      release: min_torch is confirmed when it works exactly on the releases at and above it, each release's
      `loads` when the loader agrees.

usage: bench/probe_findings.py [--cli CLI] [--sample] [--json FILE] [--check] [--jobs N] [--keep DIR]
  --sample   the fixed sample CI runs: lint headers of the newest release, diff of the newest pair, the audit
             of one build; at most SAMPLE_PER_KIND findings of each kind and rule probed each way
  --check    exit 1 when a finding is refuted or the precision of the probed findings is under 98 %
"""
import argparse
import collections
import concurrent.futures
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CXX = os.environ.get("TORCH_ABI_CHECK_CXX", "g++")
SAMPLE_PER_KIND = 4
# Backends whose shims no stored release is built for: the store holds Linux CUDA wheels.
UNBUILT_BACKENDS = {"USE_MPS": "MPS (macOS) torch", "USE_XPU": "XPU torch", "USE_ROCM": "ROCm torch"}


def run(argv, **kwargs):
    return subprocess.run(argv, capture_output=True, text=True, **kwargs)


class Store:
    """The stored releases, by minor ("2.15" -> its `store list --json` entry)."""

    def __init__(self, cli, work):
        listing = work / "store.json"
        result = run([cli, "store", "list", "--json", str(listing)])
        if result.returncode != 0:
            print(f"probe_findings: {cli} store list: {result.stderr.strip()}", file=sys.stderr)
            sys.exit(2)
        self.releases = {}
        for release in json.load(open(listing))["releases"]:
            minor = ".".join(release["version"].split(".")[:2])
            self.releases[minor] = release

    def minors(self):
        return sorted(self.releases, key=lambda v: tuple(map(int, v.split("."))))

    def include(self, minor):
        return self.releases[minor]["include_dir"]

    def lib(self, minor):
        return self.releases[minor]["lib_dir"]


def abi_hex(minor):
    major, minor_number = map(int, minor.split("."))
    return f"0x{major:02X}{minor_number:02X}000000000000"


@functools.lru_cache(maxsize=None)
def inventory(minor):
    """The committed baseline's declarations of a release, by name: the owner of a declaration's kind,
    header and backend (the finding names the declaration; what it is comes from here)."""
    path = ROOT / "shim_decls" / minor / "inventory.json"
    declarations = {}
    if path.exists():
        for d in json.load(open(path))["declarations"]:
            declarations.setdefault(d["name"], d)
    return declarations


class Probe:
    """One finding and the extension that tests it."""

    def __init__(self, finding, label=None, reason=""):
        self.finding = finding  # {"source", "kind", "name", "message"}
        self.label = label
        self.reason = reason
        self.library = None
        self.load_under = None  # the release whose process loads it
        self.call = False
        self.expect_load_error = None  # a symbol the loader must name
        self.expect_call_error = None  # words the failed call's message (or libtorch's stderr) must hold
        self.compile = None  # (source, headers minor, target minor, defines, expect_failure)
        self.method = "none"  # how it is probed: load, call, compile, dispatcher (the sample takes each)
        self.control = None  # compile probes: the release whose headers compile the same use
        self.declaration_name = ""  # compile probes: the declaration whose own error confirms it
        self.expected_to_work = None  # audit-min-torch: whether the call should work under load_under
        self.expected_to_load = None  # audit-loads: whether the audit says it loads under load_under


def declaration_use(declaration):
    """A statement that makes an object depend on the declaration as an extension that uses it would; None
    for kinds no probe uses (a method needs an object and arguments)."""
    name = declaration["name"]
    return {
        "function": f'extern "C" {{ void* probe_use = reinterpret_cast<void*>(&{name}); }}\n',
        "enum_constant": f"auto probe_use = {name};\n",
        "struct": f"static_assert(sizeof({name}) > 0);\n",
        "typedef": f"static_assert(sizeof({name}) > 0);\n",
    }.get(declaration["kind"])


def includes_for(declaration):
    return f"#include <{declaration['header']}>\n"


def defines_for(declaration):
    return [f"-D{declaration['backend']}"] if declaration.get("backend") else []


def compile_library(work, tag, source, headers, target, defines, store, link=True):
    """Compiles `source` into work/tag.so against `headers`'s include directory at `target` (None: no
    TORCH_TARGET_VERSION). Returns (library path or None, the compiler's first error)."""
    src = work / f"{tag}.cpp"
    out = work / f"{tag}.so"
    src.write_text(source)
    include = store.include(headers)
    argv = [CXX, "-std=c++17", "-shared", "-fPIC", "-O0", "-w", "-I", include, "-I",
            f"{include}/torch/csrc/api/include", *defines]
    if target:
        argv.append(f"-DTORCH_TARGET_VERSION={abi_hex(target)}")
    argv += [str(src), "-o", str(out)]
    if link:
        # As torch's cpp_extension links an extension: the libraries that define the shims, so that the
        # loader looks the symbols up in the release's own (already loaded) libtorch.
        libs = ["-ltorch_cpu", "-lc10"] + (["-ltorch_cuda"] if "-DUSE_CUDA" in defines else [])
        argv += ["-L", store.lib(headers), "-Wl,--no-as-needed", *libs]
    result = run(argv)
    if result.returncode != 0:
        errors = [line for line in result.stderr.splitlines() if "error" in line]
        return None, (errors[0] if errors else result.stderr.strip()[:300])
    return out, ""


# ------------------------------------------------------------------------------------------------
# From a finding to its probe


LOAD = re.compile(r"an extension targeting (\d+\.\d+) that uses it compiles, and does not load on torch "
                  r"(\d+\.\d+): undefined symbol (\S+)")
CALL = re.compile(r"an extension targeting (\d+\.\d+) that uses it compiles, and fails at call time on torch "
                  r"(\d+\.\d+) when (.+) passes it on")
NEWER = re.compile(r"an extension targeting (\d+\.\d+) that uses it does not compile")
LOSE = re.compile(r"is guarded at (\d+\.\d+) but shipped in (\d+\.\d+): extensions that already target")
GONE = re.compile(r"'([^']+)'(?: \(\w+\))? of (\d+\.\d+) \(.*\) is gone at every target")
RENUMBERED = re.compile(r"changed its signature since (\d+\.\d+): '(-?\d+)' became '(-?\d+)'")
GUARD = re.compile(r"first visible at target (\d+\.\d+) before, at target (\d+\.\d+) now")
NAMED = re.compile(r"^'([^']+)'")


def plan_lint(finding, release, store):
    """The probe of one `lint headers` diagnostic of `release`'s headers."""
    message, rule = finding["message"], finding["kind"]
    named = NAMED.match(message)
    declaration = inventory(release).get(named.group(1)) if named else None
    probe = Probe(finding)
    if rule == "H005":
        probe.label, probe.reason = "not-probeable", "the use is inside a macro: expanding it needs the macro's arguments"
        return probe
    if declaration is None and rule != "H003":
        probe.label, probe.reason = "not-probeable", "the finding names no declaration of the release's baseline"
        return probe
    if (m := LOAD.search(message)):
        return load_probe(probe, declaration, headers=release, target=m.group(1), runtime=m.group(2), store=store)
    if (m := CALL.search(message)):
        return call_probe(probe, declaration, headers=release, target=m.group(1), runtime=m.group(2),
                          carrier=m.group(3), store=store)
    if (m := NEWER.search(message)):
        return compile_probe(probe, declaration, headers=release, target=m.group(1), store=store)
    if (m := LOSE.search(message)):
        return compile_probe(probe, declaration, headers=release, target=m.group(2), store=store)
    if (m := GONE.search(message)):
        # The claim is about the headers: a use that compiled against the old release's no longer compiles
        # against these (whether old binaries still load is the diff's export-removed).
        old = inventory(m.group(2)).get(m.group(1))
        if old is None:
            probe.label, probe.reason = "not-probeable", "the old release's baseline lacks it"
            return probe
        target = max(old["since"], "2.9", key=lambda v: tuple(map(int, v.split("."))))
        return compile_probe(probe, old, headers=release, target=target, store=store, control=m.group(2))
    if RENUMBERED.search(message):
        probe.label = "not-probeable"
        probe.reason = ("a renumbered enumerator: whether a value compiled in before misleads libtorch depends on "
                        "how the headers' inline code passes it on (issue 48's behaviour baseline)")
        return probe
    probe.label, probe.reason = "not-probeable", "no probe reads this message's consequence"
    return probe


def plan_diff(change, old, new, store):
    """The probe of one breaking change of `diff old new`."""
    probe = Probe({"source": f"diff {old} {new}", "kind": change["kind"], "name": change["name"],
                   "message": change["detail"]})
    kind, name = change["kind"], change["name"]
    if kind in ("function-removed", "export-removed"):
        declaration = inventory(old).get(name)
        return load_probe(probe, declaration, headers=old, target=None, runtime=new, store=store)
    if kind == "added-without-guard":
        declaration = inventory(new).get(name)
        target = re.search(r"visible at target (\d+\.\d+)", change["detail"]).group(1)
        return load_probe(probe, declaration, headers=new, target=target, runtime=target, store=store)
    if kind == "guard-changed":
        m = GUARD.search(change["detail"])
        declaration = inventory(new).get(name)
        if m and declaration:
            return compile_probe(probe, declaration, headers=new, target=m.group(1), store=store)
    if kind == "guard-corrected":
        # The claim that makes it no break: a use at the old guard, built with the old headers, never loaded on
        # the release of that target.
        m = GUARD.search(change["detail"])
        return load_probe(probe, inventory(old).get(name), headers=old, target=m.group(1), runtime=m.group(1),
                          store=store)
    if kind in ("operator-removed", "overload-removed"):
        return dispatcher_probe(probe, name, headers=old, runtime=new, store=store)
    probe.label = "not-probeable"
    probe.reason = {
        "argument-type-changed": "needs a value of the old argument's type built through the shim",
        "argument-added-with-default": "needs the old schema's whole stack of values built through the shim",
        "argument-added-without-default": "needs the old schema's whole stack of values built through the shim",
        "argument-removed": "needs the old schema's whole stack of values built through the shim",
        "return-changed": "needs the old schema's whole stack of values built through the shim",
    }.get(kind, "no probe for this kind yet")
    return probe


def missing_release(probe, *minors, store):
    for minor in minors:
        if minor and minor not in store.releases:
            probe.label, probe.reason = "not-probeable", f"torch {minor} is not in the store"
            return True
    return False


def unbuilt_backend(probe, declaration):
    backend = declaration.get("backend", "")
    if backend in UNBUILT_BACKENDS:
        probe.label = "not-probeable"
        probe.reason = f"a {backend} shim: no stored release is a {UNBUILT_BACKENDS[backend]} build"
        return True
    return False


def load_probe(probe, declaration, headers, target, runtime, store):
    if declaration is None:
        probe.label, probe.reason = "not-probeable", "the finding names no declaration of the baseline"
        return probe
    if missing_release(probe, headers, runtime, store=store) or unbuilt_backend(probe, declaration):
        return probe
    probe.compile = (includes_for(declaration) + declaration_use(declaration), headers, target,
                     defines_for(declaration), False)
    probe.load_under = runtime
    probe.expect_load_error = declaration["name"]
    probe.method = "load"
    return probe


def call_probe(probe, declaration, headers, target, runtime, carrier, store):
    if missing_release(probe, headers, runtime, store=store):
        return probe
    if "FromImpl::call" not in carrier:
        probe.label, probe.reason = "not-probeable", f"no probe calls the carrier {carrier}"
        return probe
    source = ("#include <torch/csrc/stable/stableivalue_conversions.h>\n#include <cstdio>\n#include <exception>\n"
              f'extern "C" int probe_run(char* message, size_t size) {{\n'
              f"  try {{ volatile auto value = torch::stable::detail::from({declaration['name']}); (void)value; return 0; }}\n"
              "  catch (const std::exception& e) { std::snprintf(message, size, \"%s\", e.what()); return 1; }\n}\n")
    probe.compile = (source, headers, target, defines_for(declaration), False)
    probe.load_under = runtime
    probe.call = True
    probe.method = "call"
    return probe


def compile_probe(probe, declaration, headers, target, store, control=None):
    """`control`: a release whose headers must compile the same use (the finding says it compiled there), so
    that any error with `headers` is the consequence; without one, the error must name the declaration."""
    if missing_release(probe, headers, control, store=store):
        return probe
    use = declaration_use(declaration)
    if use is None:
        probe.label, probe.reason = "not-probeable", f"no use of a {declaration['kind']} is generated"
        return probe
    probe.compile = (includes_for(declaration) + use, headers, target, defines_for(declaration), True)
    probe.declaration_name = declaration["name"]
    probe.control = control
    probe.method = "compile"
    return probe


def dispatcher_probe(probe, operator, headers, runtime, store):
    if missing_release(probe, headers, runtime, store=store):
        return probe
    name, _, overload = operator.partition(".")
    # The stack is never read: the dispatcher looks the schema up before it reads any argument, and libtorch
    # writes why a shim failed to stderr, which the loader keeps with the result.
    version = ", TORCH_ABI_VERSION" if headers != "2.9" else ""
    source = ("#include <torch/csrc/stable/c/shim.h>\n#include <dlfcn.h>\n#include <cstdio>\n"
              'extern "C" int probe_run(char* message, size_t size) {\n'
              "  StableIValue stack[64] = {};\n"
              f'  int failed = torch_call_dispatcher("{name}", "{overload}", stack{version}) != 0;\n'
              # From 2.13 libtorch keeps the failed shim's message instead of printing it.
              '  using What = const char* (*)();\n'
              '  auto what = reinterpret_cast<What>(dlsym(RTLD_DEFAULT, "torch_exception_get_what_without_backtrace"));\n'
              '  if (failed && what && what()) std::snprintf(message, size, "%s", what());\n'
              "  return failed;\n}\n")
    probe.compile = (source, headers, None, [], False)
    probe.load_under = runtime
    probe.call = True
    probe.expect_call_error = "Could not find schema"
    probe.method = "dispatcher"
    return probe


# ------------------------------------------------------------------------------------------------
# Running the probes


def build_all(probes, store, work, jobs):
    def build(index_probe):
        index, probe = index_probe
        source, headers, target, defines, expect_failure = probe.compile
        library, error = compile_library(work, f"p{index}", source, headers, target, defines, store,
                                         link=not expect_failure)
        if expect_failure and probe.control:
            _, control_error = compile_library(work, f"p{index}-control", source, probe.control, target, defines,
                                               store, link=False)
            if control_error:
                probe.label = "not-probeable"
                probe.reason = f"the use does not compile with {probe.control}'s headers either: {control_error}"
            elif library is None:
                probe.label, probe.reason = "confirmed", f"g++ at target {target}: {error}"
            else:
                probe.label, probe.reason = "refuted", f"compiles at target {target} with {headers}'s headers"
        elif expect_failure:
            # Confirmed only by an error about the declaration itself: a header that refuses the whole
            # configuration (ATen/Config.h under TORCH_TARGET_VERSION) shows nothing about it.
            short_name = probe.declaration_name.rsplit("::", 1)[-1]
            if library is None and short_name in error:
                probe.label, probe.reason = "confirmed", f"g++ at target {target}: {error}"
            elif library is None:
                probe.label = "not-probeable"
                probe.reason = f"the headers do not compile at target {target} whatever the use: {error}"
            else:
                probe.label, probe.reason = "refuted", f"compiles at target {target} with {headers}'s headers"
        elif library is None:
            # The probe's own claim starts with "compiles": a use that does not is a refuted claim.
            probe.label, probe.reason = "refuted", f"the use does not compile at target {target}: {error}"
        else:
            probe.library = str(library)

    todo = [(i, p) for i, p in enumerate(probes) if p.compile and not p.label]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        list(pool.map(build, todo))


def load_all(probes, store, work, jobs):
    by_release = collections.defaultdict(list)
    for index, probe in enumerate(probes):
        if probe.library and not probe.label:
            by_release[probe.load_under].append((index, probe))
    for release, entries in sorted(by_release.items()):
        listing = work / f"load-{release}.json"
        results = work / f"loaded-{release}.json"
        json.dump([{"id": str(i), "library": p.library, "call": p.call} for i, p in entries], open(listing, "w"))
        result = run([store.releases[release]["python"], str(ROOT / "bench" / "probe_loader.py"), str(listing),
                      str(results), str(jobs)], timeout=1800)
        if result.returncode != 0:
            print(f"probe_findings: the loader of torch {release} failed: {result.stderr.strip()[-500:]}",
                  file=sys.stderr)
            sys.exit(2)
        observed = json.load(open(results))
        for index, probe in entries:
            judge(probe, observed[str(index)], release)


def judge(probe, outcome, release):
    stage, error = outcome["stage"], outcome["error"]
    if probe.finding["kind"] == "audit-min-torch":
        worked = stage == "called"
        probe.label = "confirmed" if worked == probe.expected_to_work else "refuted"
        probe.reason = f"torch {release}: {stage} {error[:160]}".strip()
    elif probe.finding["kind"] == "audit-loads":
        loaded = stage in ("called", "call-failed", "loaded")
        probe.label = "confirmed" if loaded == probe.expected_to_load else "refuted"
        probe.reason = f"torch {release}: {stage} {error[:160]}".strip()
    elif probe.expect_load_error:
        if stage == "load-failed" and f"undefined symbol: {probe.expect_load_error}" in error:
            probe.label, probe.reason = "confirmed", f"torch {release}: {error.split(': ', 1)[-1]}"
        else:
            probe.label, probe.reason = "refuted", f"torch {release}: {stage} {error}".strip()
    elif probe.call:
        expected = probe.expect_call_error
        if stage == "call-failed" and (expected is None or expected in error):
            probe.label, probe.reason = "confirmed", f"torch {release}: the call failed: {error[:200]}"
        else:
            probe.label, probe.reason = "refuted", f"torch {release}: {stage} {error[:200]}".strip()


# ------------------------------------------------------------------------------------------------
# The audit's min_torch


AUDIT_SOURCE = (ROOT / "fixtures" / "audit" / "extensions" / "dlsym_newer_shim.cpp")


def plan_audit(cli, store, work, builds):
    """One probe per build release: the audit's min_torch against loading and calling under every release."""
    probes = []
    for headers in builds:
        if headers == "2.9":
            continue
        target = "2.10"
        source = (AUDIT_SOURCE.read_text().replace('#include "target_marker.h"\n', "")
                  + '\n#include <cstdio>\n#include <exception>\n'
                  'extern "C" int probe_run(char* message, size_t size) {\n'
                  "  try { STD_TORCH_CHECK(false, \"probe error path\"); }\n"
                  "  catch (const std::exception& e) { std::snprintf(message, size, \"%s\", e.what()); }\n"
                  "  return 0;\n}\n")
        library, error = compile_library(work, f"audit-{headers}", source, headers, target, [], store)
        finding = {"source": f"audit (built with {headers}, target {target})", "kind": "audit-min-torch",
                   "name": f"audit-{headers}", "message": ""}
        if library is None:
            probes.append(Probe(finding, "not-probeable", f"the extension does not build: {error}"))
            continue
        report = work / f"audit-{headers}.json"
        run([cli, "audit", str(library), "--target", target, "--json", str(report)])
        binaries = json.load(open(report))["audit"]["binaries"]
        min_torch = binaries[0].get("min_torch") if binaries else None
        finding["message"] = f"min torch {min_torch}: loads and runs on torch {min_torch} and later"
        predicted_loads = {".".join(r["release"].split(".")[:2]): r["loads"]
                           for r in (binaries[0].get("releases") or [] if binaries else [])}
        for runtime in store.minors():
            if runtime in predicted_loads:
                # The audit's per-release prediction: whether the loader accepts it there.
                loads = Probe(dict(finding, kind="audit-loads", name=f"{finding['name']} under {runtime}",
                                   message=f"loads on torch {runtime}: {predicted_loads[runtime]}"))
                loads.library, loads.load_under, loads.call = str(library), runtime, True
                loads.expected_to_load = predicted_loads[runtime]
                probes.append(loads)
            if runtime == "2.9":
                continue  # below the target it was built for: min_torch claims nothing there
            probe = Probe(dict(finding, name=f"{finding['name']} under {runtime}"))
            probe.library, probe.load_under, probe.call = str(library), runtime, True
            probe.expected_to_work = min_torch is not None and tuple(map(int, runtime.split("."))) >= tuple(
                map(int, min_torch.split(".")))
            probes.append(probe)
    return probes


# ------------------------------------------------------------------------------------------------


def collect(cli, store, work, sample):
    probes = []
    minors = [m for m in store.minors() if (ROOT / "shim_decls" / m).is_dir()]
    lint_releases = minors[-1:] if sample else minors[1:]
    for release in lint_releases:
        report = work / f"lint-{release}.json"
        run([cli, "lint", "headers", "--torch", release, "--json", str(report)])
        for d in json.load(open(report))["lint"]["diagnostics"]:
            probes.append(plan_lint({"source": f"lint headers {release}", "kind": d["rule"], "name": "",
                                     "message": d["message"]}, release, store))
    pairs = list(zip(minors, minors[1:]))
    for old, new in (pairs[-1:] if sample else pairs):
        report = work / f"diff-{old}-{new}.json"
        run([cli, "diff", old, new, "--json", str(report)])
        for diff in json.load(open(report))["diffs"]:
            for change in diff["changes"]:
                if (change["verdict"] == "breaking" or change["kind"] == "guard-corrected") and "suppressed" not in change:
                    probes.append(plan_diff(change, old, new, store))
    if sample:
        per_kind = collections.Counter()
        kept = []
        for probe in probes:
            key = (probe.finding["kind"], probe.method)
            if per_kind[key] < SAMPLE_PER_KIND:
                per_kind[key] += 1
                kept.append(probe)
        probes = kept
    return probes


def table(probes):
    rows = collections.defaultdict(collections.Counter)
    for probe in probes:
        rows[probe.finding["kind"]][probe.label] += 1
    lines = ["| kind or rule | findings | confirmed | refuted | not probeable | precision (probed) |",
             "|---|---:|---:|---:|---:|---:|"]
    total = collections.Counter()
    for kind in sorted(rows):
        c = rows[kind]
        total.update(c)
        lines.append(row(kind, c))
    lines.append(row("**all**", total))
    return "\n".join(lines), total


def row(kind, c):
    probed = c["confirmed"] + c["refuted"]
    precision = f"{100.0 * c['confirmed'] / probed:.1f} %" if probed else "-"
    return (f"| {kind} | {sum(c.values())} | {c['confirmed']} | {c['refuted']} | {c['not-probeable']} | "
            f"{precision} |")


def begin(doc, program):
    """The flags every benchmark over the real releases takes (--cli, --sample, --check, --json, --keep,
    --jobs), with the run's clocks (`started`, `cpu_started`), its work directory (`work`: --keep, else a
    temporary one) and the store (`store`); exits 2 when the CLI is not there."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--cli", default=str(ROOT / "build" / "checker" / "torch-abi-check"))
    parser.add_argument("--sample", action="store_true")
    parser.add_argument("--json")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--keep")
    arguments = parser.parse_args()
    if not os.access(arguments.cli, os.X_OK):
        print(f"{program}: {arguments.cli}: not an executable CLI", file=sys.stderr)
        sys.exit(2)
    arguments.started, arguments.cpu_started = time.monotonic(), os.times()
    arguments.work = Path(arguments.keep or tempfile.mkdtemp(prefix=f"torch-abi-check-{program}."))
    arguments.work.mkdir(parents=True, exist_ok=True)
    arguments.store = Store(arguments.cli, arguments.work)
    return arguments


def cpu_seconds_since(started):
    """This process's CPU time and its children's since `started` (an os.times())."""
    now = os.times()
    return (now.children_user + now.children_system + now.user + now.system) - (
        started.children_user + started.children_system + started.user + started.system)


def main():
    arguments = begin(__doc__, "probe_findings")
    started, cpu_started, work, store = arguments.started, arguments.cpu_started, arguments.work, arguments.store
    probes = collect(arguments.cli, store, work, arguments.sample)
    builds = store.minors()[-1:] if arguments.sample else store.minors()
    audit_probes = plan_audit(arguments.cli, store, work, builds)
    build_all(probes, store, work, arguments.jobs)
    everything = probes + audit_probes
    load_all(everything, store, work, arguments.jobs)
    text, total = table(everything)
    cpu_s = cpu_seconds_since(cpu_started)
    wall = time.monotonic() - started
    print(text)
    print(f"\n{len(everything)} findings probed in {wall:.0f} s wall, {cpu_s:.0f} CPU-s "
          f"({cpu_s / max(1, len(everything)):.2f} CPU-s a finding), {arguments.jobs} jobs")
    refuted = [p for p in everything if p.label == "refuted"]
    for probe in refuted:
        print(f"refuted: [{probe.finding['kind']}] {probe.finding['source']}: {probe.finding['message'][:200]}"
              f" -- probe: {probe.reason[:300]}")
    if arguments.json:
        json.dump([{**p.finding, "label": p.label, "reason": p.reason} for p in everything],
                  open(arguments.json, "w"), indent=1, sort_keys=True)
    if not arguments.keep:
        shutil.rmtree(work, ignore_errors=True)
    probed = total["confirmed"] + total["refuted"]
    if arguments.check and (refuted or (probed and total["confirmed"] / probed < 0.98)):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
