"""Facts a test can check without pixels. Per impression: blank, ink coverage per channel, colored
pixels, ink cut by the margins; per job: ignored-attributes (the unsupported group the client got) and warnings
(PDF syntax errors, raster pages made for other media or sides, a document in another format than declared). Every
record is checked against docs/job-record.schema.json by the folder fixture."""
from printed import make_pdf, make_pwg
from vptest import documents
from vptest.waiting import WAIT_LIMIT


def record(printer, job):
    return printer.checked("GET", "/api/v1/jobs/%d" % job, 200)


def pdf_of(folder, name, program):
    """A one-page letter PDF of a PostScript program's marks."""
    return documents.pdf_of_postscript(folder, name, "%!PS\n<< /PageSize [612 792] >> setpagedevice\n" + program
                                       + "\nshowpage\n")


def test_each_impression_says_blank_coverage_color_and_cut_ink(start_printer, tmp_path):
    printer = start_printer("--profile", "color-inkjet", "--render-dpi", "72")
    blank = printer.print_job(pdf_of(tmp_path, "blank", ""), name="blank")
    red = printer.print_job(pdf_of(tmp_path, "red", "1 0 0 setrgbcolor 153 198 306 396 rectfill"), name="red")
    gray = printer.print_job(pdf_of(tmp_path, "gray", "0 setgray 153 198 306 396 rectfill"), name="gray",
                             print_color_mode="monochrome")
    # A square in the page's corner, inside the 3 mm margins of the profile: drawn there and cut.
    corner = printer.print_job(pdf_of(tmp_path, "corner", "0 setgray 0 0 5 5 rectfill"), name="corner")
    printer.checked("GET", "/api/v1/wait?count=4&timeout=%d" % WAIT_LIMIT, 200)

    side = record(printer, blank)["impressions"][0]
    assert side["blank"] is True and side["has-color"] is False and side["outside-printable-area"] is False
    assert side["ink-coverage"] == {"cyan": 0, "magenta": 0, "yellow": 0, "black": 0}
    side = record(printer, red)["impressions"][0]
    # A quarter of the page, red: magenta and yellow at 25 %, nothing else.
    assert side["blank"] is False and side["has-color"] is True
    assert abs(side["ink-coverage"]["magenta"] - 25) < 0.5 and abs(side["ink-coverage"]["yellow"] - 25) < 0.5
    assert side["ink-coverage"]["cyan"] == 0 and side["ink-coverage"]["black"] == 0
    side = record(printer, gray)["impressions"][0]
    assert side["color"] is False and side["has-color"] is False
    assert list(side["ink-coverage"]) == ["black"] and abs(side["ink-coverage"]["black"] - 25) < 0.5
    assert record(printer, gray)["print-color-mode-actual"] == "monochrome"
    side = record(printer, corner)["impressions"][0]
    assert side["outside-printable-area"] is True and side["blank"] is True


def test_ignored_attributes_record_what_the_client_was_told(printer, tmp_path):
    pdf = make_pdf(tmp_path, "invoice")
    # duplex-laser has finishings none only and no color; print-color-mode color is not among its values.
    job = printer.print_job(pdf, name="ignored", finishings=4, print_color_mode="color",
                            sides="two-sided-long-edge", x_no_such_attribute="1")
    printer.checked("GET", "/api/v1/wait?count=1&timeout=%d" % WAIT_LIMIT, 200)
    job_record = record(printer, job)
    ignored = {entry["name"]: entry for entry in job_record["ignored-attributes"]}
    assert set(ignored) == {"finishings", "print-color-mode", "x-no-such-attribute"}, ignored
    assert ignored["finishings"]["reason"] == "unsupported-value" and ignored["finishings"]["group"] == "job"
    assert ignored["print-color-mode"]["sent"] == "color"
    assert ignored["print-color-mode"]["used"] == "monochrome", ignored["print-color-mode"]
    assert ignored["x-no-such-attribute"]["reason"] == "unsupported-attribute"
    assert ignored["x-no-such-attribute"]["sent"] == "1"
    assert job_record["sides-actual"] == "two-sided-long-edge"
    assert job_record["media-actual"] == "na_letter_8.5x11in"


def test_warnings_record_what_was_wrong_but_printable(printer, tmp_path):
    stream = b"BT /F1 12 Tf 10 10 Td (Hello) Tj ET nosuchoperator"
    broken = (b"%PDF-1.4\n1 0 obj <</Type /Catalog /Pages 2 0 R>> endobj\n"
              b"2 0 obj <</Type /Pages /Kids [3 0 R] /Count 1>> endobj\n"
              b"3 0 obj <</Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 4 0 R /Resources <<>>>> endobj\n"
              + (b"4 0 obj <</Length %d>> stream\n" % len(stream)) + stream + b"\nendstream endobj\n"
              + b"trailer <</Root 1 0 R>>\n%%EOF\n")
    pdf_job = printer.print_job(broken, name="broken")
    # A letter-size, one-sided raster printed on A4, two-sided.
    pwg = make_pwg(tmp_path, "letter", dpi=72, pages=[["one"], ["two"]])
    raster_job = printer.print_job(pwg, name="letter raster", document_format="image/pwg-raster",
                                   media="iso_a4_210x297mm", sides="two-sided-long-edge")
    # A PDF declared as PWG raster.
    declared_job = printer.print_job(make_pdf(tmp_path, "invoice"), name="pdf", document_format="image/pwg-raster")
    ended = printer.checked("GET", "/api/v1/wait?count=3&timeout=%d" % WAIT_LIMIT, 200)
    assert [job["job-state"] for job in ended] == ["completed"] * 3

    warnings = record(printer, pdf_job)["warnings"]
    assert warnings and all(w["kind"] == "pdf" and w["document"] == 1 for w in warnings)
    assert any("Unknown operator 'nosuchoperator'" in w["message"] for w in warnings), warnings
    warnings = record(printer, raster_job)["warnings"]
    assert [w["kind"] for w in warnings] == ["raster-page-size", "raster-duplex"], warnings
    assert "215.9 x 279.4 mm" in warnings[0]["message"] and "210.0 x 297.0 mm" in warnings[0]["message"]
    assert warnings[1]["page"] == 1 and "two-sided-long-edge" in warnings[1]["message"]
    # pdfwrite does not embed the invoice's Helvetica: a font-substituted warning follows (tested below).
    warnings = record(printer, declared_job)["warnings"]
    assert [w["kind"] for w in warnings] == ["document-format", "font-substituted"], warnings
    assert "image/pwg-raster" in warnings[0]["message"] and "application/pdf" in warnings[0]["message"]


# A fontconfig file that knows DejaVu only: where the render worker read the machine's configuration, Helvetica
# and Arial would print as DejaVu Sans.
DEJAVU_ONLY = """<?xml version="1.0"?>
<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir prefix="xdg">fontconfig</cachedir></fontconfig>
"""


def test_a_font_the_pdf_does_not_embed_prints_with_vprinters_fonts_and_is_a_warning(start_printer, tmp_path):
    """fonts/fonts.conf (docs/snapshots.md): the worker uses vprinter's font configuration, not the machine's
    (FONTCONFIG_FILE here names one that knows DejaVu only), and records each font it substituted."""
    machine = tmp_path / "dejavu-only.conf"
    machine.write_text(DEJAVU_ONLY)
    printer = start_printer("--render-dpi", "72", env={"FONTCONFIG_FILE": str(machine)})
    # Helvetica on page 1 and Calibri on page 2, neither embedded (NeverEmbed: Ghostscript 10.05, Debian 13's,
    # embeds the font it substitutes unless told not to). Calibri, not Arial: Poppler 25 (Debian 13) prints Arial,
    # Times New Roman and Courier New with the standard fonts' URW clones itself, Poppler 22 looks them up.
    pdf = documents.ghostscript("pdfwrite", tmp_path / "fonts.pdf", "-dEmbedAllFonts=false", "-dSubsetFonts=false",
                                program="<< /NeverEmbed [/Helvetica /Calibri] >> setdistillerparams "
                                "/Helvetica findfont 20 scalefont setfont 72 700 moveto (Helvetica) show "
                                "showpage /Calibri findfont 20 scalefont setfont 72 700 moveto (Calibri) show showpage")
    with open(pdf, "rb") as file:
        job = printer.print_job(file.read(), name="fonts")
    printer.checked("GET", "/api/v1/wait?count=1&timeout=%d" % WAIT_LIMIT, 200)
    warnings = record(printer, job)["warnings"]
    assert [(w["kind"], w["document"], w["page"]) for w in warnings] == [
        ("font-substituted", 1, 1), ("font-substituted", 1, 2)], warnings
    assert "font Helvetica is not embedded" in warnings[0]["message"], warnings
    assert "(NimbusSans-Regular.otf)" in warnings[0]["message"], warnings
    assert "font Calibri is not embedded" in warnings[1]["message"], warnings
    assert "(Carlito-Regular.ttf)" in warnings[1]["message"], warnings
