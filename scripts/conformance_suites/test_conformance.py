"""CUPS's ipptool suites (ipp-1.1, ipp-2.0, ipp-everywhere, ipp-2.1, ipp-2.2) against vprinter's profiles, with
ipptool as the client: a suite passes on a profile when none of its tests fails, ipptool ends cleanly, and the
printer lives through it (conformance_runs.judge)."""
import pytest


def test_pwg_raster_corpus_is_made(conformance):
    """Every PWG raster sample the profiles' resolutions and types call for is made (ipp-everywhere prints them)."""
    corpus = conformance.corpus
    if corpus is None:
        pytest.skip("no corpus made here: VP_PWG_CORPUS names one, or no profile of the run lists PWG raster")
    assert corpus.complete, "the PWG raster corpus was not made in full: %s" % corpus.report


def test_suite_passes(row, suite, conformance):
    result = conformance.result(row, suite)
    assert result.failed == 0, result.describe()
