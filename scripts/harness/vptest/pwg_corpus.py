"""The PWG raster sample corpus that CUPS's ipp-everywhere.test prints (PWG 5100.14 section 5.4): files named
pwg-raster-samples-<res>dpi/<type>/<name>-<type>-<res>dpi.pwg, made and cached by scripts/lib/pwg-corpus.sh.

    resolutions, types = pwg_corpus.needs(printer.profile_attributes(name) for name in profiles)
    corpus = pwg_corpus.make(cache, suites / "ipp-everywhere.test", resolutions, types)
    pwg_corpus.link(corpus.folder, work)        # beside the suite, which opens the files by relative path

Only the files the suite names for those resolutions and types are rendered; every other file it names is an empty
placeholder (ipptool stops a whole suite at a FILE it cannot open), whose tests the printer's attributes make it
skip.
"""
import os
import re

from . import scriptlib

# A square resolution of pwg-raster-document-resolution-supported as ipptool writes it ("300dpi").
SQUARE_DPI = re.compile(r"^\s*(\d+)dpi\s*$")
# The corpus's folders, one a resolution.
SAMPLES = re.compile(r"^pwg-raster-samples-.*dpi$")


class Corpus:
    """What pwg_corpus_make said: ``folder`` (the corpus, holding the pwg-raster-samples-<res>dpi folders),
    ``complete`` (every file asked for was made), ``report`` (its messages)."""

    def __init__(self, folder, complete, report):
        self.folder = folder
        self.complete = complete
        self.report = report


def needs(attribute_sets):
    """The union of the resolutions (square ones, in dots per inch) and raster types that printers list in
    pwg-raster-document-resolution-supported and pwg-raster-document-type-supported, from their attributes
    (dicts of name to value text, as vptest.printer.profile_attributes gives); (sorted resolutions, sorted types)."""
    resolutions, types = set(), set()
    for attributes in attribute_sets:
        for value in attributes.get("pwg-raster-document-resolution-supported", "").split(","):
            match = SQUARE_DPI.match(value)
            if match:
                resolutions.add(int(match[1]))
        types.update(value for value in attributes.get("pwg-raster-document-type-supported", "").split(",") if value)
    return sorted(resolutions), sorted(types)


def make(cache, suite, resolutions, types):
    """Makes under ``cache`` the files ``suite`` (ipp-everywhere.test) names for ``resolutions`` and ``types``
    (pwg_corpus_make: nothing that is cached already); returns the Corpus, ``complete`` False when a file could not
    be rendered (the others are kept) or when no folder came out."""
    done = scriptlib.call("pwg-corpus.sh", "pwg_corpus_make", cache, suite, ",".join(map(str, resolutions)),
                          ",".join(types), stop_at_error=False)
    folder = done.stdout.strip()
    return Corpus(folder or None, done.returncode == 0 and bool(folder), done.stderr.strip())


def link(corpus_folder, folder):
    """Links each pwg-raster-samples-<res>dpi folder of the corpus into ``folder``."""
    for name in sorted(os.listdir(corpus_folder)):
        source = os.path.join(corpus_folder, name)
        if SAMPLES.match(name) and os.path.isdir(source):
            target = os.path.join(folder, name)
            if os.path.lexists(target):
                os.remove(target)
            os.symlink(source, target)
