"""Writes the operator schemas of the torch release whose Python runs this script, and the schema
adapters that release registers for callers of torch_call_dispatcher built against an older torch.

Usage: python dump_operator_schemas.py --out FILE [--libtorch-cpu PATH --adapter-registry OFFSET
                                        --adapter-registry-guard OFFSET]

The schemas are every operator the dispatcher knows after `import torch` (what torch_call_dispatcher
can find by name), each in torch's own schema syntax, one per line, sorted: the file diffs well
between releases. torch-abi-check baseline runs it (baseline/operator_schemas.cpp) and owns the format.

The adapters live in a registry private to libtorch_cpu.so (shim_common.cpp: an unordered_map from
operator name to (applies to versions below, adapter) pairs, the static local of
SchemaAdapterRegistry::instance()). No API lists it, so it is read from the loaded library itself:
the caller finds the registry's and its guard's offsets in the library's symbol table and passes
them here. A registry whose guard is unset was never constructed, so nothing registered an adapter.
"""

import argparse
import ctypes
import os
import sys

# libstdc++'s std::unordered_map<std::string, std::vector<std::pair<uint64_t, std::function<...>>>>
# on x86-64 and aarch64: _M_buckets, _M_bucket_count, _M_before_begin._M_nxt, _M_element_count, ...
_BEFORE_BEGIN = 16
_ELEMENT_COUNT = 24
# A node: _M_nxt, then the value (std::string key of 32 bytes, std::vector of 24), then the cached hash.
_NODE_KEY = 8
_NODE_VECTOR = 40
_PAIR_SIZE = 8 + 32  # uint64_t, std::function
_MAX_ADAPTERS = 100000  # a count beyond this means the layout was misread


def _u64(address):
    return ctypes.c_uint64.from_address(address).value


def _std_string(address):
    data, size = _u64(address), _u64(address + 8)
    if size > 4096:
        raise ValueError(f"implausible operator name length {size}")
    return ctypes.string_at(data, size).decode("utf-8")


def read_adapters(libtorch_cpu, registry_offset, guard_offset):
    """[(operator name, applies to versions below)] registered in the loaded libtorch_cpu.so."""
    handle = ctypes.CDLL(libtorch_cpu, mode=os.RTLD_NOW | os.RTLD_GLOBAL)._handle
    base = ctypes.c_uint64.from_address(handle).value  # glibc: a dlopen handle is its link_map; l_addr first
    if ctypes.c_uint8.from_address(base + guard_offset).value == 0:
        return []
    registry = base + registry_offset
    count = _u64(registry + _ELEMENT_COUNT)
    if count > _MAX_ADAPTERS:
        raise ValueError(f"implausible adapter registry size {count}")
    adapters = []
    node = _u64(registry + _BEFORE_BEGIN)
    for _ in range(count):
        if node == 0:
            raise ValueError("adapter registry ends before its element count")
        name = _std_string(node + _NODE_KEY)
        begin, end = _u64(node + _NODE_VECTOR), _u64(node + _NODE_VECTOR + 8)
        if (end - begin) % _PAIR_SIZE:
            raise ValueError(f"adapter list of {name} is not a whole number of entries")
        for entry in range(begin, end, _PAIR_SIZE):
            adapters.append((name, _u64(entry)))
        node = _u64(node)
    if node != 0:
        raise ValueError("adapter registry holds more nodes than its element count")
    return sorted(set(adapters))


def schema_lines():
    import torch

    registered = set(torch._C._dispatch_get_all_op_names())
    lines = set()
    for schema in torch._C._jit_get_all_schemas():
        # The JIT also lists TorchScript-only builtins under aten:: names; the dispatcher cannot call those.
        qualified = schema.name + (f".{schema.overload_name}" if schema.overload_name else "")
        if qualified in registered:
            lines.add(str(schema))
    return sorted(lines), torch.__version__.split("+")[0]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--libtorch-cpu")
    parser.add_argument("--adapter-registry", type=lambda text: int(text, 0))
    parser.add_argument("--adapter-registry-guard", type=lambda text: int(text, 0))
    args = parser.parse_args()
    schemas, version = schema_lines()
    has_registry = args.adapter_registry is not None
    adapters = read_adapters(args.libtorch_cpu, args.adapter_registry, args.adapter_registry_guard) if has_registry else []
    with open(args.out, "w", encoding="utf-8", newline="\n") as out:
        out.write(f"# operator schemas of torch {version}: {len(schemas)} operators\n")
        out.write(f"@release {version}\n")
        out.write(f"@adapter-registry {'present' if has_registry else 'absent'}\n")
        for name, below in adapters:
            out.write(f"@adapter {name} 0x{below:016X}\n")
        for line in schemas:
            out.write(line + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
