"""Job records (docs/job-record.md) checked against docs/job-record.schema.json."""
import glob
import json
import os

import jsonschema

from .paths import DOCS

RECORD_SCHEMA = json.loads((DOCS / "job-record.schema.json").read_text())
# The path of every job.json check_folder checked in this run (a suite can require that enough were).
CHECKED = set()


def validate_record(record):
    """Raises jsonschema.ValidationError when the record breaks the schema."""
    jsonschema.Draft7Validator(RECORD_SCHEMA).validate(record)


def check_folder(output_dir):
    """Validates every job.json of an output folder; returns how many there were."""
    paths = sorted(glob.glob(os.path.join(os.fspath(output_dir), "jobs", "*", "job.json")))
    for path in paths:
        with open(path) as file:
            try:
                validate_record(json.load(file))
            except jsonschema.ValidationError as error:
                raise AssertionError("%s breaks docs/job-record.schema.json: %s" % (path, error.message)) from error
        CHECKED.add(path)
    return len(paths)
