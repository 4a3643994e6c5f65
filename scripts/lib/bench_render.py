#!/usr/bin/env python3
"""Render benchmarks for scripts/bench: end-to-end job time and peak memory.

Usage:
  bench_render.py make-pdf OUT.pdf PAGES            a text-and-graphics PDF made by ghostscript
  bench_render.py make-pwg OUT.pwg MEGABYTES        a PWG raster (600 dpi sRGB letter pages) of about that size,
                                                    with incompressible lines (literal runs)
  bench_render.py job URI FILE FORMAT               sends Print-Job with FILE, waits until the job ended with every
                                                    page written; prints "seconds peak_rss_mb state impressions"
                                                    (peak resident memory of the printer and its render workers)
  bench_render.py job-cpu URI FILE FORMAT PID       the same job; prints "seconds cpu_seconds state impressions", the
                                                    CPU time of the printer and of the render workers it waited for
  bench_render.py time-command -- COMMAND ...       runs COMMAND, prints its wall time in seconds
"""
import json
import os
import random
import struct
import subprocess
import sys
import threading
import time
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python", "src"))
from vprinter import ipp  # noqa: E402

POLL_SECONDS = 0.02
JOB_TIMEOUT_SECONDS = 900


def make_pdf(path, pages):
    ps = ["%!PS", "/Helvetica findfont 11 scalefont setfont"]
    for page in range(1, pages + 1):
        ps.append("0 0 0 setrgbcolor")
        ps.append(f"72 720 moveto /Helvetica-Bold findfont 24 scalefont setfont (Page {page} of {pages}) show")
        ps.append("/Helvetica findfont 10 scalefont setfont")
        for line in range(48):
            y = 690 - line * 12
            ps.append(f"72 {y} moveto (Line {line + 1}: the quick brown fox jumps over the lazy dog, "
                      f"0123456789 page {page}.) show")
        for box in range(6):
            r, g, b = (box * 0.15) % 1, (page * 0.07) % 1, ((box + page) * 0.11) % 1
            ps.append(f"{r:.2f} {g:.2f} {b:.2f} setrgbcolor {72 + box * 80} 60 70 70 rectfill")
        ps.append("0 0 1 setrgbcolor 3 setlinewidth 300 400 80 0 360 arc stroke")
        ps.append("showpage")
    source = path + ".ps"
    with open(source, "w") as handle:
        handle.write("\n".join(ps) + "\n")
    subprocess.run(["gs", "-q", "-dBATCH", "-dNOPAUSE", "-dSAFER", "-sDEVICE=pdfwrite", "-sPAPERSIZE=letter",
                    f"-sOutputFile={path}", source], check=True)
    os.remove(source)


def pwg_header(width, height, dpi):
    header = bytearray(1796)
    header[0:9] = b"PwgRaster"
    def u32(offset, value):
        struct.pack_into(">I", header, offset, value)
    u32(276, dpi); u32(280, dpi)
    u32(352, 612); u32(356, 792)
    u32(372, width); u32(376, height)
    u32(384, 8); u32(388, 24); u32(392, width * 3)
    u32(400, 19); u32(420, 3)
    u32(456, 1); u32(460, 1)
    header[1732:1732 + 18] = b"na_letter_8.5x11in"
    return bytes(header)


def make_pwg(path, megabytes):
    dpi, width, height = 600, 5100, 6600
    rng = random.Random(7)
    # A few distinct lines of literal runs (no compression): repeat 0, then runs of 128 pixels (257-128 = 129).
    lines = []
    for _ in range(16):
        data = bytearray([0])
        left = width
        while left > 0:
            run = min(128, left)
            data.append(257 - run if run > 1 else 0)
            data += bytes(rng.getrandbits(8) for _ in range(run * 3))
            left -= run
        lines.append(bytes(data))
    page_bytes = 1796 + height * len(lines[0])
    pages = max(1, -(-(megabytes * 1024 * 1024) // page_bytes))  # at least the size asked for
    with open(path, "wb") as handle:
        handle.write(b"RaS2")
        for _ in range(pages):
            handle.write(pwg_header(width, height, dpi))
            for row in range(height):
                handle.write(lines[row % len(lines)])
    return pages


def rss_kb(pid):
    try:
        with open(f"/proc/{pid}/status") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def children(pid):
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []


def cpu_seconds(pid):
    """utime + stime of the process and of its children it waited for (proc(5) stat fields 14-17)."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def print_job_request(uri, document_format):
    """Print-Job's operation attributes, as a benchmark's client sends them (the document follows)."""
    return ipp.request(ipp.PRINT_JOB, uri, {"requesting-user-name": "bench", "document-format": document_format})


def job(uri, path, document_format, printer_pid, cpu=False):
    host_port = uri.split("//", 1)[1].split("/", 1)[0]
    base = f"http://{host_port}"
    peak = [0]
    done = threading.Event()

    def sample():
        while not done.is_set():
            total = rss_kb(printer_pid) + sum(rss_kb(child) for child in children(printer_pid))
            peak[0] = max(peak[0], total)
            time.sleep(POLL_SECONDS)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    body = print_job_request(uri, document_format)
    size = os.path.getsize(path)

    def stream():
        yield body
        with open(path, "rb") as handle:
            while True:
                chunk = handle.read(1 << 20)
                if not chunk:
                    return
                yield chunk

    cpu_before = cpu_seconds(printer_pid)
    start = time.monotonic()
    ipp.post(uri, stream(), len(body) + size, timeout=JOB_TIMEOUT_SECONDS)
    with urllib.request.urlopen(f"{base}/api/v1/wait?jobs=1&timeout={JOB_TIMEOUT_SECONDS}",
                                timeout=JOB_TIMEOUT_SECONDS + 10) as answer:
        records = json.load(answer)
    elapsed = time.monotonic() - start
    done.set()
    sampler.join()
    record = records[-1]
    if cpu:
        # The worker is reaped once the job has ended; its time is then in the printer's children fields.
        print(f"{elapsed:.3f} {cpu_seconds(printer_pid) - cpu_before:.3f} {record['job-state']} "
              f"{len(record['impressions'])}")
        return
    print(f"{elapsed:.3f} {peak[0] / 1024:.1f} {record['job-state']} {len(record['impressions'])}")


def time_command(command):
    start = time.monotonic()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(f"{time.monotonic() - start:.3f}")


def main():
    verb = sys.argv[1] if len(sys.argv) > 1 else ""
    if verb == "make-pdf":
        make_pdf(sys.argv[2], int(sys.argv[3]))
    elif verb == "make-pwg":
        print(make_pwg(sys.argv[2], int(sys.argv[3])))
    elif verb == "job":
        job(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]))
    elif verb == "job-cpu":
        job(sys.argv[2], sys.argv[3], sys.argv[4], int(sys.argv[5]), cpu=True)
    elif verb == "time-command" and sys.argv[2] == "--":
        time_command(sys.argv[3:])
    else:
        print(__doc__, file=sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
