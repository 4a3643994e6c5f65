"""The IPP/2.1 and 2.2 administration operations (PWG 5100.12 section 4, RFC 3380, RFC 3998, PWG 5100.11) played by
ipptool with Tests/ipptool/administration.test, each seen through the job and printer states that follow."""
import pytest

from vptest.paths import REPO

ADMINISTRATION = REPO / "Tests" / "ipptool" / "administration.test"
# Its tests, each one ipptool [PASS] or [FAIL] (the NAME lines of the file).
TESTS = sum(line.strip().startswith("NAME ") for line in ADMINISTRATION.read_text().splitlines())


@pytest.mark.scenario("administration")
def test_administration(scenario_printer):
    """Against a printer with --speed realistic (no scenario), so that a job is still printing when
    Cancel-Current-Job arrives."""
    played = scenario_printer("--speed", "realistic")
    report = played.passes("administration.test", "administration.test", tests=ADMINISTRATION.parent)
    # Every test of the file ran: a repeating test's tries ([0001]...) are not verdicts.
    assert len(report.verdicts) == TESTS, "%d verdicts for the %d tests of %s: %s" % (
        len(report.verdicts), TESTS, ADMINISTRATION.name, report.describe())
