#!/usr/bin/env python3
"""Writes the audit's compiled-in shim index from shim_decls/<release>/inventory.json (run by CMake).

The audit only needs (release, name, backend) of each shim function; parsing the seven inventories
(~2.4 MB of JSON) cost more than the audit of a typical extension, so the build extracts those
triples once. Pure extraction: which release introduced a shim is still decided by ShimCatalog.
Each inventory's size is recorded so that the catalog can tell when shim_decls/ changed after the
build and fall back to reading it.

    generate_shim_index.py SHIM_DECLS_DIR OUTPUT_CPP
"""
import json
import pathlib
import sys


def cpp_string(text):
    return json.dumps(text)  # a JSON string of plain ASCII names is a valid C++ string literal


def main():
    directory, output = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    inventories, shims = [], []
    for path in sorted(directory.glob("*/inventory.json")):
        document = json.loads(path.read_text())
        index = len(inventories)
        inventories.append(f"{{{cpp_string(path.parent.name)}, {cpp_string(document['release'])}, {path.stat().st_size}u}}")
        for declaration in document["declarations"]:
            if declaration["kind"] == "function":
                shims.append(f"{{{index}, {cpp_string(declaration['name'])}, {cpp_string(declaration['backend'])}}}")
    # C++ has no empty arrays: an index of nothing holds one unused entry (the counts say 0).
    inventory_rows = inventories or ['{"", "", 0u}']
    shim_rows = shims or ['{0, "", ""}']
    lines = [
        "// Generated at build time by checker/src/audit/generate_shim_index.py from shim_decls/: do not edit.",
        '#include "audit/embedded_shim_index.h"',
        "",
        "namespace abicheck {",
        "",
        f"const char* const kEmbeddedShimDirectory = {cpp_string(str(directory.resolve()))};",
        "const EmbeddedInventory kEmbeddedInventories[] = {",
        *(f"    {entry}," for entry in inventory_rows),
        "};",
        f"const std::size_t kEmbeddedInventoryCount = {len(inventories)};",
        "const EmbeddedShim kEmbeddedShims[] = {",
        *(f"    {entry}," for entry in shim_rows),
        "};",
        f"const std::size_t kEmbeddedShimCount = {len(shims)};",
        "",
        "}  // namespace abicheck",
        "",
    ]
    output.parent.mkdir(parents=True, exist_ok=True)
    temporary = output.with_suffix(".tmp")
    temporary.write_text("\n".join(lines))
    temporary.replace(output)


if __name__ == "__main__":
    main()
