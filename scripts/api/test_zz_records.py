"""Runs last (file order): the records of every earlier test were checked against docs/job-record.schema.json when
its printers stopped (the harness's start_printer fixture); this makes sure that actually happened for a good
number of them."""
from vptest.records import CHECKED


def test_every_record_written_in_this_run_was_checked_against_the_schema():
    assert len(CHECKED) >= 20, "only %d records were checked" % len(CHECKED)
