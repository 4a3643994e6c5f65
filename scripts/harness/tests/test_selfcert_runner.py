"""vptest.selfcert without a printer: what the GENERATE-FILE blocks become, and which failures are the suite's
defects (the runner's own rules; the suites themselves run in the conformance stage)."""
import pathlib

import pytest

from vptest import selfcert

COLOR_LETTER = {"pwg-raster-document-type-supported": "black_1,sgray_8,srgb_8",
                "pwg-raster-document-resolution-supported": "300dpi,600dpi", "media-default": "na_letter_8.5x11in",
                "media-supported": "na_letter_8.5x11in,iso_a4_210x297mm"}
PHOTO = {"pwg-raster-document-type-supported": "sgray_8,srgb_8", "pwg-raster-document-resolution-supported": "300dpi",
         "media-default": "na_index-4x6_4x6in", "media-supported": "na_index-4x6_4x6in",
         "print-color-mode-default": "color"}
TESTS = """\
{
\tNAME "D-1.4 Print A4 PWG @ maximum resolution, auto"
\tGROUP job-attributes-tag
\tATTR keyword media iso_a4_210x297mm
\tGENERATE-FILE {
\t    COLORSPACE auto
\t    RESOLUTION max
\t    NUM-PAGES 4
\t}
}
{
\tNAME "I-12 Print-Job"
\tATTR keyword sides "two-sided-short-edge"
\tGENERATE-FILE {
\t    COLORSPACE auto
\t    RESOLUTION min
\t}
}
{
\tNAME "D-1.1 cmyk_8"
\tGENERATE-FILE {
\t    COLORSPACE cmyk_8
\t    RESOLUTION max
\t}
}
"""


class Rasters(selfcert.Rasters):
    """The rasters asked for, by name, none made."""

    def raster(self, kind, resolution, pages, size, sides="one-sided"):
        return pathlib.Path("%s-%dx%d-%dp-%dx%d-%s.pwg" % (kind, *resolution, pages, *size, sides))


def test_generate_file_blocks_become_files_made_for_the_printer(tmp_path):
    text = selfcert.rewritten(TESTS, COLOR_LETTER, Rasters(tmp_path))
    files = [line.split(None, 1)[1] for line in text.splitlines() if line.strip().startswith("FILE ")]
    # The test's own media (A4, 595 x 842 points) at the highest resolution, the best colour space, for the printer's
    # sides (none: one-sided); the printer's media-default (Letter) at its lowest for the test's own sides; a colour
    # space it does not list: an empty placeholder.
    assert files[0] == "srgb_8-600x600-4p-595x842-one-sided.pwg"
    assert files[1] == "srgb_8-300x300-1p-612x792-two-sided-short-edge.pwg"
    assert files[2] == str(tmp_path / "not-listed.pwg") and (tmp_path / "not-listed.pwg").stat().st_size == 0
    assert "GENERATE-FILE" not in text


def test_a_monochrome_default_chooses_gray(tmp_path):
    gray = dict(COLOR_LETTER, **{"print-color-mode-default": "monochrome"})
    text = selfcert.rewritten(TESTS, gray, Rasters(tmp_path))
    assert "FILE sgray_8-300x300-1p-612x792-two-sided-short-edge.pwg" in text
    # Without sides in the test, the pages are made for the printer's default.
    duplex = dict(COLOR_LETTER, **{"sides-default": "two-sided-long-edge"})
    assert "FILE srgb_8-600x600-4p-595x842-two-sided-long-edge.pwg" in selfcert.rewritten(TESTS, duplex,
                                                                                         Rasters(tmp_path))


@pytest.mark.parametrize("test, printer, explained", [
    ("D-2.4 Print color.jpg with media=na_letter_8.5x11in and ipp-attribute-fidelity=true", PHOTO, True),
    ("D-3.5 Print document-letter.pdf with media=iso_a4_210x297mm and ipp-attribute-fidelity=true", PHOTO, True),
    # A printer that lists Letter must print on it: its refusal is a failure.
    ("D-2.4 Print color.jpg with media=na_letter_8.5x11in and ipp-attribute-fidelity=true", COLOR_LETTER, False),
    # Another test's refusal is never explained away.
    ("D-2.1 Print color.jpg with defaults", PHOTO, False),
])
def test_only_the_letter_and_a4_tests_of_a_printer_without_them_are_explained(test, printer, explained):
    refused = selfcert.Outcome(test, "FAIL", ["EXPECTED: STATUS successful-ok (got "
                                             "client-error-attributes-or-values-not-supported)"])
    other = selfcert.Outcome(test, "FAIL", ["EXPECTED: STATUS successful-ok (got server-error-internal-error)"])
    assert bool(selfcert.explanation(refused, printer)) == explained
    assert selfcert.explanation(other, printer) is None
    result = selfcert.Result("document", [refused, selfcert.Outcome("D-1", "PASS", [])], 0, "", attributes=printer)
    assert result.passed == explained and len(result.failures) == (0 if explained else 1)



def test_the_first_line_of_a_description_names_the_failed_test_and_its_first_error():
    # A stage's summary shows one line of a failed assertion: the test that failed must be on it.
    outcomes = [selfcert.Outcome("I-16.2 Cancel-Job Operation", "FAIL", ["EXPECTED: STATUS successful-ok (got "
                                                                         "client-error-not-possible)", "second"]),
                selfcert.Outcome("I-17 Cancel-My-Jobs", "FAIL", []), selfcert.Outcome("I-1", "PASS", [])]
    first = selfcert.Result("ipp", outcomes, 0, "").describe().splitlines()[0]
    assert first == ("ipp: 1 passed, 2 failed (I-16.2 Cancel-Job Operation: EXPECTED: STATUS successful-ok (got "
                     "client-error-not-possible); ...), 0 explained, 0 skipped")
    assert selfcert.Result("ipp", outcomes[2:], 0, "").describe() == "ipp: 1 passed, 0 failed, 0 explained, 0 skipped"


def test_a_test_missed_in_the_last_run_counts_when_an_earlier_run_passed_it():
    missed = selfcert.Outcome("B-5.5 IPPS TXT values test", "FAIL", ["ipp://vp.local:631/ipp/print"])
    wrong = selfcert.Outcome("B-4. IPP TXT values test", "FAIL", ["adminurl is http://other/"])
    never = selfcert.Outcome("B-3. IPP Resolve test", "FAIL", ["ipp://vp.local:631/ipp/print"])
    result = selfcert.Result("dnssd", [missed, wrong, never], 0, "")
    result.explain_earlier_passes({"B-5.5 IPPS TXT values test": 1, "B-4. IPP TXT values test": 2},
                                  lambda outcome: outcome.errors[0].startswith("ipp://"))
    # Only the missed test an earlier run passed counts: a wrong value, or a test no run passed, still fails.
    assert [outcome.name for outcome in result.failures] == ["B-4. IPP TXT values test", "B-3. IPP Resolve test"]
    assert result.explained == [("B-5.5 IPPS TXT values test", "passed in run 1; missed the printer in the last run")]

def test_media_sizes_of_self_describing_names():
    assert selfcert.media_points("iso_a4_210x297mm") == (595, 842)
    assert selfcert.media_points("na_letter_8.5x11in") == (612, 792)
    assert selfcert.media_points("om_receipt-80_80x297mm") == (227, 842)
    assert selfcert.media_points("custom_max") is None
