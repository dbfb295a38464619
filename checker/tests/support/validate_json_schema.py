"""Validates a JSON file against one of the project's JSON Schemas (docs/schemas/), with jsonschema
from the tools venv that ci/setup.sh makes.

usage: validate_json_schema.py SCHEMA.json FILE.json   exit 0 valid, 1 invalid, 2 validator missing
"""
import json
import sys

try:
    import jsonschema
except ImportError as error:
    print(f"validate_json_schema: jsonschema missing ({error}); run ci/setup.sh", file=sys.stderr)
    sys.exit(2)

with open(sys.argv[1], encoding="utf-8") as handle:
    schema = json.load(handle)
with open(sys.argv[2], encoding="utf-8") as handle:
    document = json.load(handle)
validator_class = jsonschema.validators.validator_for(schema)
validator_class.check_schema(schema)
errors = sorted(validator_class(schema).iter_errors(document), key=lambda e: list(e.path))
for error in errors[:20]:
    print(f"/{'/'.join(map(str, error.path))}: {error.message[:300]}")
sys.exit(1 if errors else 0)
