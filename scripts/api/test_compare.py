"""Snapshots. `vprinter compare ACTUAL EXPECTED` on job folders, folders of PNGs and single PNGs:
identical jobs pass; the same document moved by 2 mm, or on other media, fails with the side named; --update makes
the actual sides the expected ones; --diff writes difference images; the thresholds decide the exit status."""
import json
import os
import shutil

import pytest
from printed import make_pdf, read
from vptest import records
from vptest.printer import run_vprinter, start
from vptest.waiting import WAIT_LIMIT


@pytest.fixture(scope="module")
def jobs(tmp_path_factory):
    """Four jobs on a 72 dpi printer (small sides keep the comparisons quick): the invoice twice, with page 2
    moved right by 2 mm, and on A4 instead of letter."""
    folder = str(tmp_path_factory.mktemp("compare"))
    printer = start("--render-dpi", "72", work_dir=folder)
    try:
        invoice = read(make_pdf(folder, "invoice"))
        moved = read(make_pdf(folder, "moved", shift_mm={2: 2}))
        ids = {
            "first": printer.print_job(invoice, name="first"),
            "again": printer.print_job(invoice, name="again"),
            "moved": printer.print_job(moved, name="moved"),
            "a4": printer.print_job(invoice, name="a4", media="iso_a4_210x297mm"),
        }
        printer.checked("GET", "/api/v1/wait?count=4&timeout=%d" % WAIT_LIMIT, 200)
    finally:
        printer.stop()
    records.check_folder(printer.output_dir)
    jobs_folder = os.path.join(printer.output_dir, "jobs")
    return folder, {name: os.path.join(jobs_folder, str(job)) for name, job in ids.items()}


def compare(*arguments):
    return run_vprinter("compare", *arguments)


def test_identical_jobs_pass(jobs):
    _, job = jobs
    status, out, err = compare(job["again"], job["first"])
    assert status == 0, out + err
    lines = out.splitlines()
    assert [line.split()[:4] for line in lines[:3]] == [
        ["side", "1", "page-0001.png", "pass"], ["side", "2", "page-0002.png", "pass"],
        ["side", "3", "page-0003.png", "pass"]]
    assert "PSNR inf dB" in lines[0] and "SSIM 1.0000" in lines[0]
    assert lines[-1].startswith("compare: 3 of 3 sides pass")


def test_a_page_moved_by_2_mm_fails_with_its_side_named(jobs, tmp_path):
    _, job = jobs
    diff = str(tmp_path / "diff")
    status, out, err = compare(job["moved"], job["first"], "--diff", diff)
    assert status == 1, out + err
    by_side = {line.split()[1]: line for line in out.splitlines() if line.startswith("side ")}
    assert " pass" in by_side["1"] and " pass" in by_side["3"]
    assert " FAIL" in by_side["2"] and "page-0002.png" in by_side["2"], by_side["2"]
    assert "SSIM" in by_side["2"] and "pixels differ" in by_side["2"]
    assert out.splitlines()[-1].startswith("compare: 2 of 3 sides pass")
    # Only the side that is not identical gets a difference image.
    assert os.listdir(diff) == ["page-0002-diff.png"]
    assert read(os.path.join(diff, "page-0002-diff.png")).startswith(b"\x89PNG")

    status, out, _ = compare(job["moved"], job["first"], "--json")
    report = json.loads(out)
    assert status == 1 and report["passed"] is False
    side = report["sides"][1]
    assert side["status"] == "failed" and side["psnr"] < 30 and side["ssim"] < 0.99
    assert report["sides"][0]["identical"] is True and report["sides"][0]["psnr"] is None

    # The thresholds decide: a PSNR floor low enough lets the moved page pass.
    status, out, _ = compare(job["moved"], job["first"], "--min-psnr", "5")
    assert status == 0, out


def test_other_media_fails_with_the_size_of_each_side(jobs):
    _, job = jobs
    status, out, err = compare(job["a4"], job["first"])
    assert status == 1, out + err
    first = out.splitlines()[0]
    assert first.startswith("side 1  page-0001.png  FAIL") and "size 595 x 842, expected 612 x 792" in first


def test_update_makes_the_actual_sides_the_expected_ones(jobs, tmp_path):
    _, job = jobs
    golden = str(tmp_path / "golden")
    # A golden folder that does not exist yet: every side is extra, and --update creates it.
    status, out, _ = compare(job["first"], golden)
    assert status == 1 and "has no expected side" in out
    status, out, err = compare(job["first"], golden, "--update")
    assert status == 0 and "updated" in err, out + err
    assert sorted(os.listdir(golden)) == ["page-0001.png", "page-0002.png", "page-0003.png"]
    assert compare(job["again"], golden)[0] == 0
    # The document changed on purpose: compare fails, --update accepts the change, then it passes.
    assert compare(job["moved"], golden)[0] == 1
    assert compare(job["moved"], golden, "--update")[0] == 0
    status, out, _ = compare(job["moved"], golden)
    assert status == 0, out


def test_missing_and_extra_sides_and_single_files(jobs, tmp_path):
    _, job = jobs
    two = tmp_path / "two"
    two.mkdir()
    for name in ["page-0001.png", "page-0002.png"]:
        shutil.copy(os.path.join(job["first"], name), two / name)
    status, out, _ = compare(str(two), job["first"])
    assert status == 1 and "side 3  page-0003.png  FAIL  no actual side for page-0003.png" in out, out
    status, out, _ = compare(job["first"], str(two))
    assert status == 1 and "page-0003.png has no expected side" in out, out
    one = os.path.join(job["first"], "page-0001.png")
    assert compare(os.path.join(job["again"], "page-0001.png"), one)[0] == 0
    assert compare(os.path.join(job["moved"], "page-0002.png"), os.path.join(job["first"], "page-0002.png"))[0] == 1
    single = str(tmp_path / "single.png")
    assert compare(one, single, "--update")[0] == 0 and read(single) == read(one)


def test_bad_input_is_a_usage_error(jobs, tmp_path):
    _, job = jobs
    assert compare(str(tmp_path / "nothing"), job["first"])[0] == 2
    not_png = tmp_path / "note.txt"
    not_png.write_text("hello")
    assert compare(str(not_png), job["first"])[0] == 2
    fake = tmp_path / "fake.png"
    fake.write_text("not a png")
    status, out, _ = compare(str(fake), os.path.join(job["first"], "page-0001.png"))
    assert status == 1 and "cannot read" in out, out
    assert compare(job["first"])[0] == 2
    assert compare(job["first"], job["again"], "--min-ssim", "2")[0] == 2


def test_a_maximum_of_differing_pixels_catches_a_changed_word(start_printer, tmp_path):
    folder = str(tmp_path)
    printer = start_printer("--render-dpi", "72")
    original = printer.print_job(make_pdf(folder, "a", pages=[["Total 99.00 EUR"]]))
    changed = printer.print_job(make_pdf(folder, "b", pages=[["Total 98.00 EUR"]]))
    printer.checked("GET", "/api/v1/wait?count=2&timeout=%d" % WAIT_LIMIT, 200)
    printer.stop()
    jobs = os.path.join(printer.output_dir, "jobs")
    actual, expected = os.path.join(jobs, str(changed)), os.path.join(jobs, str(original))
    status, out, _ = compare(actual, expected, "--json")
    side = json.loads(out)["sides"][0]
    assert side["differing-pixels"] > 0
    # PSNR and SSIM over a whole page barely move for one digit; a pixel budget of 0 does not let it through.
    status, out, _ = compare(actual, expected, "--max-diff-pixels", "0")
    assert status == 1 and "differing pixels > 0" in out, out


# Real renders of one PDF by Debian 12 and Debian 13, and changed PDFs rendered by Debian 12
# (Tests/ImageCheckTests/Fixtures/releases/README.md).
RELEASES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "ImageCheckTests",
                        "Fixtures", "releases")


def release_render(folder, name):
    return os.path.join(RELEASES, folder, name + ".png")


@pytest.mark.parametrize("document", ["text", "mixed", "bench"])
def test_renders_of_two_releases_fail_the_default_and_pass_across_releases(document):
    actual, expected = release_render("debian13", document), release_render("debian12", document)
    status, out, err = compare(actual, expected)
    assert status == 1 and "FAIL" in out, out + err
    status, out, err = compare(actual, expected, "--across-releases", "--json")
    assert status == 0, out + err
    report = json.loads(out)
    assert report["passed"] and report["thresholds"]["across-releases"] is True
    assert report["thresholds"]["min-psnr"] is None
    (side,) = report["sides"]
    assert side["tolerant"]["passed"] and side["tolerant"]["regions"] == [] and side["psnr"] < 30


@pytest.mark.parametrize("change, original, reason", [
    ("text-glyph-swapped", "text", "of another shape"),
    ("mixed-line-moved", "mixed", "regions beyond 1 px"),
    ("mixed-colour-changed", "mixed", "tiles of another colour"),
])
def test_a_real_change_fails_across_releases_with_its_reason(change, original, reason):
    status, out, err = compare(release_render("changed", change), release_render("debian13", original),
                               "--across-releases")
    assert status == 1, out + err
    assert reason in out.splitlines()[0], out
    assert "across releases" in out.splitlines()[-1], out
