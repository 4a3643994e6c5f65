"""A fleet served by several processes: each with the same --config and its --shard INDEX/COUNT (given as a
number, or as a StatefulSet pod's name ending in its ordinal) serves every COUNT-th printer of the list from INDEX,
named and pathed as in the whole fleet, and numbers its jobs so that no two slices share a job-id."""
import json

from vprinter import ipp

from vptest.printer import run_vprinter

PRINTERS = 7
SLICES = 3


def test_three_slices_serve_the_fleet_between_them_with_job_ids_of_their_own(start_printer, tmp_path):
    config = tmp_path / "fleet.json"
    names = ["desk-%d" % number for number in range(PRINTERS)]
    config.write_text(json.dumps({"printers": [{"profile": "duplex-laser", "name": name} for name in names]}))
    served, job_ids = [], []
    for index in range(SLICES):
        shard = "%d/%d" % (index, SLICES) if index != 1 else "vprinter-1/%d" % SLICES
        process = start_printer("--config", str(config), "--shard", shard, "--render-dpi", "72")
        mine = names[index::SLICES]
        assert [uri.rsplit("/", 1)[1] for uri in process.uris] == mine
        assert [entry["printer-name"] for entry in process.checked("GET", "/api/v1/printers")] == mine
        served += mine
        answer = ipp.send(process.uris[0], ipp.request(ipp.GET_PRINTER_ATTRIBUTES, process.uris[0]))
        assert answer.status == 0 and answer.get("printer-name") == mine[0]
        for _ in range(2):
            job_ids.append(process.print_job())
        assert "slice %d/%d of the fleet" % (index, SLICES) in process.log
    assert sorted(served) == sorted(names)
    # Slice i numbers its jobs i + 1, i + 1 + 3, ...: six jobs, six job-ids.
    assert job_ids == [1, 4, 2, 5, 3, 6]


def test_a_slice_beyond_the_count_is_a_usage_error(tmp_path):
    for shard in ("3/3", "1/0", "vprinter/3"):
        status, _, err = run_vprinter("--shard", shard, "--port", "0", "--no-dnssd")
        assert status == 2, err
        assert "--shard needs INDEX/COUNT" in err
