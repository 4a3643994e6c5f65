"""printer-strings-uri (PWG 5100.13 section 6.6, docs/profiles.md "Strings"): Get-Printer-Attributes names the
strings file of the request's language among printer-strings-languages-supported, and the file, fetched by that URI
as iOS and the Mopria app fetch it, has a line for every value the printer lists."""
import re
import urllib.request

import pytest

from vprinter import ipp

# The -supported attributes whose values a strings file names, and whether they are enums (keyed by number).
LOCALIZED = ["finishings", "job-hold-until", "media", "media-source", "media-type", "multiple-document-handling",
             "orientation-requested", "output-bin", "print-color-mode", "print-content-optimize", "print-quality",
             "print-rendering-intent", "print-scaling", "sides"]
LINE = re.compile(r'^"((?:[^"\\]|\\.)*)" = "((?:[^"\\]|\\.)*)";$')


def strings_uri(printer, language):
    answer = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, {"requested-attributes": "printer-strings-uri"},
                         natural_language=language)
    return answer.get("printer-strings-uri")


def fetch(uri):
    with urllib.request.urlopen(uri, timeout=10) as response:
        assert response.headers["Content-Type"].startswith("text/strings")
        text = response.read().decode("utf-8")
    entries = {}
    for line in text.splitlines():
        match = LINE.match(line)
        assert match, "not a strings line: %r" % line
        entries[match[1]] = match[2]
    return entries


@pytest.mark.parametrize("profile", ["office-mfp", "photo-inkjet"])
def test_the_strings_of_every_language_name_every_listed_value(start_printer, profile):
    printer = start_printer(profile=profile)
    answer = printer.ipp(ipp.GET_PRINTER_ATTRIBUTES, {"requested-attributes": "all"})
    languages = answer.values("printer-strings-languages-supported")
    assert set(languages) >= {"en", "de", "fr", "ja"}
    files = {}
    for language in languages:
        uri = strings_uri(printer, language)
        assert uri.endswith("/strings/%s.strings" % language), uri
        files[language] = fetch(uri)
    for name in LOCALIZED:
        for value in answer.values(name + "-supported"):
            key = "%s.%s" % (name, value)
            for language, entries in files.items():
                assert entries.get(key), "%s: no %s text for %s" % (profile, language, key)
    # The same words in four languages would not be a translation.
    assert files["de"]["media-type.stationery"] == "Normalpapier"
    assert files["ja"]["sides"] != files["en"]["sides"]
    assert strings_uri(printer, "de-AT").endswith("/de.strings")
    assert strings_uri(printer, "pt").endswith("/en.strings"), "an unlisted language gets English"
