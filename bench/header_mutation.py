#!/usr/bin/env python3
"""Header mutation benchmark of the header checks (`diff` and `lint headers`), issue 28.

Takes the newest stored release's stable headers, generates mutants by applying mutation operators
to every declaration they fit, and for each mutant:

1. classifies it by COMPILING A PROBE against the original and the mutated headers (never by asking
   the tool): the probe is one generated source that includes every stable header of the original
   (each under `__has_include`) and then, one per line, a statement per declaration of the original
   (a C function's `decltype(&f)`, a method's `decltype(&C::m)`, a call of a C++ declaration that leaves
   its default arguments out, a constructor's implicit conversion, an enumerator's value, a struct's
   size and alignment, a member's offset and type, a typedef, a macro's presence and value, a
   header's presence). It is compiled `-fsyntax-only` at every configuration an extension can use
   (no target, TORCH_TARGET_VERSION 2.9 ... newest, with and without the backend defines); the lines the
   compiler rejects say which statements compile where. A second build of the statements that
   compile into a small program prints each one's fingerprint (the mangled type from typeid, sizes,
   offsets, values). Then:
     api-break   a statement that compiled against the original at some configuration does not
                 compile against the mutant there (or the headers gained a compile error);
     api-expose  a statement compiles at a target against the mutant where it did not against the
                 original (a guard lowered: an extension targeting an old release can now call
                 what the old library lacks);
     abi-break   a statement compiles against both but its fingerprint changed (a binary built
                 against one does not fit the other);
     behaviour   same-type parameters swapped together with their names: every compile-time fact
                 is the same, but a binary built against the original passes its arguments in the
                 other order (classified by the operator, as no probe can see it); or a value appended
                 to an enum that the headers convert for libtorch (a FromImpl<Enum> specialization): no
                 release's conversion knows it, so a call that passes it fails (the finding probes showed
                 this on the real releases: "Not yet supported ScalarType BComplex32"); or a case of
                 such a conversion deleted (conversion-case-deleted, the same consequence for a value that
                 had a case);
     neutral     nothing the probe can observe changed.
2. runs the tool: `baseline` of the mutated tree (with the newest release's `--lib-dir`, so that the
   baseline holds what the mutant's conversions do on the real libtorch: behaviour.json), `diff <newest
   committed baseline> <that baseline>`
   (or `diff` straight on the tree when `baseline` refuses it), and `lint headers` on the tree; a
   finding is new when the unmutated tree does not give it. Exit 2 from a tool counts as a miss
   ("error"): a tree that exists is judged with findings, not refused.

The score per operator goes to stdout as a Markdown table (bench/RESULTS.md keeps the latest measured
ones, bench/HISTORY.md every run).

Where the time goes, and what is cut: the probe of a mutant compiles only the stable headers that reach
the mutated header (its scope) and only their declarations' statements, the standard headers come from
one precompiled header, and the original's side of each scope is observed once; the tool (`baseline`,
`diff`, `lint headers`: libclang parses of the whole tree at every target) costs the same for any
mutant, so --batch plants several mutants of headers with disjoint scopes in one tree and runs the
probe and the tool once for them all (a finding belongs to the mutant whose scope holds the header it
is about). A stratified draw (--per-operator N) runs in N rounds, one mutant of every operator a round,
batched round by round, so that a run stopped by --time-limit has scored every operator about equally. A
batch of mutants of generated headers that no other header reaches is probed with all those headers, so
that the original's side of all such batches is observed once.

--scoped cuts the tool's cost further: the tool reads only the part of the tree a batch can change (the
stable headers of its scopes and what they include; see ScopedTool), and `diff` runs from two baselines,
the mutant's and that of the same cut of the original, built once per cut and reused.

usage: bench/header_mutation.py [--build BUILD] [--sample N | --per-operator N] [--seed S] [--batch N]
                                [--scoped] [--operators OP1,OP2] [--keep DIR] [--probe-only] [--list]
                                [--json FILE] [--time-limit S] [--rerun FILE]
  (no --sample or --per-operator: every mutant, the full run)
  --sample N   N mutants drawn with the seed, round robin over the operators
  --per-operator N  N mutants of each operator drawn with the seed (a stratified sample)
  --batch N    up to N mutants a tree (default 1)
  --scoped     run the tool on the tree cut to the batch's scopes, compared with the same cut of the original
  --probe-only classify only (no tool runs): how many mutants each operator makes, and their classes
  --list       print the mutants (operator, header, symbol) and stop
  --json FILE  every mutant's outcome (class, findings, the probe's and each tool step's seconds), after each batch
  --time-limit S  start no batch after S seconds
  --under PATH    only mutants of headers under PATH;  --batches N  only the first N batches of the draw
  --check         exit 1 when a breaking mutant is missed, a neutral one flagged or a tool exits 2 (a test)
  --rerun FILE    only the mutants FILE (a --json of an earlier run with the same draw) has as missed,
                  flagged while neutral or refused with exit 2
"""
import argparse
import collections
import concurrent.futures
import functools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CXX = shutil.which("clang++-14") or shutil.which("clang++") or "c++"
STABLE_TREES = ["torch/csrc/inductor/aoti_torch/c/", "torch/csrc/inductor/aoti_torch/generated/",
                "torch/csrc/stable/", "torch/headeronly/"]
# Headers that only compile on another platform (the vectorisation headers, device code, Windows).
PLATFORM_SPECIFIC = ["torch/headeronly/cpu/", "torch/headeronly/cuda/", "torch/headeronly/util/win32-headers.h"]
BACKENDS = ["-DUSE_CUDA", "-DUSE_MPS", "-DUSE_XPU"]
PLANTED = "TORCH_PLANTED_FEATURE"


# ----------------------------------------------------------------------------------------------
# Reading the headers (the generator's own reading: regular expressions over the text with the
# comments blanked, so that offsets in the blanked text are offsets in the real one).

def blank_comments(text):
    """The text with comments and string/char literals' contents replaced by spaces (newlines kept)."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and i + 1 < n and text[i + 1] == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            out[i:j] = " " * (j - i)
            i = j
        elif c == "/" and i + 1 < n and text[i + 1] == "*":
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out[i:j] = [ch if ch == "\n" else " " for ch in text[i:j]]
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out[i + 1:j] = " " * (j - i - 1)
            i = j + 1
        else:
            i += 1
    return "".join(out)


def matching(code, start, open_char, close_char):
    """Index of the bracket closing the one at `start`."""
    depth = 0
    for i in range(start, len(code)):
        if code[i] == open_char:
            depth += 1
        elif code[i] == close_char:
            depth -= 1
            if depth == 0:
                return i
    return -1


def split_top(text, separator=","):
    """`text` split at separators outside (), <>, [], {}: (start, end) spans."""
    spans, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "(<[{":
            depth += 1
        elif c in ")>]}":
            depth -= 1
        elif c == separator and depth == 0:
            spans.append((start, i))
            start = i + 1
    spans.append((start, len(text)))
    return spans


def line_start(text, offset):
    return text.rfind("\n", 0, offset) + 1


def line_end(text, offset):
    end = text.find("\n", offset)
    return len(text) if end < 0 else end + 1


IDENT = re.compile(r"[A-Za-z_]\w*")


class Param:
    """One parameter of a declaration: its span in the file, its type and name."""

    def __init__(self, start, end, text):
        self.start, self.end = start, end
        self.text = " ".join(text.split())
        match = re.match(r"^(.*?[\s\*&])(\w+)(\s*\[\s*\w*\s*\])?$", self.text)
        if match and match.group(1).strip() and match.group(1).strip() not in ("const", "struct", "unsigned"):
            self.type, self.name = match.group(1).strip(), match.group(2)
        else:
            self.type, self.name = self.text, ""

    def by_value(self):
        return "*" not in self.type and "&" not in self.type and "(" not in self.type and \
            not self.type.startswith("const ")


class Declaration:
    def __init__(self, kind, name, header, start, end, **extra):
        self.kind, self.name, self.header, self.start, self.end = kind, name, header, start, end
        self.__dict__.update(extra)


def namespaces_at(code):
    """For every offset's line, the enclosing namespaces: a list of (offset, 'a::b') changes."""
    events = []  # (offset, +1/-1, name)
    stack, depth_stack, depth = [], [], 0
    changes = [(0, "")]
    token = re.compile(r"namespace\s+([\w:]+)\s*\{|HIDDEN_NAMESPACE_BEGIN\(([^)]*)\)|HIDDEN_NAMESPACE_END\([^)]*\)"
                       r"|extern\s+\"[^\"]*\"\s*\{|[{}]")
    for match in token.finditer(code):
        text = match.group(0)
        if match.group(1):
            stack.append(match.group(1))
            depth_stack.append(depth)
            depth += 1
        elif match.group(2):
            stack.append("::".join(p.strip() for p in match.group(2).split(",")))
            depth_stack.append(None)
        elif text.startswith("HIDDEN_NAMESPACE_END"):
            if stack:
                stack.pop()
                depth_stack.pop()
        elif text.startswith("extern"):
            stack.append("")
            depth_stack.append(depth)
            depth += 1
        elif text == "{":
            depth += 1
            continue
        elif text == "}":
            depth -= 1
            if depth_stack and depth_stack[-1] == depth:
                stack.pop()
                depth_stack.pop()
            else:
                continue
        changes.append((match.end(), "::".join(s for s in stack if s)))
    return changes


def namespace_of(changes, offset):
    current = ""
    for at, name in changes:
        if at > offset:
            break
        current = name
    return current


def scan_header(header, text):
    """Every declaration the operators can mutate and the probe can check, in one header."""
    code = blank_comments(text)
    decls = []
    ns = namespaces_at(code)

    # C shim functions: AOTI_TORCH_EXPORT <result> name(params);
    for match in re.finditer(r"AOTI_TORCH_EXPORT\s+([\w\s\*]+?)\s*\b(\w+)\s*\(", code):
        open_paren = match.end() - 1
        close = matching(code, open_paren, "(", ")")
        if close < 0 or not re.match(r"\s*;", code[close + 1:]):
            continue
        inner = code[open_paren + 1:close]
        params = [] if inner.strip() in ("", "void") else [
            Param(open_paren + 1 + a, open_paren + 1 + b, code[open_paren + 1 + a:open_paren + 1 + b])
            for a, b in split_top(inner)]
        end = code.find(";", close) + 1
        decls.append(Declaration("function", match.group(2), header, line_start(code, match.start()),
                                 line_end(code, end - 1), params=params, name_at=match.start(2)))

    # object-like and function-like macros
    for match in re.finditer(r"(?m)^[ \t]*#[ \t]*define[ \t]+(\w+)(\()?[ \t]*(.*(?:\\\n.*)*)$", code):
        name, function_like, value = match.group(1), match.group(2), match.group(3).strip()
        if name.endswith("_H_") or name.endswith("_H") or not value:
            continue  # include guards and empty defines
        decls.append(Declaration("macro", name, header, match.start(), line_end(code, match.end()),
                                 value=value, function_like=bool(function_like), value_at=match.start(3),
                                 name_at=match.start(1)))

    # enums and their enumerators
    for match in re.finditer(r"\benum\s+(class\s+|struct\s+)?(\w+)\s*(:\s*[\w:\s]+?)?\s*\{", code):
        open_brace = match.end() - 1
        close = matching(code, open_brace, "{", "}")
        if close < 0:
            continue
        qualified = "::".join(filter(None, [namespace_of(ns, match.start()), match.group(2)]))
        scoped = bool(match.group(1))
        body = code[open_brace + 1:close]
        items = []
        for a, b in split_top(body):
            item = body[a:b]
            m = re.match(r"^\s*(\w+)\s*(?:=\s*(.+?))?\s*$", item, re.S)
            if m:
                items.append((open_brace + 1 + a, open_brace + 1 + b, m.group(1), m.group(2)))
        enum_scope = qualified if scoped else namespace_of(ns, match.start())
        for index, (a, b, name, value) in enumerate(items):
            decls.append(Declaration("enumerator", f"{qualified}::{name}", header, a, b, enum=qualified,
                                     qualified=(enum_scope + "::" if enum_scope else "::") + name,
                                     index=index, items=items, explicit=value, last=index == len(items) - 1))

    # structs and classes with data members (not templates)
    for match in re.finditer(r"\b(struct|class)\s+((?:alignas\(\s*\w+\s*\)|C10_ALIGNED\(\s*\w+\s*\))\s+)?(\w+)"
                             r"\s*(final\s*)?(:[^{;]*)?\{", code):
        before = code[max(0, match.start() - 200):match.start()]
        if re.search(r"template\s*<[^;{}]*>\s*$", before):
            continue
        open_brace = match.end() - 1
        close = matching(code, open_brace, "{", "}")
        if close < 0:
            continue
        qualified = "::".join(filter(None, [namespace_of(ns, match.start()), match.group(3)]))
        members, depth, i = [], 0, open_brace + 1
        body_lines = []
        for line_match in re.finditer(r"[^\n]*\n", code[open_brace + 1:close]):
            body_lines.append((open_brace + 1 + line_match.start(), line_match.group(0)))
        for at, line in body_lines:
            if depth == 0:
                m = re.match(r"^(\s*)((?:const\s+|mutable\s+)?[\w:<>, ]*?[\w>\*&]+[\s\*&]+)(\w+)\s*(\[[^\]]*\])?"
                             r"\s*(=[^;]*|\{[^;]*\})?;\s*$", line)
                if m and "(" not in line and not re.match(r"^\s*(return|using|typedef|friend|static|constexpr|"
                                                          r"public|private|protected)\b", line):
                    members.append(Declaration("member", f"{qualified}::{m.group(3)}", header, at, at + len(line),
                                               struct=qualified, member=m.group(3), type=m.group(2).strip(),
                                               type_at=at + m.start(2), type_end=at + m.end(2)))
            depth += line.count("{") - line.count("}")
        decls.append(Declaration("struct", qualified, header, match.start(), close + 1, members=members,
                                 keyword=match.group(1), align=match.group(2), name_at=match.start(3),
                                 class_scope=qualified))
        decls.extend(members)
        # methods of the class: `<result> name(params) [const] {` or `;` at the class's own depth
        depth = 0
        for at, line in body_lines:
            if depth == 0:
                m = re.match(r"^\s*(?:inline\s+|virtual\s+|static\s+|constexpr\s+|explicit\s+)*([\w:<>\*&, ]+?)\s+"
                             r"[\*&]?(\w+)\s*\(", line)
                if m and m.group(2) not in ("if", "while", "for", "switch", "return", "operator") and \
                        not m.group(1).strip().startswith(("return", "template", "using", "friend")):
                    open_paren = at + m.end() - 1
                    close_paren = matching(code, open_paren, "(", ")")
                    tail = code[close_paren + 1:close_paren + 200] if close_paren > 0 else ""
                    t = re.match(r"\s*(const\s*)?(noexcept\s*)?(override\s*)?(\{|;)", tail)
                    if close_paren > 0 and t:
                        body_end = close_paren + 1 + t.end()
                        if t.group(4) == "{":
                            body_end = matching(code, close_paren + 1 + t.end() - 1, "{", "}") + 1
                        decls.append(Declaration("method", f"{qualified}::{m.group(2)}", header, at,
                                                 line_end(code, body_end - 1), cls=qualified, method=m.group(2)))
            depth += line.count("{") - line.count("}")

    # typedefs: using X = Y; typedef Y X; typedef R (*X)(params);
    for match in re.finditer(r"(?m)^[ \t]*using[ \t]+(\w+)[ \t]*=[ \t]*([^;]+);", code):
        decls.append(Declaration("typedef", "::".join(filter(None, [namespace_of(ns, match.start()),
                                                                      match.group(1)])), header, match.start(),
                                 line_end(code, match.end()), value=match.group(2).strip(),
                                 value_at=match.start(2), value_end=match.end(2)))
    for match in re.finditer(r"(?m)^[ \t]*typedef[ \t]+([^;(]+?)[ \t\*]*\b(\w+)[ \t]*;", code):
        decls.append(Declaration("typedef", "::".join(filter(None, [namespace_of(ns, match.start()),
                                                                      match.group(2)])), header, match.start(),
                                 line_end(code, match.end()), value=match.group(1).strip(),
                                 value_at=match.start(1), value_end=match.end(1)))
    for match in re.finditer(r"typedef\s+[\w\s\*]+\(\s*\*\s*(\w+)\s*\)\s*\(", code):
        open_paren = match.end() - 1
        close = matching(code, open_paren, "(", ")")
        inner = code[open_paren + 1:close]
        params = [] if inner.strip() in ("", "void") else [
            Param(open_paren + 1 + a, open_paren + 1 + b, code[open_paren + 1 + a:open_paren + 1 + b])
            for a, b in split_top(inner)]
        decls.append(Declaration("callback", "::".join(filter(None, [namespace_of(ns, match.start()),
                                                                       match.group(1)])), header, match.start(),
                                 line_end(code, close), params=params))

    # C++ a call relies on beyond its type: parameters with a default argument (a call may leave them out) and
    # constructors that convert implicitly (`Device d = DeviceType::CPU;`). Templates are left out: the probe
    # could not name their arguments.
    classes = [d for d in decls if d.kind == "struct"]
    for match in re.finditer(r"(?m)^[ \t]*((?:(?:inline|static|constexpr|explicit|virtual)\s+)*)"
                             r"((?:[\w:<>,]+[\s\*&]+)*?)(\w+)\s*\(", code):
        name = match.group(3)
        if name in ("if", "while", "for", "switch", "return", "sizeof", "decltype", "operator") or \
                re.search(r"template\s*<[^;{}]*>\s*$", code[max(0, match.start() - 200):match.start()]):
            continue
        open_paren = match.end() - 1
        close = matching(code, open_paren, "(", ")")
        if close < 0 or not re.match(r"\s*(const\s*)?(noexcept\s*)?(\{|;|:[^:])", code[close + 1:close + 200]):
            continue
        inner = code[open_paren + 1:close]
        params = [] if inner.strip() in ("", "void") else [
            Param(open_paren + 1 + a, open_paren + 1 + b, code[open_paren + 1 + a:open_paren + 1 + b])
            for a, b in split_top(inner)]
        defaults = [re.search(r"(?<![=!<>])=(?!=)", code[q.start:q.end]) for q in params]
        owner = next((c for c in classes if c.start < match.start() < c.end), None)
        constructor = owner is not None and name == owner.name.rsplit("::", 1)[-1]
        if owner is None and (match.group(2).strip() == "" or "torch::" not in namespace_of(ns, match.start()) + "::"):
            continue  # a free function needs a result type and a torch:: namespace (the stable C++ API)
        required = [q for q, d in zip(params, defaults) if not d]
        if len(required) != len(params) - sum(1 for d in defaults if d) or \
                any(d for d in defaults[:len(required)]):
            continue  # defaults not trailing: not a declaration this scan understands
        first_default = next((i for i, d in enumerate(defaults) if d), None)
        implicit = constructor and "explicit" not in code[match.start():match.start(3)] and len(required) == 1 and \
            owner.name.rsplit("::", 1)[-1] not in required[0].type
        if first_default is None and not implicit:
            continue
        scope = namespace_of(ns, match.start())
        required_types = []
        for q in required:
            type_text = re.sub(r"\b" + re.escape(q.name) + r"\s*$", "", q.text).strip() if q.name else q.text
            required_types.append(type_text)
        decls.append(Declaration("call", f"{owner.name if owner else scope}::{name}", header, match.start(),
                                 close + 1, scope=scope, owner=owner.name if owner else None, callee=name,
                                 constructor=constructor, required=required_types, implicit=implicit,
                                 name_at=match.start(3), explicit_at=match.start(3) if implicit else None,
                                 default=(params[first_default], defaults[first_default]) if first_default is not None
                                 else None))

    # feature guards: #if ... TORCH_VERSION_X_Y_0 ...
    for match in re.finditer(r"(?m)^[ \t]*#[ \t]*(?:el)?if[ \t]+(.*TORCH_FEATURE_VERSION.*)$", code):
        versions = [(m.start(), int(m.group(1)), int(m.group(2)))
                    for m in re.finditer(r"TORCH_VERSION_(\d+)_(\d+)_0", match.group(1))]
        if versions:
            decls.append(Declaration("guard", f"{header}:{code.count(chr(10), 0, match.start()) + 1}", header,
                                     match.start(), line_end(code, match.end()), condition=match.group(1),
                                     condition_at=match.start(1), versions=versions))
    return code, decls


# ----------------------------------------------------------------------------------------------
# Mutation operators. Each takes (text, code, declaration, context) and yields (symbol, new text)
# or, for the header operator, None for "delete the file".

INT_SWAPS = [("int64_t", "int32_t"), ("int32_t", "int64_t"), ("uint64_t", "uint32_t"), ("uint32_t", "uint64_t"),
             ("double", "float"), ("float", "double"), ("bool", "int32_t"), ("int8_t", "int16_t"),
             ("uint8_t", "uint16_t"), ("int16_t", "int32_t"), ("uint16_t", "uint32_t"), ("size_t", "uint32_t"),
             ("AtenTensorHandle", "void*"), ("StableIValue", "uint32_t"), ("char", "signed char"),
             ("void*", "char*")]


def retype(type_text):
    for old, new in INT_SWAPS:
        if re.search(r"\b" + re.escape(old) + r"(?![\w])", type_text):
            return re.sub(r"\b" + re.escape(old) + r"(?![\w])", new, type_text, count=1)
    return None


def splice(text, start, end, new):
    return text[:start] + new + text[end:]


def declaration_text(text, d):
    return text[d.start:d.end]


def newest_guard(context):
    major, minor = context["newest"]
    return f"#if TORCH_FEATURE_VERSION >= TORCH_VERSION_{major}_{minor}_0\n"


def op_header_deleted(text, code, d, ctx):
    yield d.header, None


def op_declaration_deleted(text, code, d, ctx):
    if d.kind in ("function", "macro", "typedef", "method", "callback"):
        yield d.name, splice(text, d.start, d.end, "")


def op_declaration_renamed(text, code, d, ctx):
    if d.kind in ("function", "macro"):
        yield d.name, splice(text, d.name_at, d.name_at + len(d.name), d.name + "_planted")


def op_reguarded_newer(text, code, d, ctx):
    if d.kind in ("function", "method"):
        yield d.name, splice(text, d.start, d.end, newest_guard(ctx) + declaration_text(text, d) + "#endif\n")


def op_guard_lowered(text, code, d, ctx):
    if d.kind == "guard":
        at, major, minor = d.versions[-1]
        if minor > 10:
            old = f"TORCH_VERSION_{major}_{minor}_0"
            yield d.name, splice(text, d.condition_at + at, d.condition_at + at + len(old),
                                 f"TORCH_VERSION_{major}_{minor - 1}_0")


def op_guard_raised(text, code, d, ctx):
    if d.kind == "guard":
        at, major, minor = d.versions[-1]
        if (major, minor) < ctx["newest"]:
            old = f"TORCH_VERSION_{major}_{minor}_0"
            yield d.name, splice(text, d.condition_at + at, d.condition_at + at + len(old),
                                 f"TORCH_VERSION_{major}_{minor + 1}_0")


def op_guard_and_defined(text, code, d, ctx):
    if d.kind == "guard":
        condition = d.condition.rstrip()
        yield d.name, splice(text, d.condition_at, d.condition_at + len(condition),
                             f"({condition}) && defined({PLANTED})")


def op_param_retyped(text, code, d, ctx):
    if d.kind == "function":
        for p in d.params[:1] + d.params[-1:] if len(d.params) > 1 else d.params:
            new_type = retype(p.type)
            if new_type:
                yield f"{d.name}({p.name or p.type})", splice(text, p.start, p.end, f" {new_type} {p.name}")
                return


def op_pointer_level(text, code, d, ctx):
    if d.kind == "function":
        for p in d.params:
            if p.type.endswith("*"):
                new_type = p.type[:-1].rstrip() if p.type.endswith("**") else p.type + "*"
                yield f"{d.name}({p.name})", splice(text, p.start, p.end, f" {new_type} {p.name}")
                return


def op_pointee_const_dropped(text, code, d, ctx):
    if d.kind == "function":
        for p in d.params:
            if "const" in p.type and "*" in p.type:
                new_type = re.sub(r"\bconst\s+", "", p.type, count=1)
                yield f"{d.name}({p.name})", splice(text, p.start, p.end, f" {new_type} {p.name}")
                return


def op_params_reordered(text, code, d, ctx):
    if d.kind == "function":
        for a, b in zip(d.params, d.params[1:]):
            if a.type != b.type and a.name and b.name:
                new = splice(text, b.start, b.end, " " + a.text)
                yield f"{d.name}({a.name},{b.name})", splice(new, a.start, a.end, " " + b.text)
                return


def op_same_type_swapped(text, code, d, ctx):
    if d.kind == "function":
        for a, b in zip(d.params, d.params[1:]):
            if a.type == b.type and a.name and b.name:
                new = splice(text, b.start, b.end, " " + a.text)
                yield f"{d.name}({a.name},{b.name})", splice(new, a.start, a.end, " " + b.text)
                return


def op_macro_value_changed(text, code, d, ctx):
    if d.kind == "macro" and not d.function_like:
        m = re.search(r"\b(\d+)(ULL|UL|U|LL|L)?\b", d.value)
        if m:
            start = d.value_at + m.start(1)
            yield d.name, splice(text, start, start + len(m.group(1)), str(int(m.group(1)) + 1))


def op_enumerator_value_changed(text, code, d, ctx):
    if d.kind == "enumerator":
        if d.explicit is not None:
            m = re.search(r"\b(\d+)\b", code[d.start:d.end])
            if m:
                at = d.start + m.start(1)
                yield d.name, splice(text, at, at + len(m.group(1)), str(int(m.group(1)) + 1))
        elif not d.last:
            # swapped with the next enumerator: both change value
            a, b = d.items[d.index][:2], d.items[d.index + 1][:2]
            if d.items[d.index + 1][3] is None:
                first, second = text[a[0]:a[1]], text[b[0]:b[1]]
                new = splice(text, b[0], b[1], first)
                yield d.name, splice(new, a[0], a[1], second)


def op_enumerator_appended(text, code, d, ctx):  # neutral, unless the headers pass the enum to libtorch
    if d.kind == "enumerator" and d.last and d.explicit is None and not code[d.end:d.end + 1] == ",":
        yield d.enum, splice(text, d.end, d.end, ", PlantedAppended")


def op_member_inserted(text, code, d, ctx):
    if d.kind == "struct" and d.members:
        first = d.members[0]
        indent = re.match(r"\s*", text[first.start:first.end]).group(0).lstrip("\n")
        yield d.name, splice(text, first.start, first.start, f"{indent}int64_t planted_member_;\n")


def op_member_removed(text, code, d, ctx):
    if d.kind == "member":
        yield d.name, splice(text, d.start, d.end, "")


def op_member_retyped(text, code, d, ctx):
    if d.kind == "member":
        new_type = retype(d.type)
        if new_type:
            yield d.name, splice(text, d.type_at, d.type_end, new_type + " ")


def op_alignment_changed(text, code, d, ctx):
    if d.kind == "struct" and d.members:
        if d.align:
            m = re.search(r"\d+", d.align)
            if m:
                at = text.find(d.align, d.start)
                yield d.name, splice(text, at, at + len(d.align), d.align.replace(m.group(0),
                                                                                  str(int(m.group(0)) * 4)))
        else:
            yield d.name, splice(text, d.name_at, d.name_at, "alignas(32) ")


def op_typedef_changed(text, code, d, ctx):
    if d.kind == "typedef":
        new_value = retype(d.value)
        if new_value is None and d.value.endswith("*"):
            new_value = "void*"
        if new_value and new_value != d.value:
            yield d.name, splice(text, d.value_at, d.value_end, new_value)
    elif d.kind == "callback":
        for p in d.params:
            new_type = retype(p.type)
            if new_type:
                yield d.name, splice(text, p.start, p.end, f" {new_type} {p.name}".rstrip())
                return


# Neutral operators: a change no compiled source or binary can observe.
def op_top_level_const(text, code, d, ctx):
    if d.kind == "function":
        for p in d.params:
            if p.by_value() and p.name:
                yield f"{d.name}({p.name})", splice(text, p.start, p.end, f" const {p.type} {p.name}")
                return


def op_reformatted(text, code, d, ctx):
    if d.kind == "function":
        original = declaration_text(text, d)
        flat = " ".join(blank_comments(original).split())
        yield d.name, splice(text, d.start, d.end, "\n" + flat.replace("(", " (\n      ", 1) + "\n\n")


def op_include_guard(text, code, d, ctx):
    if d.kind == "header":
        guard = f"{PLANTED}_GUARD_{zlib.crc32(d.header.encode())}"
        yield d.header, f"#ifndef {guard}\n#define {guard}\n" + text + f"\n#endif  // {guard}\n"


def op_if0_block(text, code, d, ctx):
    if d.kind == "function":
        yield d.name, splice(text, d.end, d.end, "#if 0\n" + declaration_text(text, d).replace(
            d.name, d.name + "_disabled") + "int planted_garbage(;\n#endif\n")


def op_param_renamed(text, code, d, ctx):
    if d.kind == "function":
        for p in d.params:
            if p.name:
                yield f"{d.name}({p.name})", splice(text, p.start, p.end, f" {p.type} planted_{p.name}")
                return


def op_conversion_case_deleted(text, code, d, ctx):
    """One case of the headers' conversion of an enum for libtorch (a FromImpl<Enum> specialization) deleted:
    every declaration stays the same and compiles, and a call that passes that value fails at run time. What the
    finding probes found on the real releases that no rule reports: 2.15's conversion of Tag has no case for
    Tag::inplace and Tag::out (issue 43 item 5; the behaviour baseline of issue 48 records them as refused, and
    the diff reports a deleted case as conversion-removed)."""
    if d.kind != "header":
        return
    for specialization in re.finditer(r"struct\s+FromImpl\s*<\s*[\w:]+\s*>", code):
        brace = code.find("{", specialization.end())
        end = matching(code, brace, "{", "}") if brace >= 0 else None
        if end is None:
            continue
        for case in re.finditer(r"case\s+([\w:]+)\s*:\s*return\b[^;]*;", code[brace:end]):
            yield case.group(1), splice(text, brace + case.start(), brace + case.end(), "")


def op_default_argument_removed(text, code, d, ctx):
    """The first default argument of a C++ declaration removed (the later ones stay: still valid C++): a call that
    left that argument out no longer compiles; the type, and every binary built before, stay the same."""
    if d.kind == "call" and d.default:
        param, equals = d.default
        written = code[param.start:param.start + equals.start()].strip()
        yield f"{d.name}({written})", splice(text, param.start + equals.start(), param.end, "")


def op_made_explicit(text, code, d, ctx):
    """A constructor that converted implicitly made `explicit`: `T t = value;` no longer compiles."""
    if d.kind == "call" and d.implicit:
        yield d.name, splice(text, d.explicit_at, d.explicit_at, "explicit ")


def op_comment_added(text, code, d, ctx):
    if d.kind in ("function", "macro", "struct"):
        yield d.name, splice(text, d.start, d.start, "// planted comment\n\n")


BREAKING_OPERATORS = {
    "header-deleted": op_header_deleted,
    "declaration-deleted": op_declaration_deleted,
    "declaration-renamed": op_declaration_renamed,
    "reguarded-to-newest": op_reguarded_newer,
    "guard-lowered": op_guard_lowered,
    "guard-raised": op_guard_raised,
    "guard-and-defined": op_guard_and_defined,
    "param-retyped": op_param_retyped,
    "param-pointer-level": op_pointer_level,
    "param-pointee-const-dropped": op_pointee_const_dropped,
    "params-reordered": op_params_reordered,
    "same-type-params-swapped": op_same_type_swapped,
    "macro-value-changed": op_macro_value_changed,
    "enumerator-value-changed": op_enumerator_value_changed,
    "member-inserted": op_member_inserted,
    "member-removed": op_member_removed,
    "member-retyped": op_member_retyped,
    "alignment-changed": op_alignment_changed,
    "typedef-changed": op_typedef_changed,
    "conversion-case-deleted": op_conversion_case_deleted,
    "default-argument-removed": op_default_argument_removed,
    "made-explicit": op_made_explicit,
}
NEUTRAL_OPERATORS = {
    "top-level-const": op_top_level_const,
    "reformatted": op_reformatted,
    "include-guard": op_include_guard,
    "if0-block": op_if0_block,
    "param-renamed": op_param_renamed,
    "comment-added": op_comment_added,
    "enumerator-appended": op_enumerator_appended,
}
OPERATORS = {**BREAKING_OPERATORS, **NEUTRAL_OPERATORS}


def stable_headers(include_dir):
    headers = []
    for tree in STABLE_TREES:
        root = include_dir / tree
        if not root.is_dir():
            continue
        for path in root.rglob("*.h"):
            relative = path.relative_to(include_dir).as_posix()
            if not any(relative.startswith(p) for p in PLATFORM_SPECIFIC):
                headers.append(relative)
    return sorted(headers)


def generate_mutants(include_dir, newest):
    """Every (operator, header, symbol, new text or None) the operators make, in a fixed order."""
    mutants = []
    context = {"newest": newest}
    scanned = {}
    for header in stable_headers(include_dir):
        text = (include_dir / header).read_text(errors="replace")
        code, decls = scan_header(header, text)
        scanned[header] = decls
        decls = [Declaration("header", header, header, 0, len(text))] + decls
        for operator, function in OPERATORS.items():
            for d in decls:
                if operator == "header-deleted" and d.kind != "header":
                    continue
                for symbol, new_text in function(text, code, d, context):
                    if new_text is not None and new_text == text:
                        continue
                    mutants.append({"operator": operator, "header": header, "symbol": symbol, "text": new_text})
    return mutants, scanned


# ----------------------------------------------------------------------------------------------
# The probe: statements compiled at every configuration, then fingerprinted.

def probe_statements(scanned):
    """(id, kind, declaration text lines, fingerprint expression or None) for the original's declarations,
    and the header each statement's declaration is in."""
    statements, header_of = [], {}

    def add(kind, lines, fingerprint=None):
        header_of[len(statements)] = header
        statements.append((len(statements), kind, lines, fingerprint))

    for header, decls in scanned.items():
        add("header", [f"#if !__has_include(<{header}>)", f"#error probe missing {header}", "#endif"])
        for d in decls:
            if d.kind == "function":
                add("function", [f"using probe_t{len(statements)} = decltype(&::{d.name});"],
                    f"typeid(probe_t{len(statements)}).name()")
            elif d.kind == "method":
                add("method", [f"using probe_t{len(statements)} = decltype(&::{d.cls}::{d.method});"],
                    f"typeid(probe_t{len(statements)}).name()")
            elif d.kind == "macro":
                add("macro", [f"#ifndef {d.name}", f"#error probe missing {d.name}", "#endif"])
                if not d.function_like:
                    add("macro-value", [f"constexpr unsigned long long probe_v{len(statements)} = "
                                        f"(unsigned long long)({d.name});"], f"probe_v{len(statements)}")
            elif d.kind == "enumerator":
                for name in {d.qualified, "::" + d.name}:
                    add("enumerator", [f"constexpr long long probe_v{len(statements)} = "
                                       f"static_cast<long long>({name});"], f"probe_v{len(statements)}")
            elif d.kind == "struct":
                add("struct", [f"constexpr unsigned long probe_v{len(statements)} = "
                               f"sizeof(::{d.name}) * 1000 + alignof(::{d.name});"], f"probe_v{len(statements)}")
            elif d.kind == "member":
                add("member", [f"constexpr unsigned long probe_v{len(statements)} = "
                               f"__builtin_offsetof(::{d.struct}, {d.member});"], f"probe_v{len(statements)}")
                add("member-type", [f"using probe_t{len(statements)} = decltype(static_cast<::{d.struct}*>"
                                    f"(nullptr)->{d.member});"], f"typeid(probe_t{len(statements)}).name()")
            elif d.kind == "call":
                # A call as users write it, in the declaration's namespace so that its parameter types resolve:
                # the defaults left out, and a constructor's implicit conversion.
                arguments = ", ".join(f"std::declval<{t}>()" for t in d.required)
                if d.default:
                    callee = (f"{d.owner}({arguments})" if d.constructor else
                              f"std::declval<{d.owner}&>().{d.callee}({arguments})" if d.owner else
                              f"{d.callee}({arguments})")
                    add("call", [f"namespace {d.scope} {{ using probe_t{len(statements)} = decltype({callee}); }}"
                                 if d.scope else f"using probe_t{len(statements)} = decltype({callee});"])
                if d.implicit:
                    check = f"static_assert(std::is_convertible_v<{d.required[0]}, {d.owner}>);"
                    add("conversion", [f"namespace {d.scope} {{ {check} }}" if d.scope else check])
            elif d.kind in ("typedef", "callback"):
                add("typedef", [f"using probe_t{len(statements)} = ::{d.name};"],
                    f"typeid(probe_t{len(statements)}*).name()")
    return statements, header_of


INCLUDE = re.compile(r'(?m)^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"]')


def include_closures(include_dir, headers):
    """For each header, every file under include_dir that its preprocessing reaches (itself included),
    following the includes of every file it reaches (a stable header that includes another through a
    non-stable one counts)."""
    direct, pending = {}, list(headers)
    while pending:
        name = pending.pop()
        if name in direct:
            continue
        path = include_dir / name
        text = path.read_text(errors="replace") if path.is_file() else ""
        found = set()
        for target in INCLUDE.findall(blank_comments_keep_includes(text)):
            for candidate in (target, (Path(name).parent / target).as_posix()):
                if (include_dir / candidate).is_file():
                    found.add(os.path.normpath(candidate))
                    break
        direct[name] = found
        pending.extend(found - direct.keys())
    reached = {}
    for header in headers:
        closure, frontier = {header}, [header]
        while frontier:
            for target in direct.get(frontier.pop(), ()):
                if target not in closure:
                    closure.add(target)
                    frontier.append(target)
        reached[header] = closure
    return reached


def includers(include_dir, headers):
    """For each header, the stable headers whose preprocessing reaches it (itself included). A mutation
    of a header can change only what these declare."""
    reached = include_closures(include_dir, headers)
    return {target: sorted(h for h in headers if target in reached[h]) for target in headers}


def blank_comments_keep_includes(text):
    """The text with comments blanked but the include paths kept (blank_comments empties string literals)."""
    code = blank_comments(text)
    lines = code.split("\n")
    for i, line in enumerate(text.split("\n")):
        if INCLUDE.match(line) and INCLUDE.match(lines[i]):
            lines[i] = line
    return "\n".join(lines)


def probe_source(headers, statements, keep=None, fingerprint=False):
    lines = ["#include <typeinfo>", "#include <cstdio>", "#include <type_traits>", "#include <utility>"]
    for header in headers:
        lines += [f"#if __has_include(<{header}>)", f"#include <{header}>", "#endif"]
    line_of = {}
    for sid, kind, body, _ in statements:
        if keep is not None and sid not in keep:
            continue
        line_of[len(lines) + 1] = sid  # the first line of a statement is where its error is reported...
        for offset, line in enumerate(body):
            line_of[len(lines) + 1 + offset] = sid  # ...and #error is on the second
        lines += body
    if fingerprint:
        lines.append("int main() {")
        for sid, kind, body, expression in statements:
            if expression and (keep is None or sid in keep):
                lines.append(f'  std::printf("%d %s\\n", {sid}, std::to_string({expression}).c_str());'
                             if not expression.startswith("typeid") else
                             f'  std::printf("%d %s\\n", {sid}, {expression});')
        lines.append("}")
        lines.insert(0, "#include <string>")
        line_of = {k + 1: v for k, v in line_of.items()}
    return "\n".join(lines) + "\n", line_of


def configurations(newest):
    """Every way an extension compiles the headers: no target or each target 2.9 ... newest, each without and
    with the backend defines. (Until issue 28's surface4 the backends were compiled only without a target
    and at the newest: a CUDA shim put under the newest guard, hidden from CUDA builds at 2.10 ... 2.14,
    looked neutral to the probe; g++ and clang++ confirm the break at target 2.12 with USE_CUDA.)"""
    configs = [("none", [])]
    for minor in range(9, newest[1] + 1):
        version = (2 << 56) | (minor << 48)
        configs.append((f"2.{minor}", [f"-DTORCH_TARGET_VERSION=0x{version:016X}", "-DTORCH_STABLE_ONLY"]))
    configs.append(("none+backends", BACKENDS))
    for minor in range(9, newest[1] + 1):
        version = (2 << 56) | (minor << 48)
        configs.append((f"2.{minor}+backends", [f"-DTORCH_TARGET_VERSION=0x{version:016X}", "-DTORCH_STABLE_ONLY",
                                                 *BACKENDS]))
    return configs


# The standard headers the stable headers include, compiled once into a precompiled header that every
# probe compile loads first (they are include-guarded, so the headers' own includes of them are no-ops):
# half of a probe compile's time was parsing them again. main() checks that the original compiles the
# same statements at every configuration with and without it before it uses it.
STANDARD_HEADERS = ["typeinfo", "cstdio", "string", "algorithm", "array", "cassert", "climits", "cmath", "complex",
                    "cstddef", "cstdint", "cstring", "ctime", "functional", "initializer_list", "iomanip", "iosfwd",
                    "iostream", "iterator", "limits", "memory", "optional", "ostream", "sstream", "stdexcept",
                    "tuple", "type_traits", "utility", "vector"]
PCH_FLAGS = []


def build_standard_pch(work):
    header = work / "standard.h"
    header.write_text("".join(f"#include <{h}>\n" for h in STANDARD_HEADERS))
    pch = work / "standard.h.pch"
    subprocess.run([CXX, "-x", "c++-header", "-std=c++17", "-w", str(header), "-o", str(pch)], check=True)
    return ["-include-pch", str(pch)]


ERROR = re.compile(r"^(.*?):(\d+):\d+: (?:fatal )?error: (.*)$")


def compile_config(include_dir, source, flags, work, tag):
    path = work / f"probe-{tag}.cpp"
    path.write_text(source)
    proc = subprocess.run([CXX, "-x", "c++", "-std=c++17", "-w", "-fsyntax-only", "-ferror-limit=0", *PCH_FLAGS,
                           f"-I{include_dir}", *flags, str(path)], capture_output=True, text=True)
    failed_lines, header_errors = set(), set()
    for line in proc.stderr.splitlines():
        m = ERROR.match(line)
        if not m:
            continue
        if m.group(1) == str(path):
            failed_lines.add(int(m.group(2)))
        else:
            where = m.group(1).replace(str(include_dir) + "/", "")
            header_errors.add(f"{where}: {m.group(3)}")
    return failed_lines, header_errors


def fingerprints(include_dir, headers, statements, keep, flags, work, tag):
    source, _ = probe_source(headers, statements, keep, fingerprint=True)
    path = work / f"fingerprint-{tag}.cpp"
    path.write_text(source)
    binary = work / f"fingerprint-{tag}"
    proc = subprocess.run([CXX, "-x", "c++", "-std=c++17", "-w", "-O0", *PCH_FLAGS, f"-I{include_dir}", *flags,
                           str(path),
                           "-o", str(binary), "-Wl,--unresolved-symbols=ignore-all"], capture_output=True, text=True)
    if proc.returncode != 0:
        return None, proc.stderr[-800:]
    run = subprocess.run([str(binary)], capture_output=True, text=True, timeout=60)
    values = {}
    for line in run.stdout.splitlines():
        sid, _, value = line.partition(" ")
        values[int(sid)] = value
    return values, ""


class Probe:
    """What the original's statements do at each configuration, and each mutant compared with that.

    A mutant of header H is probed in H's scope: only the stable headers that reach H (see includers)
    are included and only their declarations' statements compiled, since nothing else can change; the
    original's observation of each scope is made once and kept (mutants of one header share it)."""

    def __init__(self, pristine, headers, statements, header_of, configs, work, jobs):
        self.pristine, self.headers, self.statements, self.configs = pristine, headers, statements, configs
        self.work, self.jobs, self.header_of = work, jobs, header_of
        self.reaching = includers(pristine, headers)
        self.originals = {}
        # The generated headers that no other stable header reaches: a batch of mutants of those alone is
        # probed with all of them, so that the original's side of every such batch is one observation,
        # made once (a batch's own union would be new for nearly every batch).
        self.leaves = frozenset(h for h in headers if h.startswith("torch/csrc/inductor/aoti_torch/generated/")
                                and self.reaching.get(h) == [h])

    def scope(self, header):
        return self.reaching.get(header, self.headers)

    def original_of(self, scope):
        if scope not in self.originals:
            started = time.monotonic()
            self.originals[scope] = self.observe(self.pristine, "original-" + str(len(self.originals)), scope)
            print(f"  (the original's side of {len(scope)} headers probed: {time.monotonic() - started:.1f} s)",
                  flush=True)
        return self.originals[scope]

    def observe(self, include_dir, tag, headers):
        in_scope = set(headers)
        keep = {sid for sid, *_ in self.statements if self.header_of[sid] in in_scope}
        source, line_of = probe_source(headers, self.statements, keep)
        work = self.work / tag
        work.mkdir(parents=True, exist_ok=True)
        compiled, header_errors = {}, {}
        with concurrent.futures.ThreadPoolExecutor(self.jobs) as pool:
            futures = {name: pool.submit(compile_config, include_dir, source, flags, work, name.replace("+", "_"))
                       for name, flags in self.configs}
            for name, future in futures.items():
                failed_lines, errors = future.result()
                failed = {line_of[line] for line in failed_lines if line in line_of}
                compiled[name] = keep - failed
                header_errors[name] = errors
        values = {}
        for name, flags in self.configs:
            if name in ("none", "none+backends"):
                got, problem = fingerprints(include_dir, headers, self.statements, compiled[name], flags, work,
                                            name.replace("+", "_"))
                if got is None:
                    got = {}
                    header_errors[name] = header_errors[name] | {"fingerprint program: " + problem.strip()[-200:]}
                values[name] = got
        return {"compiled": compiled, "header_errors": header_errors, "values": values}

    def classify_batch(self, include_dir, tag, batch):
        """(class, reasons) of each mutant of a batch planted in one tree: mutants of headers whose scopes
        are disjoint, probed together with the union of their scopes. A statement belongs to the mutant
        whose scope holds its declaration's header; a header error to the one whose scope holds the header
        it is in, or to every mutant of the batch when it is in none (a fingerprint program that fails)."""
        scopes = [set(self.scope(m["header"])) for m in batch]
        union = set().union(*scopes)
        union = tuple(sorted(self.leaves if union <= self.leaves else union))
        original = self.original_of(union)
        mutant = self.observe(include_dir, tag, union)
        results = []
        for m, scope in zip(batch, scopes):
            def mine(sids, scope=scope):
                return {sid for sid in sids if self.header_of[sid] in scope}

            def my_errors(errors, scope=scope):
                return {e for e in errors if e.split(":")[0] in scope or e.split(":")[0] not in union}

            reasons = []
            for name, _ in self.configs:
                lost = mine(original["compiled"][name] - mutant["compiled"][name])
                gained = mine(mutant["compiled"][name] - original["compiled"][name])
                new_errors = my_errors(mutant["header_errors"][name] - original["header_errors"][name])
                if lost:
                    reasons.append(("api-break", f"{name}: {len(lost)} statements no longer compile "
                                                 f"({self.describe(sorted(lost)[0])})"))
                if new_errors:
                    reasons.append(("api-break", f"{name}: new header error {sorted(new_errors)[0][:160]}"))
                if gained and name != "none" and name != "none+backends":
                    reasons.append(("api-expose", f"{name}: {len(gained)} statements now compile "
                                                  f"({self.describe(sorted(gained)[0])})"))
            for name in original["values"]:
                before, after = original["values"][name], mutant["values"].get(name, {})
                changed = sorted(mine(sid for sid in before if sid in after and before[sid] != after[sid]))
                if changed:
                    sid = changed[0]
                    reasons.append(("abi-break", f"{name}: {len(changed)} fingerprints changed ({self.describe(sid)}: "
                                                 f"{before[sid]} -> {after[sid]})"))
            if not reasons and m["operator"] == "same-type-params-swapped":
                reasons.append(("behaviour", "same-type parameters swapped with their names"))
            if not reasons and m["operator"] == "conversion-case-deleted":
                reasons.append(("behaviour", "a value the headers' conversion no longer passes on to libtorch: a "
                                             "call that passes it fails"))
            if not reasons and m["operator"] == "default-argument-removed" and self.overloaded(m["header"], m["symbol"]):
                reasons.append(("behaviour", "the call that left the argument out still compiles: it binds another "
                                             "overload of the name, where its arguments convert (another function "
                                             "runs)"))
            if not reasons and m["operator"] == "enumerator-appended" and self.passed_to_libtorch(m["symbol"]):
                reasons.append(("behaviour", "a value appended to an enum the stable headers convert for libtorch "
                                             "(FromImpl<...>): no release knows it, a call that passes it fails "
                                             "(probed on the real releases: bench/probe_findings.py)"))
            results.append(((reasons[0][0] if reasons else "neutral"), reasons))
        shutil.rmtree(self.work / tag, ignore_errors=True)
        return results

    def describe(self, sid):
        return " ".join(self.statements[sid][2])[:120]

    def overloaded(self, header, symbol):
        """Whether the original header declares the function of a mutant's symbol ("ns::f(int x)") more than
        once: a call may then bind another overload (the generator's own reading of the text)."""
        callee = symbol.split("(", 1)[0].rsplit("::", 1)[-1]
        code = blank_comments((self.pristine / header).read_text(errors="replace"))
        declared = re.findall(r"(?m)^[ \t]*(?!return\b)[^;{}()=\n]*?[\w>\*&][ \t\*&]+" + re.escape(callee) +
                              r"\s*\(", code)
        return len(declared) > 1

    @functools.lru_cache(maxsize=None)
    def passed_to_libtorch(self, enum):
        """Whether the original stable headers convert `enum` into a StableIValue for libtorch: a
        FromImpl specialization for it (the generator's own reading of the text)."""
        short = enum.rsplit("::", 1)[-1]
        pattern = re.compile(r"struct\s+FromImpl\s*<\s*(?:[\w:]*::)?" + re.escape(short) + r"\s*>")
        return any(pattern.search((self.pristine / h).read_text(errors="replace")) for h in self.headers)


# ----------------------------------------------------------------------------------------------
# The tool.

def normal(message):
    return re.sub(r"line \d+|:\d+", ":N", message)


def run_tool(argv, log):
    started = time.monotonic()
    proc = subprocess.run([str(a) for a in argv], capture_output=True, text=True)
    log.append(f"$ {' '.join(map(str, argv))}\n-> {proc.returncode} in {time.monotonic() - started:.1f} s\n"
               + (proc.stdout + proc.stderr)[-1500:])
    return proc


def inventory_headers(baseline_dir):
    """{declaration name: its header} of a baseline's inventory (empty when there is none)."""
    path = Path(baseline_dir) / "inventory.json"
    if not path.is_file():
        return {}
    return {d["name"]: d["header"] for d in json.loads(path.read_text())["declarations"]}


# The newest release's libraries: a mutant's baseline probes its headers' conversions on them (behaviour.json),
# as a release's own baseline does, so that the diff compares what the inline code does (issue 48).
LIB_DIR = []


def build_baseline(cli, tree, baseline, log):
    """The tree's baseline written to `baseline`, or None where `baseline` refuses the tree."""
    shutil.rmtree(baseline, ignore_errors=True)
    built = run_tool([cli, "baseline", "--torch", tree, "--out", baseline, "--jobs", "2", *LIB_DIR], log)
    return baseline if built.returncode == 0 and (baseline / "inventory.json").exists() else None


def conversions_header(tree):
    """The header of the boxed calling convention's conversions (the one that specializes FromImpl), which a
    conversion-* change of the diff is about: the diff names the type and value, not the header."""
    for path in sorted((tree / "torch/csrc/stable").glob("*.h")):
        if "struct FromImpl" in path.read_text(errors="replace"):
            return path.relative_to(tree).as_posix()
    return None


def tool_findings(cli, tree, committed, work, log, built=None, timings=None):
    """{(tool, kind, text, header)} of diff and lint headers on a tree, and the tools that exited 2. The header
    is what the finding is about (a diff change's declaration's or the header it names, a diagnostic's
    file), relative to the tree; None when it is not known. `built`: the tree's baseline, already built.
    `timings` (a dict) gets each step's wall seconds: baseline, diff, lint."""
    found, errors = set(), []
    timings = {} if timings is None else timings
    baseline = built or work / "baseline"
    started = time.monotonic()
    new_side = built or build_baseline(cli, tree, baseline, log) or tree
    timings["baseline"] = round(time.monotonic() - started, 1)
    report = work / "diff.json"
    report.unlink(missing_ok=True)
    started = time.monotonic()
    proc = run_tool([cli, "diff", committed, new_side, "--json", report], log)
    timings["diff"] = round(time.monotonic() - started, 1)
    if proc.returncode == 2 or not report.exists():
        errors.append("diff")
    else:
        where = {**inventory_headers(committed), **inventory_headers(baseline)}
        for change in json.loads(report.read_text())["diffs"][0]["changes"]:
            if change["verdict"] != "compatible":
                header = change["name"] if (tree / change["name"]).is_file() or change["name"].endswith(".h") \
                    else where.get(change["name"])
                if change["kind"].startswith("conversion-"):
                    header = conversions_header(tree)
                found.add(("diff", change["kind"], change["name"] + " " + normal(change["detail"]), header))
    report = work / "lint.json"
    report.unlink(missing_ok=True)
    lint = [cli, "lint", "headers", "--torch", tree, "--json", report]
    if new_side == baseline:
        lint += ["--inventory", baseline / "inventory.json"]
    started = time.monotonic()
    proc = run_tool(lint, log)
    timings["lint"] = round(time.monotonic() - started, 1)
    if proc.returncode == 2 or not report.exists():
        errors.append("lint")
    else:
        for diagnostic in json.loads(report.read_text())["lint"]["diagnostics"]:
            file = Path(diagnostic["file"]).resolve()
            header = file.relative_to(tree.resolve()).as_posix() if file.is_relative_to(tree.resolve()) else None
            found.add(("lint", diagnostic["rule"], normal(diagnostic["message"]), header))
    return found, errors


# What a tree cut to a batch's scope always keeps: the headers the tool reads the release from, and the C
# shim header whose presence makes a tree a stable one.
TREE_ROOTS = ["torch/headeronly/version.h", "torch/csrc/stable/version.h", "torch/csrc/inductor/aoti_torch/c/shim.h"]


class ScopedTool:
    """The tool run on a tree cut to what a batch's mutants can change (--scoped): the stable headers of the
    batch's scopes and every header they include; the other stable headers are left out of the copy, so
    the tool's parses at every target read a part of the tree instead of all of it. The mutant's tree is
    compared with the same cut of the original (its baseline built once per cut and reused: `diff` runs
    from the two baselines), and the lint's findings on the cut original are what is subtracted (a cut
    tree lacks the declarations of the headers left out, which the lint reports against the committed
    baselines, about headers of no mutant's scope)."""

    def __init__(self, cli, pristine, headers, work, log):
        self.cli, self.pristine, self.headers, self.work, self.log = cli, pristine, set(headers), work, log
        self.closure = include_closures(pristine, sorted(set(headers) | set(TREE_ROOTS)))
        self.cuts = {}

    def kept(self, scope):
        keep = set()
        for header in list(scope) + TREE_ROOTS:
            keep |= self.closure.get(header, {header})
        return frozenset(keep)

    def cut(self, source, target, keep):
        shutil.rmtree(target, ignore_errors=True)
        shutil.copytree(source, target, symlinks=True, copy_function=os.link)
        for header in self.headers - keep:
            (target / header).unlink(missing_ok=True)
        return target

    def original(self, keep):
        """(baseline, lint findings) of the original cut to `keep`, made once per cut."""
        if keep not in self.cuts:
            place = self.work / f"cut-{len(self.cuts)}"
            tree = self.cut(self.pristine, place / "tree", keep)
            baseline = build_baseline(self.cli, tree, place / "baseline", self.log)
            if baseline is None:
                raise RuntimeError(f"baseline refuses the original cut to {len(keep)} headers: see the log")
            found, errors = tool_findings(self.cli, tree, baseline, place, self.log, built=baseline)
            if errors:
                raise RuntimeError(f"the original cut to {len(keep)} headers gives exit 2 in {errors}")
            self.cuts[keep] = (baseline, found)
        return self.cuts[keep]

    def findings(self, tree, scope):
        """New findings on `tree` (a planted copy of the original) cut to `scope`, and the tools that exited 2."""
        keep = self.kept(scope)
        baseline, control = self.original(keep)
        cut_tree = self.cut(tree, self.work / "cut-tree", keep)
        found, errors = tool_findings(self.cli, cut_tree, baseline, self.work, self.log)
        # A finding's header is relative to the cut tree, which has the original's paths.
        return found - control, errors


# ----------------------------------------------------------------------------------------------

def plant(pristine, tree, mutants):
    """A hard-linked copy of the pristine tree with each mutated header written as a new file."""
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(pristine, tree, symlinks=True, copy_function=os.link)
    for mutant in mutants:
        target = tree / mutant["header"]
        target.unlink()
        if mutant["text"] is not None:
            target.write_text(mutant["text"])


def make_batches(mutants, probe, size):
    """The mutants in batches of at most `size` whose scopes (the headers that reach each mutated header)
    are disjoint, so that whatever the probe or the tool says about a header belongs to one mutant.
    Mutants of a stratified draw are batched round by round (see sample), in the rounds' order."""
    rounds = collections.defaultdict(list)
    for mutant in mutants:
        rounds[mutant.get("round", 0)].append(mutant)
    for number in sorted(rounds):
        yield from batches_of(rounds[number], probe, size)


def batches_of(mutants, probe, size):
    pending = list(mutants)
    while pending:
        batch, used, rest = [], set(), []
        for mutant in pending:
            scope = set(probe.scope(mutant["header"]))
            if len(batch) < size and not scope & used:
                batch.append(mutant)
                used |= scope
            else:
                rest.append(mutant)
        yield batch
        pending = rest


def sample(mutants, count, seed, per_operator=0):
    """`count` mutants round robin over the operators, or (per_operator) that many of each operator:
    a stratified sample in which every operator gets a score. The same seed draws the same mutants."""
    rng = random.Random(seed)
    by_operator = collections.defaultdict(list)
    for mutant in mutants:
        by_operator[mutant["operator"]].append(mutant)
    for group in by_operator.values():
        rng.shuffle(group)
    chosen, operators = [], [op for op in OPERATORS if op in by_operator]
    rng.shuffle(operators)
    if per_operator:
        # Round by round (the i-th mutant of every operator in round i), so that a run stopped early
        # (--time-limit) has scored every operator about equally. The mutants are those of the draw
        # before rounds existed: the same seed draws the same set.
        return [dict(m, round=i) for i in range(per_operator) for op in operators
                if i < len(by_operator[op]) for m in [by_operator[op][i]]]
    while len(chosen) < count and any(by_operator.values()):
        for op in operators:
            if by_operator[op] and len(chosen) < count:
                chosen.append(by_operator[op].pop())
    return chosen


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--build", default=str(ROOT / "build"))
    parser.add_argument("--sample", type=int, default=0, help="draw N mutants (default: all)")
    parser.add_argument("--per-operator", type=int, default=0,
                        help="draw N mutants of each operator (a stratified sample; default: all)")
    parser.add_argument("--no-pch", action="store_true", help="parse the standard headers in every probe compile")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--operators", default="", help="only these operators (comma-separated)")
    parser.add_argument("--keep", default="", help="keep the work directory and the commands' log here")
    parser.add_argument("--probe-only", action="store_true", help="classify the mutants, run no tool")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--jobs", type=int, default=2, help="parallel probe compiles")
    parser.add_argument("--batch", type=int, default=1,
                        help="plant up to N mutants of headers whose scopes are disjoint in one tree, probed and "
                             "judged by the tool together (default 1: one mutant a tree)")
    parser.add_argument("--json", default="", help="write every mutant's outcome here (after every batch)")
    parser.add_argument("--time-limit", type=float, default=0,
                        help="start no batch after this many seconds; the table covers the batches run")
    parser.add_argument("--under", default="", help="only mutants of headers under this path of the tree")
    parser.add_argument("--batches", type=int, default=0, help="run only the first N batches of the draw")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a breaking mutant is missed, a neutral one flagged or a tool exits 2")
    parser.add_argument("--select", default="",
                        help="only the mutants a --json of an earlier run with the same draw lists (by operator, header "
                             "and symbol), e.g. those its probe called neutral, probed again")
    parser.add_argument("--rerun", default="",
                        help="run again the mutants that a --json of an earlier run says were missed, flagged "
                             "while neutral or refused (exit 2), found by operator, header and symbol")
    parser.add_argument("--scoped", action="store_true",
                        help="run the tool on the tree cut to the batch's scopes and the headers they include, "
                             "compared with the same cut of the original (see ScopedTool)")
    args = parser.parse_args()

    cli = str(Path(args.build) / "checker" / "torch-abi-check")
    store = json.loads(subprocess.run([cli, "store", "list", "--json", "-"], capture_output=True, text=True,
                                      check=True).stdout)
    releases = sorted(store["releases"], key=lambda r: [int(p) for p in r["version"].split(".")[:2]])
    if not releases:
        print("no release in the store: install one (torch-abi-check store install X.Y)")
        return 2
    newest_release = releases[-1]
    newest = tuple(int(p) for p in newest_release["version"].split(".")[:2])
    minor = f"{newest[0]}.{newest[1]}"
    # The committed baseline the tool compares with: the project's, or that of TORCH_ABI_CHECK_HOME
    # (a copy of the project, so that baselines rewritten during a run cannot change it under the run).
    committed = Path(os.environ.get("TORCH_ABI_CHECK_HOME", ROOT)) / "shim_decls" / minor
    include_dir = Path(newest_release["include_dir"])
    LIB_DIR[:] = ["--lib-dir", newest_release["lib_dir"]]

    mutants, scanned = generate_mutants(include_dir, newest)
    wanted = set(filter(None, args.operators.split(",")))
    if wanted:
        mutants = [m for m in mutants if m["operator"] in wanted]
    if args.under:
        mutants = [m for m in mutants if m["header"].startswith(args.under)]
    if args.sample or args.per_operator:
        mutants = sample(mutants, args.sample, args.seed, args.per_operator)
    for listed, keep in ((args.rerun, wrongly_scored), (args.select, lambda o: True)):
        if listed:
            chosen = {(o["operator"], o["header"], o["symbol"]) for o in json.loads(Path(listed).read_text()) if keep(o)}
            mutants = [m for m in mutants if (m["operator"], m["header"], m["symbol"]) in chosen]
    if args.list:
        for m in mutants:
            print(f"{m['operator']:28} {m['header']:60} {m['symbol']}")
        counts = collections.Counter(m["operator"] for m in mutants)
        print(f"{len(mutants)} mutants: " + ", ".join(f"{op} {counts[op]}" for op in OPERATORS if counts[op]))
        return 0

    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="header-mutation-"))
    work.mkdir(parents=True, exist_ok=True)
    pristine = work / "pristine"
    if not pristine.exists():
        shutil.copytree(include_dir, pristine, symlinks=True)
    tree = work / "tree"
    log = []
    started = time.monotonic()
    headers = stable_headers(pristine)
    statements, header_of = probe_statements({h: d for h, d in scanned.items() if h in headers})
    if not args.no_pch:
        (work / "probe").mkdir(parents=True, exist_ok=True)
        PCH_FLAGS[:] = build_standard_pch(work / "probe")
    probe = Probe(pristine, headers, statements, header_of, configurations(newest), work / "probe", args.jobs)
    print(f"torch {newest_release['version']}: {len(mutants)} mutants; probe of {len(statements)} statements in "
          f"{len(headers)} headers; a mutant of a header is probed with the headers that reach it", flush=True)

    control = set()
    scoped = ScopedTool(cli, pristine, headers, work / "scoped", log) if args.scoped else None
    if not args.probe_only and not scoped:
        plant(pristine, tree, [])
        t0, control_timings = time.monotonic(), {}
        control, control_errors = tool_findings(cli, tree, committed, work, log, timings=control_timings)
        print(f"the tool on the unmutated tree: {time.monotonic() - t0:.1f} s ({control_timings}); "
              f"{len(control)} findings", flush=True)
        if control_errors:
            print(f"the unmutated tree gives exit 2 in {control_errors}: no figure")
            return 2

    def run_batch(batch, tag):
        """Each mutant's outcome; a batch the tool refuses (exit 2) is run again one mutant at a time."""
        plant(pristine, tree, batch)
        timings = {}
        t0 = time.monotonic()
        classes = probe.classify_batch(tree, tag, batch)
        t1 = time.monotonic()
        # A fingerprint program that fails (one mutant's header no longer compiles) leaves every mutant of the
        # batch without fingerprints and gives each that mutant's error: the batch is probed one at a time.
        if len(batch) > 1 and any("fingerprint program" in why for _, reasons in classes for _, why in reasons):
            return [o for i, m in enumerate(batch) for o in run_batch([m], f"{tag}-{i}")]
        if args.probe_only:
            new, errors = set(), []
        elif scoped:
            new, errors = scoped.findings(tree, set().union(*(probe.scope(m["header"]) for m in batch)))
        else:
            found, errors = tool_findings(cli, tree, committed, work, log, timings=timings)
            new = found - control
        if errors and len(batch) > 1:
            return [o for i, m in enumerate(batch) for o in run_batch([m], f"{tag}-{i}")]
        t2 = time.monotonic()
        log.append(f"batch {tag}: {len(batch)} mutants, {sum(1 for f in new if f[3] is None)} new findings "
                   f"about no known header: " + "; ".join(f"{f[0]} {f[1]}: {f[2][:160]}" for f in new if f[3] is None))
        outcomes = []
        for mutant, (klass, reasons) in zip(batch, classes):
            outcome = {"operator": mutant["operator"], "header": mutant["header"], "symbol": mutant["symbol"],
                       "class": klass, "why": reasons[0][1] if reasons else "", "batch": len(batch),
                       "probe_s": round(t1 - t0, 1)}
            if not args.probe_only:
                scope = set(probe.scope(mutant["header"]))
                mine = {f for f in new if f[3] in scope}
                outcome.update({"diff": sorted({k for t, k, _, _ in mine if t == "diff"}),
                                "lint": sorted({k for t, k, _, _ in mine if t == "lint"}),
                                "errors": errors, "tool_s": round(t2 - t1, 1), "tool_steps_s": timings,
                                "findings": sorted(f"{t} {k}: {x[:200]}" for t, k, x, _ in mine)[:6]})
            outcomes.append(outcome)
        return outcomes

    outcomes = []
    try:
        batches = list(make_batches(mutants, probe, args.batch))
        if args.batches:
            batches = batches[:args.batches]
        print(f"{len(batches)} batches of at most {args.batch} mutants", flush=True)
        for number, batch in enumerate(batches):
            if args.time_limit and time.monotonic() - started > args.time_limit:
                print(f"(time limit: {len(batches) - number} batches not run; the table covers the mutants run)")
                break
            for outcome in run_batch(batch, f"b{number}"):
                outcomes.append(outcome)
                tools = "" if args.probe_only else (
                    f" | diff: {','.join(outcome['diff']) or '-'} | lint: {','.join(outcome['lint']) or '-'}"
                    + (f" | exit 2 in {','.join(outcome['errors'])}" if outcome["errors"] else "")
                    + f" | tool {outcome['tool_s']} s")
                print(f"[{len(outcomes)}/{len(mutants)}] {outcome['operator']:27} {outcome['symbol'][:48]:48} "
                      f"{outcome['class']:10} batch {outcome['batch']} probe {outcome['probe_s']} s{tools}   "
                      f"({outcome['why'][:110]})", flush=True)
            if args.json:
                Path(args.json).write_text(json.dumps(outcomes, indent=1) + "\n")
    except KeyboardInterrupt:
        print("(interrupted: the table covers the mutants run so far)")

    print()
    print(score_table(outcomes, args.probe_only))
    print(f"\ntook {time.monotonic() - started:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(outcomes, indent=1) + "\n")
    if args.keep:
        (work / "commands.log").write_text("\n".join(log))
    else:
        shutil.rmtree(work, ignore_errors=True)
    if args.check and not args.probe_only:
        wrong = [o for o in outcomes if wrongly_scored(o)]
        for o in wrong:
            print(f"WRONG: {o['operator']} {o['header']} {o['symbol']}: probe {o['class']} ({o['why'][:160]}); "
                  f"diff {o['diff'] or '-'}, lint {o['lint'] or '-'}, exit 2 in {o['errors'] or '-'}")
        return 1 if wrong or not outcomes else 0
    return 0


# The kinds of change no header rule is about: a macro's value (an extension compiles it in; the diff's
# macro-value-changed) and same-type parameters swapped with their names (the diff's parameters-swapped).
NOT_THE_LINTS = {"macro-value-changed", "same-type-params-swapped"}


def wrongly_scored(outcome):
    """A breaking mutant (by the probe) that no tool reported, a neutral one that a tool flagged, or a tool's exit 2."""
    flagged = bool(outcome.get("diff") or outcome.get("lint"))
    return bool(outcome.get("errors")) or flagged == (outcome["class"] == "neutral")


def score_table(outcomes, probe_only):
    rows = collections.OrderedDict()
    for op in OPERATORS:
        rows[op] = [o for o in outcomes if o["operator"] == op]
    if probe_only:
        lines = ["| operator | mutants | api-break | api-expose | abi-break | behaviour | neutral |",
                 "|---|---:|---:|---:|---:|---:|---:|"]
        for op, group in rows.items():
            if group:
                c = collections.Counter(o["class"] for o in group)
                lines.append(f"| {op} | {len(group)} | {c['api-break']} | {c['api-expose']} | {c['abi-break']} | "
                             f"{c['behaviour']} | {c['neutral']} |")
        return "\n".join(lines)
    lines = ["| operator | mutants | breaking (probe) | reported | by diff | by lint | missed | exit 2 | neutral (probe) "
             "| false positives |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    total = collections.Counter()
    for op, group in rows.items():
        if not group:
            continue
        breaking = [o for o in group if o["class"] != "neutral"]
        neutral = [o for o in group if o["class"] == "neutral"]
        reported = [o for o in breaking if (o["diff"] or o["lint"]) and not o["errors"]]
        by_diff = [o for o in breaking if o["diff"]]
        by_lint = [o for o in breaking if o["lint"]]
        errors = [o for o in group if o["errors"]]
        false = [o for o in neutral if o["diff"] or o["lint"] or o["errors"]]
        counts = dict(mutants=len(group), breaking=len(breaking), reported=len(reported), diff=len(by_diff),
                      lint=len(by_lint), missed=len(breaking) - len(reported), errors=len(errors),
                      neutral=len(neutral), false=len(false))
        total.update(counts)
        if op not in NOT_THE_LINTS:
            total.update(lint_owned=len(breaking), lint_owned_reported=len(by_lint))
        lines.append(f"| {op} | {counts['mutants']} | {counts['breaking']} | {counts['reported']} | "
                     f"{counts['diff']} | {counts['lint']} | {counts['missed']} | {counts['errors']} | {counts['neutral']} | "
                     f"{counts['false']} |")
    lines.append(f"| **all** | {total['mutants']} | {total['breaking']} | **{total['reported']}** | {total['diff']} | "
                 f"{total['lint']} | {total['missed']} | {total['errors']} | {total['neutral']} | **{total['false']}** |")
    if total["breaking"]:
        lines.append(f"\nbreaking mutants reported: {total['reported']}/{total['breaking']} "
                     f"({100.0 * total['reported'] / total['breaking']:.1f} %); false positives on neutral: "
                     f"{total['false']}/{total['neutral']}")
        lines.append(f"by diff: {total['diff']}/{total['breaking']} ({100.0 * total['diff'] / total['breaking']:.1f} %); "
                     f"by lint headers, on the operators it owns (all but {', '.join(sorted(NOT_THE_LINTS))}): "
                     f"{total['lint_owned_reported']}/{total['lint_owned']} "
                     f"({100.0 * total['lint_owned_reported'] / max(1, total['lint_owned']):.1f} %)")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
