"""The PWG's IPP Everywhere Printer Self-Certification 1.1 against every printing profile, as a phone on the LAN
sees the printer (selfcert_runs): the DNS-SD suite (PWG self-certification manual section 5, B-1 to B-5.5) and the
IPP suite (section 6, I-1 to I-20) on every profile, the document suite (section 7, D-1 to D-3) on
selfcert_runs.DOCUMENT_PROFILES, each with no test failed, as the PWG's listing asks. The document suite's jobs are
then checked from the renders as a person checks the hardcopy (vptest.selfcert_renders)."""
import pytest


def test_selfcert_suite_passes(selfcert_profile, selfcert_suite, selfcert_campaign):
    result = selfcert_campaign.result(selfcert_profile, selfcert_suite)
    assert result.passed, "%s\n(the run's output: %s)" % (result.describe(), result.log[-3000:])


def test_selfcert_documents_print_as_asked(selfcert_profile, selfcert_campaign):
    """Two sets for copies=2, one page for page-ranges=3-3, no colour for monochrome, the backs for two-sided, A4 and
    Letter on their own sheets, and every job of the suite printed."""
    if selfcert_campaign.target is not None:
        pytest.skip("a real printer's hardcopy is checked by the person at it")
    problems = selfcert_campaign.result(selfcert_profile, "renders")
    assert not problems, "\n".join(problems)
