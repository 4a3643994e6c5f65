"""Runs last (file order): the records of every earlier test were checked against docs/job-record.schema.json when
their folders were removed; this makes sure that actually happened for a good number of them."""
from conftest import RECORDS_CHECKED


def test_every_record_written_in_this_run_was_checked_against_the_schema():
    assert len(RECORDS_CHECKED) >= 20, "only %d records were checked" % len(RECORDS_CHECKED)
