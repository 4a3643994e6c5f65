"""The PWG raster sample corpus that CUPS's ipp-everywhere.test prints (PWG 5100.14 section 5.4): files named
pwg-raster-samples-<res>dpi/<type>/<name>-<type>-<res>dpi.pwg, rendered with Ghostscript's pwgraster device
(PWG 5102.4) from the sample pages of vptest.documents.

    resolutions, types = pwg_corpus.needs(printer.profile_attributes(name) for name in profiles)
    corpus = pwg_corpus.make(cache, suites / "ipp-everywhere.test", resolutions, types)
    pwg_corpus.link(corpus.folder, work)        # beside the suite, which opens the files by relative path

Only the files the suite names for those resolutions and types are rendered; every other file it names is an empty
placeholder (ipptool stops a whole suite at a FILE it cannot open), whose tests the printer's attributes make it
skip. The files are kept in a cache folder keyed by everything that shapes them (this file, documents.py, the
Ghostscript version), so a rerun makes nothing.
"""
import collections
import hashlib
import os
import re
import shutil
import subprocess

from . import documents

# Ghostscript pwgraster options of a sample type: the color space (CUPS cups_cspace_t numbering, which PWG 5102.4
# section 4.3.1.5 shares: 3 black, 6 CMYK, 18 sGray, 19 sRGB) and the bits per color.
TYPES = {
    "black-1": ("-dcupsColorSpace=3", "-dcupsBitsPerColor=1"),
    "sgray-8": ("-dcupsColorSpace=18", "-dcupsBitsPerColor=8"),
    "srgb-8": ("-dcupsColorSpace=19", "-dcupsBitsPerColor=8"),
    "srgb-16": ("-dcupsColorSpace=19", "-dcupsBitsPerColor=16"),
    "cmyk-8": ("-dcupsColorSpace=6", "-dcupsBitsPerColor=8"),
}
# Ghostscript sheet size options of a sample by the last part of its name; the 4x6 photos' sheet is 4 x 6 inches
# in points (PWG 5101.1 na_index-4x6_4x6in).
SIZES = {
    "a4": ("-sPAPERSIZE=a4", "-dFIXEDMEDIA"),
    "letter": ("-sPAPERSIZE=letter", "-dFIXEDMEDIA"),
    "4x6": ("-dDEVICEWIDTHPOINTS=288", "-dDEVICEHEIGHTPOINTS=432", "-dFIXEDMEDIA"),
}
# Pages in the "document-" samples; the "onepage-" samples have one.
DOCUMENT_PAGES = 2
# A sample file the suite names (FILE lines), its resolution and type folders, and its name, type and resolution.
SUITE_FILE = re.compile(r"^\s*FILE (pwg-raster-samples-[0-9]+dpi/\S+\.pwg)")
SAMPLE_FOLDERS = re.compile(r"^pwg-raster-samples-([0-9]+)dpi/([a-z0-9-]+)/")
SAMPLE_FILE = re.compile(r"^(.+)-(%s)-([0-9]+)dpi\.pwg$" % "|".join(TYPES))
# A corpus folder's name: its key.
KEY = re.compile(r"^[0-9a-f]{16}$")
# A square resolution of pwg-raster-document-resolution-supported as ipptool writes it ("300dpi").
SQUARE_DPI = re.compile(r"^\s*(\d+)dpi\s*$")
# The corpus's folders, one a resolution.
SAMPLES = re.compile(r"^pwg-raster-samples-.*dpi$")

# What make did: ``folder`` (the corpus, holding the pwg-raster-samples-<res>dpi folders, or None), ``complete``
# (every file asked for was made), ``report`` (its messages).
Corpus = collections.namedtuple("Corpus", "folder complete report")


class SampleError(Exception):
    """A sample file that was not made; the message says which and why."""


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


def key():
    """The cache key: a digest of the generator (this file and documents.py, the sample pages) and the Ghostscript
    version."""
    digest = hashlib.sha256()
    for generator in (__file__, documents.__file__):
        with open(generator, "rb") as file:
            digest.update(file.read())
    digest.update(subprocess.run(["gs", "--version"], capture_output=True, check=True, timeout=60).stdout)
    return digest.hexdigest()[:16]


def program(name, sources):
    """The PostScript program of sample ``name``: the documents.py JPEG (made into ``sources``) fitted to the sheet
    for color.jpg-* and gray.jpg-*, documents.py pages for document-* and onepage-*; None for another name."""
    kind, jpg, _ = name.partition(".jpg-")
    if jpg and kind + ".jpg" in documents.IPPTOOL_DOCUMENTS:
        jpeg = os.path.join(sources, kind + ".jpg")
        if not os.path.isfile(jpeg):
            documents.ipptool_document(sources, kind + ".jpg")
        # viewjpeg.ps (Ghostscript's library) scales the image to the clipping area, keeping its aspect.
        return "(viewjpeg.ps) runlibfile (%s) viewJPEG showpage\n" % jpeg
    if name.startswith("document-"):
        return "".join(documents.PAGE_PROGRAM % ("%s page %d" % (name, page)) for page in range(1, DOCUMENT_PAGES + 1))
    if name.startswith("onepage-"):
        return documents.PAGE_PROGRAM % name
    return None


def render(corpus, relative):
    """Renders the sample file ``relative`` (its name, type and resolution are in its path) into ``corpus``. The file
    is written beside its final name and renamed, so an interrupted run leaves no partial file. Raises SampleError."""
    match = SAMPLE_FILE.match(os.path.basename(relative))
    if not match:
        raise SampleError("pwg-corpus: cannot tell name, type and resolution of %s" % relative)
    name, kind, dpi = match.groups()
    path, sources = os.path.join(corpus, relative), os.path.join(corpus, "sources")
    size = SIZES.get(name.rpartition("-")[2])
    try:
        postscript = program(name, sources) if size else None
        if postscript is None:
            raise SampleError("pwg-corpus: no recipe for %s" % relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        documents.ghostscript("pwgraster", path + ".partial", "--permit-file-read=%s/" % sources, *TYPES[kind],
                              *size, "-r" + dpi, program=postscript)
        os.replace(path + ".partial", path)
    except (subprocess.SubprocessError, OSError) as error:
        if os.path.exists(path + ".partial"):
            os.remove(path + ".partial")
        raise SampleError("pwg-corpus: ghostscript failed on %s: %s" % (relative, error)) from error


def make(cache, suite, resolutions, types):
    """Makes under ``cache`` the files ``suite`` (ipp-everywhere.test) names for ``resolutions`` (dots per inch) and
    ``types`` (IPP keywords black_1 or file spellings black-1); nothing that is cached already. Returns the Corpus,
    ``complete`` False when a file could not be rendered (the others are kept) or when no folder came out."""
    resolutions, types = [str(dpi) for dpi in resolutions], [kind.replace("_", "-") for kind in types]
    try:
        corpus = os.path.join(os.fspath(cache), key())
        os.makedirs(os.path.join(corpus, "sources"), exist_ok=True)
        for stale in os.listdir(cache):
            # Corpora of other keys were made by another generator, documents.py or Ghostscript: never used again.
            if KEY.match(stale) and stale != os.path.basename(corpus):
                shutil.rmtree(os.path.join(cache, stale), ignore_errors=True)
        with open(suite) as file:
            relatives = sorted({match[1] for match in map(SUITE_FILE.match, file) if match})
    except (subprocess.SubprocessError, OSError) as error:
        return Corpus(None, False, "pwg-corpus: %s" % error)
    made, placeholders, failures = 0, 0, []
    for relative in relatives:
        path = os.path.join(corpus, relative)
        folders = SAMPLE_FOLDERS.match(relative)
        if folders and (folders[1] not in resolutions or folders[2] not in types):
            # ipptool (CUPS 2.4) stops the whole suite at a FILE it cannot open, even under SKIP-IF-MISSING, so
            # every file the suite names exists; the ones not asked for are empty. Their tests are skipped by
            # SKIP-IF-NOT-DEFINED, as the printer does not list that resolution or does not list that type.
            if not os.path.exists(path):
                os.makedirs(os.path.dirname(path), exist_ok=True)
                open(path, "w").close()
                placeholders += 1
        elif folders and not (os.path.exists(path) and os.path.getsize(path)):
            try:
                render(corpus, relative)
                made += 1
            except SampleError as error:
                failures.append(str(error))
    report = "pwg-corpus: made %d files for %s dpi, %s (%d empty placeholders) in %s" % (
        made, ",".join(resolutions), ",".join(types), placeholders, corpus)
    return Corpus(corpus, not failures, "\n".join(failures + [report]))


def link(corpus_folder, folder):
    """Links each pwg-raster-samples-<res>dpi folder of the corpus into ``folder``."""
    for name in sorted(os.listdir(corpus_folder)):
        source = os.path.join(corpus_folder, name)
        if SAMPLES.match(name) and os.path.isdir(source):
            target = os.path.join(folder, name)
            if os.path.lexists(target):
                os.remove(target)
            os.symlink(source, target)
