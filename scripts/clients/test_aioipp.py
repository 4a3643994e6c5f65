"""aioipp (the IPP client of Home Assistant's IPP integration, from PyPI: the maintained fork of pyipp, imported as
pyipp) reading every profile.

aioipp keeps pyipp's model files (brianegge/aioipp, forked from ctalkington/python-ipp: pyipp/models.py
Info.from_dict, State.from_dict, Printer.merge_marker_data, and its own Counters.from_dict). It reads
printer-device-id (MFG, MDL, CMD, SN), printer-make-and-model, printer-name, printer-uuid, printer-up-time,
printer-more-info, printer-firmware-string-version, the printer state, the marker-* lists and the page counters
(printer-impressions-completed, printer-pages-completed, printer-media-sheets-completed: its const.py
DEFAULT_PRINTER_ATTRIBUTES); Home Assistant's integration keys the device on the TXT UUID it discovered.
"""
import asyncio
import importlib.metadata

import pytest
from pyipp import IPP

from conftest import PROFILES, get_printer_attributes, record

CLIENT = "aioipp"
# The User-Agent aioipp sends: still pyipp's name, with aioipp's version (pyipp/ipp.py: f"PythonIPP/{VERSION}",
# VERSION = metadata.version("aioipp")).
USER_AGENT = "PythonIPP/" + importlib.metadata.version("aioipp")


async def read(uri):
    async with IPP(uri) as client:
        return await client.printer()


@pytest.mark.parametrize("profile", PROFILES)
def test_aioipp_reads_name_state_and_markers(profile, fleet, browse):
    printer = fleet[profile]
    state = asyncio.run(read(printer.uri))
    _, attributes = get_printer_attributes(printer.uri, ["all"])
    device_id = dict(field.split(":", 1) for field in attributes["printer-device-id"][0].rstrip(";").split(";"))
    assert state.info.name == attributes["printer-make-and-model"][0]
    assert state.info.printer_name == attributes["printer-name"][0]
    assert state.info.manufacturer == device_id["MFG"] and state.info.model == device_id["MDL"]
    assert state.info.serial == device_id.get("SN"), (state.info.serial, device_id)
    # aioipp 0.18 (as pyipp 0.17) does not ask for printer-uuid (Home Assistant takes the UUID from the TXT record it
    # discovered); should a later release read it, it must agree with the TXT UUID.
    txt_uuid = browse.ipp(printer.service)[0].txt.get("uuid")
    assert txt_uuid and attributes["printer-uuid"][0] == "urn:uuid:" + txt_uuid
    assert state.info.uuid in (None, txt_uuid), (state.info.uuid, txt_uuid)
    assert state.info.uptime > 0 and (state.info.more_info or "").startswith("http")
    assert state.info.version == attributes["printer-firmware-string-version"][0]
    assert state.state.printer_state == "idle", state.state
    # aioipp's page counters (new in the fork): the printer's printer-*-completed, None where it reports none.
    for counter, name in (("pages_completed", "printer-pages-completed"),
                          ("media_sheets_completed", "printer-media-sheets-completed")):
        assert getattr(state.counters, counter) == attributes.get(name, [None])[0], (counter, state.counters)
    # aioipp orders its markers by name; each must carry the level the printer gives that supply.
    expected = sorted(zip(attributes["marker-names"], attributes["marker-levels"]))
    assert sorted((marker.name, marker.level) for marker in state.markers) == expected, state.markers
    assert all(marker.color.startswith("#") or marker.color == "none" for marker in state.markers)
    record(CLIENT, profile, f"reads name, state {state.state.printer_state}, {len(state.markers)} markers"
           + (f", SN {state.info.serial}" if state.info.serial else ""))


def test_an_aioipp_query_is_journaled_with_its_user_agent(fleet):
    printer = fleet[PROFILES[0]]
    since = max((entry["id"] for entry in printer.requests()), default=0)
    asyncio.run(read(printer.uri))
    entries = printer.requests(since=since, kind="ipp", client=USER_AGENT)
    assert [entry["ipp"]["operation"] for entry in entries] == ["Get-Printer-Attributes"], entries
    assert entries[0]["ipp"]["status"] == "successful-ok"
    requested = {value["value"] for attribute in entries[0]["ipp"]["groups"][0]["attributes"]
                 if attribute["name"] == "requested-attributes" for value in attribute["values"]}
    assert {"printer-state", "marker-levels"} <= requested, requested
    # A real client's query breaks no MUST (it may ask for attributes this printer lacks: info findings).
    errors = [finding for finding in entries[0].get("findings", []) if finding["severity"] == "error"]
    assert not errors, errors
