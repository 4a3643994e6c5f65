"""IPP (RFC 8010 / RFC 8011) for tests, standard library only: requests with any operation, version and attribute
groups, sent over HTTP or HTTPS, and answers decoded with every group, collection and out-of-band value; and
Print-Job with a job ticket in one call.

    answer = ipp.send(uri, ipp.request(ipp.GET_PRINTER_ATTRIBUTES, uri,
                                       {"requested-attributes": ["printer-state", "media-col-default"]}))
    assert answer.status == ipp.SUCCESSFUL_OK
    media = answer.group(ipp.PRINTER_ATTRIBUTES)["media-col-default"][0]["media-size"][0]

    job_id = ipp.print_job(uri, "invoice.pdf", copies=2, sides="two-sided-long-edge")

Values are typed by attribute name as the IPP model says (``copies`` an integer, ``sides`` a keyword,
``page-ranges`` a rangeOfInteger, ``media-col`` a dict, hence a collection, ``orientation-requested`` an enum,
which may be given as its keyword), or by a tag given with the value: ``Value(ENUM, 4)``, ``Value(NO_VALUE)``.
The modules: tags (the numbers), encoder, decoder, transport (HTTP), error.
"""
from .decoder import Message, TextWithLanguage, decode, decode_message
from .encoder import (CHARSET_ATTRIBUTES, ENUM_KEYWORDS, INTEGER_ATTRIBUTES, LANGUAGE_ATTRIBUTES, MIME_ATTRIBUTES,
                      NAME_ATTRIBUTES, RANGE_ATTRIBUTES, RESOLUTION_ATTRIBUTES, TEXT_ATTRIBUTES, URI_ATTRIBUTES, Value,
                      _attribute, _collection, _field, _range, _typed, _value, attribute, group, request,
                      request_header)
from .error import IPPError
from .tags import *  # noqa: F401,F403  (every tag, operation and status constant)
from .tags import FIRST_ERROR_STATUS, successful
from .transport import (CHUNK_SIZE, FORMATS, HTTPAnswer, exchange, format_of, insecure_context, post, print_job,
                        send)
