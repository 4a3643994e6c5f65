"""The rendering benchmarks: a 50-page PDF at 150 dpi end to end against Ghostscript and pdftocairo (and, with
--baseline, against another build of vprinter), the peak memory of the printer and its render workers for a 500 MB
PWG raster job; and the documents they print."""
import collections
import pathlib
import random
import shutil
import statistics
import struct
import sys
import threading
import time

from .. import documents
from . import processes
from .report import compare

RENDER_PAGES = 50
RENDER_DPI = 150
# Issue 22: the whole job (render, facts, text, PNG, record) in at most a fifth of Ghostscript's png16m wall time, and
# a quarter of its CPU time.
GOAL_RENDER_GS_RATIO = 0.20
GOAL_RENDER_GS_CPU_RATIO = 0.25
GOAL_RENDER_PDFTOCAIRO_RATIO = 0.15
# The render of this build against --baseline's, alternating so that a change of load hits both builds alike:
# reading each side's text and facts during the render may cost at most 10 %.
RENDER_BASELINE_RUNS = 5
GOAL_RENDER_BASELINE_RATIO = 1.10
MEMORY_PWG_MEGABYTES = 500
GOAL_MEMORY_MEGABYTES = 200
# Seconds a job may take, and between two samples of the printer's memory.
JOB_LIMIT = 900
SAMPLE_INTERVAL = 0.02
# The PWG raster's pages: US letter at 600 dpi, 8-bit sRGB, in lines of literal runs of at most 128 pixels
# (PWG 5102.4 section 4.3), some distinct lines of random bytes repeated (a compressor finds nothing to gain).
PWG_DPI, PWG_WIDTH, PWG_HEIGHT = 600, 5100, 6600
PWG_HEADER_SIZE = 1796
PWG_RUN = 128
PWG_DISTINCT_LINES = 16

Job = collections.namedtuple("Job", "seconds peak_megabytes cpu_seconds state impressions")


def make_pdf(folder, name, pages):
    """``folder``/``name``.pdf, ``pages`` letter pages of text and graphics made by Ghostscript; its path."""
    postscript = ["%!PS", "/Helvetica findfont 11 scalefont setfont"]
    for page in range(1, pages + 1):
        postscript.append("0 0 0 setrgbcolor")
        postscript.append(f"72 720 moveto /Helvetica-Bold findfont 24 scalefont setfont (Page {page} of {pages}) show")
        postscript.append("/Helvetica findfont 10 scalefont setfont")
        for line in range(48):
            postscript.append(f"72 {690 - line * 12} moveto (Line {line + 1}: the quick brown fox jumps over the lazy "
                              f"dog, 0123456789 page {page}.) show")
        for box in range(6):
            red, green, blue = (box * 0.15) % 1, (page * 0.07) % 1, ((box + page) * 0.11) % 1
            postscript.append(f"{red:.2f} {green:.2f} {blue:.2f} setrgbcolor {72 + box * 80} 60 70 70 rectfill")
        postscript.append("0 0 1 setrgbcolor 3 setlinewidth 300 400 80 0 360 arc stroke")
        postscript.append("showpage")
    source = documents.source(folder, name, "\n".join(postscript) + "\n")
    pdf = documents.ghostscript("pdfwrite", folder / (name + ".pdf"), "-sPAPERSIZE=letter", source=source)
    return pathlib.Path(pdf)


def pwg_header():
    """A page header of the PWG raster (PWG 5102.4 section 4.3)."""
    header = bytearray(PWG_HEADER_SIZE)
    header[0:9] = b"PwgRaster"
    fields = {276: PWG_DPI, 280: PWG_DPI, 352: 612, 356: 792, 372: PWG_WIDTH, 376: PWG_HEIGHT, 384: 8, 388: 24,
              392: PWG_WIDTH * 3, 400: 19, 420: 3, 456: 1, 460: 1}
    for offset, value in fields.items():
        struct.pack_into(">I", header, offset, value)
    header[1732:1750] = b"na_letter_8.5x11in"
    return bytes(header)


def make_pwg(path, megabytes):
    """A PWG raster of at least ``megabytes`` MB at ``path``."""
    rng = random.Random(7)
    lines = []
    for _ in range(PWG_DISTINCT_LINES):
        line = bytearray([0])  # the line is not repeated
        for left in range(PWG_WIDTH, 0, -PWG_RUN):
            run = min(PWG_RUN, left)
            line.append(257 - run if run > 1 else 0)
            line += rng.randbytes(run * 3)
        lines.append(bytes(line))
    page_bytes = PWG_HEADER_SIZE + PWG_HEIGHT * len(lines[0])
    with open(path, "wb") as file:
        file.write(b"RaS2")
        for _ in range(max(1, -(-(megabytes << 20) // page_bytes))):
            file.write(pwg_header())
            for row in range(PWG_HEIGHT):
                file.write(lines[row % len(lines)])


def timed_job(printer, path, document_format):
    """Prints ``path`` with Print-Job and waits until the job ended with every page written: a Job with the seconds
    that took, the peak resident memory of the printer and its render workers, the CPU time of the printer and of
    its render workers (those it keeps running and those that ended), the job's state and its count of
    impressions."""
    pid = printer.process.pid
    peak, done = [0], threading.Event()

    def sample():
        while True:
            peak[0] = max(peak[0], sum(processes.status_kilobytes(p, "VmRSS") for p in [pid, *processes.children(pid)]))
            if done.wait(SAMPLE_INTERVAL):
                return

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    cpu_before = processes.tree_cpu_seconds(pid)
    started = time.monotonic()
    printer.print_file(path, document_format, job_name="bench", user="bench", timeout=JOB_LIMIT)
    record = printer.wait(1, timeout=JOB_LIMIT)[-1]
    seconds = time.monotonic() - started
    done.set()
    sampler.join()
    return Job(seconds, peak[0] / 1024, processes.tree_cpu_seconds(pid) - cpu_before, record["job-state"],
               len(record["impressions"]))


def render(bench):
    pdf = make_pdf(bench.work, "render-%d" % RENDER_PAGES, RENDER_PAGES)
    with bench.vprinter(bench.work / "render-output") as printer:
        job = timed_job(printer, pdf, "application/pdf")
    (bench.work / "gs").mkdir()
    (bench.work / "cairo").mkdir()
    gs = processes.timed_command(["gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=png16m",
                                  "-r%d" % RENDER_DPI, "-o", str(bench.work / "gs" / "page-%03d.png"), str(pdf)])
    cairo = processes.timed_command(["pdftocairo", "-png", "-r", str(RENDER_DPI), str(pdf),
                                     str(bench.work / "cairo" / "page")])
    print("render: vprinter %.3f s, CPU %.3f s (peak %.1f MB, %s, %d sides); gs %.3f s, CPU %.3f s; pdftocairo %.3f s"
          % (job.seconds, job.cpu_seconds, job.peak_megabytes, job.state, job.impressions, gs.seconds,
             gs.cpu_seconds, cairo.seconds), file=sys.stderr)
    ratio, verdict = compare(job.seconds, gs.seconds, GOAL_RENDER_GS_RATIO, at_most=True)
    bench.table.add("%d-page PDF at %d dpi vs gs" % (RENDER_PAGES, RENDER_DPI), "%.3f s" % job.seconds,
                    "gs %.3f s" % gs.seconds, ratio, "<= %gx" % GOAL_RENDER_GS_RATIO, verdict)
    ratio, verdict = compare(job.cpu_seconds, gs.cpu_seconds, GOAL_RENDER_GS_CPU_RATIO, at_most=True)
    bench.table.add("  the same, CPU time", "%.3f s" % job.cpu_seconds, "gs %.3f s" % gs.cpu_seconds, ratio,
                    "<= %gx" % GOAL_RENDER_GS_CPU_RATIO, verdict)
    ratio, verdict = compare(job.seconds, cairo.seconds, GOAL_RENDER_PDFTOCAIRO_RATIO, at_most=True)
    bench.table.add("%d-page PDF vs pdftocairo" % RENDER_PAGES, "%.3f s" % job.seconds,
                    "cairo %.3f s" % cairo.seconds, ratio, "<= %gx" % GOAL_RENDER_PDFTOCAIRO_RATIO, verdict)
    if bench.baseline:
        render_against_baseline(bench, pdf)


def render_against_baseline(bench, pdf):
    """The same PDF printed by this build and by --baseline's, alternating, RENDER_BASELINE_RUNS times each; the
    medians of their wall and CPU times."""
    jobs = {"current": [], "baseline": []}
    for _ in range(RENDER_BASELINE_RUNS):
        for which, binary in (("baseline", bench.baseline), ("current", bench.binary)):
            output = bench.work / ("render-" + which)
            shutil.rmtree(output, ignore_errors=True)
            with bench.vprinter(output, binary=binary) as printer:
                jobs[which].append(timed_job(printer, pdf, "application/pdf"))
    print("render vs baseline: this build %s s (CPU %s s); baseline %s s (CPU %s s)" % tuple(
        " ".join("%.3f" % getattr(job, figure) for job in jobs[which])
        for which in ("current", "baseline") for figure in ("seconds", "cpu_seconds")), file=sys.stderr)
    # CPU time is steadier than wall time on a machine others share; shown beside it, judged the same way.
    for label, figure in (("%d-page PDF vs baseline build" % RENDER_PAGES, "seconds"),
                          ("  the same, CPU time", "cpu_seconds")):
        current, base = (statistics.median_low(getattr(job, figure) for job in jobs[which])
                         for which in ("current", "baseline"))
        ratio, verdict = compare(current, base, GOAL_RENDER_BASELINE_RATIO, at_most=True)
        bench.table.add(label, "%.3f s" % current, "base %.3f s" % base, ratio, "<= %.2fx" % GOAL_RENDER_BASELINE_RATIO,
                        verdict)


def memory(bench):
    """Peak resident memory of the printer and its render workers while receiving and rendering a 500 MB PWG
    raster."""
    pwg = bench.work / "memory.pwg"
    make_pwg(pwg, MEMORY_PWG_MEGABYTES)
    with bench.vprinter(bench.work / "memory-output") as printer:
        job = timed_job(printer, pwg, "image/pwg-raster")
    verdict = "met" if job.peak_megabytes < GOAL_MEMORY_MEGABYTES else "missed"
    if job.state != "completed":
        verdict = "missed (%s)" % job.state
    bench.table.add("peak memory, %d MB PWG job" % (pwg.stat().st_size >> 20), "%.1f MB" % job.peak_megabytes, "-",
                    "-", "< %d MB" % GOAL_MEMORY_MEGABYTES,
                    "%s (%d pages, %.3f s)" % (verdict, job.impressions, job.seconds))
    pwg.unlink()
