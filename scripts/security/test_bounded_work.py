"""Work a client makes the printer do for others' jobs (docs/security.md): the text of raster sides is read by OCR
only for jobs the asker may see. Before, a user's text search (GET /api/v1/jobs?text=) ran OCR on every user's
jobs and filtered them afterwards."""
import os

from vptest.documents import pwg_of_postscript
from vptest.waiting import WAIT_LIMIT

from conftest import ALICE, BOB

INVOICE = "/Helvetica findfont 36 scalefont setfont 72 600 moveto (Invoice 4711 for Alice) show showpage\n"


def test_a_text_search_reads_only_the_jobs_the_asker_may_see(secured, tmp_path):
    pwg = pwg_of_postscript(tmp_path, "invoice", INVOICE, dpi=150)
    job = secured.print_job(pwg, document_format="image/pwg-raster", auth=ALICE)
    answer = secured.http("GET", "/api/v1/wait?count=1&timeout=%d" % WAIT_LIMIT, auth=ALICE)
    assert answer.status == 200, answer
    text = os.path.join(secured.output_dir, "jobs", str(job), "page-0001.txt")
    assert not os.path.exists(text)
    found = secured.http("GET", "/api/v1/jobs?text=invoice", auth=BOB)
    assert found.status == 200 and found.json() == []
    assert not os.path.exists(text), "OCR ran on alice's job for bob's search"
    # Alice's own search reads her job, by OCR, and finds it.
    mine = secured.http("GET", "/api/v1/jobs?text=invoice", auth=ALICE)
    assert [record["job-id"] for record in mine.json()] == [job]
    assert os.path.exists(text)
