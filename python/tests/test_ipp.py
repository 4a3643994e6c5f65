"""The IPP encoder and decoder of the package, byte for byte against RFC 8010, and the PDF maker."""
import struct
import subprocess

import pytest

from vprinter import documents, ipp


def test_an_integer_attribute_is_tag_name_length_name_value_length_value():
    encoded = ipp._attribute("copies", 2)
    assert encoded == bytes([ipp.INTEGER]) + struct.pack(">H", 6) + b"copies" + struct.pack(">Hi", 4, 2)


def test_a_second_value_has_an_empty_name():
    encoded = ipp._attribute("finishings", ["staple", "punch"])
    first = bytes([ipp.ENUM]) + struct.pack(">H", 10) + b"finishings" + struct.pack(">Hi", 4, 4)
    second = bytes([ipp.ENUM]) + struct.pack(">H", 0) + struct.pack(">Hi", 4, 5)
    assert encoded == first + second


def test_page_ranges_are_ranges_of_integer_from_strings_tuples_or_lists():
    one = ipp._attribute("page-ranges", "2-3")
    assert one == bytes([ipp.RANGE_OF_INTEGER]) + struct.pack(">H", 11) + b"page-ranges" + struct.pack(
        ">Hii", 8, 2, 3)
    assert ipp._attribute("page-ranges", (2, 3)) == one
    several = ipp._attribute("page-ranges", [(1, 1), "3-4"])
    assert several.count(bytes([ipp.RANGE_OF_INTEGER])) == 2


def test_an_enum_keyword_is_sent_as_its_number_and_an_unknown_one_is_refused():
    assert ipp._attribute("orientation-requested", "landscape").endswith(struct.pack(">Hi", 4, 4))
    with pytest.raises(ValueError, match="orientation-requested"):
        ipp._attribute("orientation-requested", "sideways")


def test_a_collection_has_member_names_and_an_end():
    encoded = ipp._attribute("media-col", {"media-size": {"x-dimension": 21000, "y-dimension": 29700}})
    assert encoded[0] == ipp.BEGIN_COLLECTION
    assert encoded.count(bytes([ipp.MEMBER_NAME])) >= 3
    assert encoded.endswith(bytes([ipp.END_COLLECTION]) + struct.pack(">HH", 0, 0))
    # The nested collection and the outer one both end.
    assert encoded.count(bytes([ipp.END_COLLECTION, 0, 0, 0, 0])) == 2


def test_the_request_starts_with_version_operation_id_and_the_three_first_attributes():
    header = ipp.request_header(ipp.PRINT_JOB, "ipp://localhost:631/ipp/print", request_id=7)
    assert header[:8] == struct.pack(">BBHI", 2, 0, ipp.PRINT_JOB, 7)
    assert header[8] == ipp.OPERATION_ATTRIBUTES
    assert header.index(b"attributes-charset") < header.index(b"attributes-natural-language") < header.index(
        b"printer-uri")
    assert header.endswith(bytes([ipp.END_OF_ATTRIBUTES]))


def test_decode_reads_groups_additional_values_and_skips_collections():
    body = struct.pack(">BBHI", 2, 0, 0x0001, 1) + bytes([ipp.OPERATION_ATTRIBUTES])
    body += ipp._field(ipp.CHARSET, "attributes-charset", "utf-8")
    body += ipp._field(ipp.TEXT, "status-message", "busy, try again")
    body += bytes([ipp.JOB_ATTRIBUTES])
    body += ipp._field(ipp.INTEGER, "job-id", 12)
    body += ipp._attribute("job-state-reasons", ["job-incoming", "job-hold-until-specified"])
    body += ipp._attribute("media-col", {"media-size": {"x-dimension": 1}})
    body += ipp._field(ipp.BOOLEAN, "flag", True)
    body += bytes([ipp.END_OF_ATTRIBUTES])
    status, groups = ipp.decode(body)
    assert status == 0x0001
    assert groups[ipp.OPERATION_ATTRIBUTES]["status-message"] == ["busy, try again"]
    assert groups[ipp.JOB_ATTRIBUTES]["job-id"] == [12]
    assert groups[ipp.JOB_ATTRIBUTES]["job-state-reasons"] == ["job-incoming", "job-hold-until-specified"]
    assert "x-dimension" not in groups[ipp.JOB_ATTRIBUTES]
    assert groups[ipp.JOB_ATTRIBUTES]["flag"] == [True]


def test_decode_refuses_what_is_not_ipp():
    with pytest.raises(ipp.IPPError, match="not IPP"):
        ipp.decode(b"<html>")


def test_formats_come_from_the_file_name():
    assert ipp.format_of("a/b/Invoice.PDF") == "application/pdf"
    assert ipp.format_of("photo.jpeg") == "image/jpeg"
    assert ipp.format_of("noextension") == "application/octet-stream"


def test_the_pdf_maker_writes_pages_poppler_reads_back(tmp_path):
    path = tmp_path / "two.pdf"
    path.write_bytes(documents.pdf(["Invoice 42\nTotal (99.00)", "Second page"], size="a4"))
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True)
    pages = text.stdout.split("\f")
    assert "Invoice 42" in pages[0] and "Total (99.00)" in pages[0]
    assert "Second page" in pages[1]
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    assert "Pages:           2" in info
    assert "595 x 842 pts" in info


def test_a_pdf_needs_a_page():
    with pytest.raises(ValueError):
        documents.pdf([])
