"""The IPP encoder and decoder of the package, byte for byte against RFC 8010, and the PDF maker."""
import datetime
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


def test_a_request_takes_any_version_id_target_and_groups_in_order():
    encoded = ipp.request(ipp.CREATE_PRINTER, "ipp://localhost:631/ipp/system", {"requesting-user-name": "admin"},
                          groups=[(ipp.PRINTER_ATTRIBUTES, {"printer-name": "desk 2"}), b"\x05raw"],
                          version=(1, 1), request_id=9, target="system-uri")
    assert encoded[:8] == struct.pack(">BBHI", 1, 1, ipp.CREATE_PRINTER, 9)
    assert ipp._field(ipp.URI, "system-uri", "ipp://localhost:631/ipp/system") in encoded
    assert ipp._field(ipp.NAME, "printer-name", "desk 2") in encoded
    assert encoded.index(b"system-uri") < encoded.index(b"requesting-user-name") < encoded.index(b"printer-name")
    assert encoded.endswith(bytes([ipp.PRINTER_ATTRIBUTES]) + ipp._field(ipp.NAME, "printer-name", "desk 2")
                            + b"\x05raw" + bytes([ipp.END_OF_ATTRIBUTES]))


def test_a_request_may_leave_out_charset_language_and_target_on_purpose():
    encoded = ipp.request(ipp.GET_JOBS, None, charset=None, natural_language=None)
    assert encoded == struct.pack(">BBHI", 2, 0, ipp.GET_JOBS, 1) + bytes([ipp.OPERATION_ATTRIBUTES,
                                                                           ipp.END_OF_ATTRIBUTES])


def test_values_with_a_tag_of_their_own_are_encoded_as_rfc_8010_says():
    assert ipp._attribute("x", ipp.Value(ipp.NO_VALUE)) == bytes([ipp.NO_VALUE]) + struct.pack(">H", 1) + b"x" \
        + struct.pack(">H", 0)
    assert ipp._attribute("x", ipp.Value(ipp.ENUM, 4)).endswith(struct.pack(">Hi", 4, 4))
    assert ipp._attribute("x", ipp.Value(ipp.OCTET_STRING, b"\x00\xff")).endswith(b"\x00\x02\x00\xff")
    with_language = ipp._attribute("x", ipp.Value(ipp.NAME_WITH_LANGUAGE, ("en", "Bob")))
    assert with_language.endswith(struct.pack(">H", 9) + b"\x00\x02en\x00\x03Bob")
    resolution = ipp._attribute("printer-resolution", (300, 600))
    assert resolution[0] == ipp.RESOLUTION and resolution.endswith(struct.pack(">Hiib", 9, 300, 600, 3))
    moment = datetime.datetime(2026, 3, 12, 9, 30, 5, 700000, tzinfo=datetime.timezone(datetime.timedelta(hours=-5)))
    assert ipp._attribute("x", moment).endswith(struct.pack(">HHBBBBBB", 11, 2026, 3, 12, 9, 30, 5, 7) + b"-\x05\x00")
    assert ipp._attribute("printer-uri", "ipp://h/p")[0] == ipp.URI
    assert ipp._attribute("document-format", "application/pdf")[0] == ipp.MIME_TYPE


def test_decode_message_gives_every_group_collections_and_every_kind_of_value():
    moment = datetime.datetime(2026, 3, 12, 9, 30, 5, tzinfo=datetime.timezone.utc)
    body = ipp.request(ipp.GET_JOBS, "ipp://h/p", {"status-message": "ok"}, groups=[
        (ipp.JOB_ATTRIBUTES, {"job-id": 1, "job-name": ipp.Value(ipp.NAME_WITH_LANGUAGE, ("de", "Rechnung")),
                              "printer-resolution": [(300, 300), (600, 600)]}),
        (ipp.JOB_ATTRIBUTES, {"job-id": 2, "date-time-at-creation": moment, "job-hold-until": ipp.Value(ipp.UNKNOWN),
                              "media-col": [{"media-size": {"x-dimension": 21000, "y-dimension": 29700},
                                             "media-type": "stationery"}, {"media-source": "main"}]}),
        (ipp.UNSUPPORTED_ATTRIBUTES, {"x-thing": ipp.Value(ipp.UNSUPPORTED),
                                      "blob": ipp.Value(ipp.OCTET_STRING, b"\1")}),
    ]) + b"%PDF-"
    message = ipp.decode_message(body)
    assert message.version == (2, 0) and message.operation == ipp.GET_JOBS and message.request_id == 1
    assert [tag for tag, _ in message.groups] == [ipp.OPERATION_ATTRIBUTES, ipp.JOB_ATTRIBUTES, ipp.JOB_ATTRIBUTES,
                                                  ipp.UNSUPPORTED_ATTRIBUTES]
    assert message.status_message == "ok" and message.data == b"%PDF-"
    first, second = message.groups_of(ipp.JOB_ATTRIBUTES)
    assert message.job_id == 1 and second["job-id"] == [2]
    assert first["job-name"] == ["Rechnung"] and first["job-name"][0].language == "de"
    assert first["printer-resolution"] == [(300, 300, 3), (600, 600, 3)]
    assert second["date-time-at-creation"] == [moment]
    assert second["job-hold-until"] == [ipp.Value(ipp.UNKNOWN)]
    assert second["media-col"] == [{"media-size": [{"x-dimension": [21000], "y-dimension": [29700]}],
                                    "media-type": ["stationery"]}, {"media-source": ["main"]}]
    assert message.group(ipp.UNSUPPORTED_ATTRIBUTES) == {"x-thing": [ipp.Value(ipp.UNSUPPORTED)], "blob": [b"\1"]}
    assert message.get("job-id", tag=ipp.JOB_ATTRIBUTES) == 1 and message.get("nothing", "none") == "none"


def test_every_prefix_of_a_message_is_a_clean_error():
    body = ipp.request(ipp.PRINT_JOB, "ipp://h/p", {"job-name": "cut"},
                       {"media-col": {"media-size": {"x-dimension": 21000}}, "copies": 2})
    ipp.decode_message(body)
    for length in range(len(body)):
        with pytest.raises(ipp.IPPError):
            ipp.decode_message(body[:length])


@pytest.mark.parametrize("attributes, problem", [
    (bytes([ipp.END_COLLECTION]) + struct.pack(">HH", 0, 0), "outside a collection"),
    (bytes([ipp.INTEGER]) + struct.pack(">H", 0) + struct.pack(">Hi", 4, 1), "without an attribute"),
    (bytes([ipp.INTEGER]) + struct.pack(">H", 1) + b"x" + struct.pack(">Hh", 2, 1), "has 2 bytes, not 4"),
    (ipp._field(ipp.BEGIN_COLLECTION, "c", "") + ipp._field(ipp.INTEGER, "", 1), "no member name"),
    (ipp._field(ipp.BEGIN_COLLECTION, "c", ""), "not ended"),
])
def test_a_broken_message_says_what_is_wrong(attributes, problem):
    body = struct.pack(">BBHI", 2, 0, 0, 1) + bytes([ipp.JOB_ATTRIBUTES]) + attributes + bytes([ipp.END_OF_ATTRIBUTES])
    with pytest.raises(ipp.IPPError, match=problem):
        ipp.decode_message(body)


def test_successful_is_the_0x00nn_class():
    assert ipp.successful(ipp.SUCCESSFUL_OK) and ipp.successful(0x0007)
    assert not ipp.successful(0x0100) and not ipp.successful(ipp.CLIENT_ERROR_NOT_AUTHORIZED)


def test_an_image_pdf_holds_the_pixels_as_given(tmp_path):
    pixels = bytes(index % 251 for index in range(64 * 36 * 3))
    path = tmp_path / "image.pdf"
    path.write_bytes(documents.image_pdf(pixels, 64, 36, size="a4"))
    listing = subprocess.run(["pdfimages", "-list", str(path)], capture_output=True, text=True, check=True).stdout
    assert listing.splitlines()[2].split()[3:6] == ["64", "36", "rgb"]
    subprocess.run(["pdfimages", str(path), str(tmp_path / "out")], check=True)
    assert (tmp_path / "out-000.ppm").read_bytes().endswith(pixels)
    assert "595 x 842 pts" in subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True).stdout
    with pytest.raises(ValueError, match="needs 6912 bytes"):
        documents.image_pdf(b"\0" * 10, 64, 36)


def test_pdf_file_numbers_the_objects_and_points_the_table_at_each():
    data = documents.pdf_file([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [] /Count 0 >>"])
    table = data.index(b"xref\n")
    offsets = [int(line.split()[0]) for line in data[table:].split(b"\n")[3:5]]
    assert [data[offset:offset + 7] for offset in offsets] == [b"1 0 obj", b"2 0 obj"]
    assert data.endswith(b"startxref\n%d\n%%%%EOF\n" % table)
