"""PCLm documents sent over IPP to every profile that lists application/PCLm, as a Mopria client sends them: made by
cups-filters' rastertopclm with the printer's preferred strip height and each compression; cut short; a plain PDF
labelled PCLm; and PCLm sent as application/octet-stream, which the printer must tell from PDF.
"""
import pytest

from conftest import PROFILES, WAIT_LIMIT, closest_resolution, get_printer_attributes, print_job, printed, record

CLIENT = "PCLm documents"


@pytest.mark.parametrize("profile", PROFILES)
def test_pclm_documents(profile, fleet, documents, tmp_path):
    printer = fleet[profile]
    _, attributes = get_printer_attributes(printer.uri, ["all"])
    if "application/PCLm" not in attributes["document-format-supported"]:
        assert not any(name.startswith("pclm-") for name in attributes), "pclm-* on a printer without PCLm"
        record(CLIENT, profile, "no PCLm (no pclm-* attributes)")
        return
    strip = attributes["pclm-strip-height-preferred"][0]
    dpi = closest_resolution(attributes["pclm-source-resolution-supported"])
    sides = []
    for compression in ("flate", "jpeg", "rle"):
        document = documents.get("pclm", dpi=dpi, compression=compression, strip=strip)
        job = printed(printer, document, "application/PCLm", name=f"pclm {compression}")
        assert job["impressions"][0]["dpi"] == dpi, "PCLm not rendered at its own resolution"
        sides.append(len(job["impressions"]))
    good = documents.get("pclm", dpi=dpi, strip=strip)
    job = printed(printer, good, "application/octet-stream", detected="application/PCLm", name="pclm as octet")
    assert job["documents"][0]["document-format-detected"] == "application/PCLm"

    data = open(good, "rb").read()
    cut = tmp_path / "cut.pclm"
    cut.write_bytes(data[: len(data) // 2])
    plain = documents.get("pdf")
    for path, expected in ((cut, "ends inside"), (plain, "%PCLm 1.0")):
        status, job_id, _ = print_job(printer, str(path), "application/PCLm", name="bad pclm")
        assert status in (0, 1) and job_id
        ended = printer.wait_for_job(job_id, timeout=WAIT_LIMIT)
        assert ended["job-state"] == "aborted", f"{path}: {ended['job-state']}"
        assert "document-format-error" in ended["job-state-reasons"], ended["job-state-reasons"]
        assert expected in ended["job-state-message"], ended["job-state-message"]
    record(CLIENT, profile, "flate/jpeg/rle and octet-stream print; truncated and PDF-as-PCLm: document-format-error")
