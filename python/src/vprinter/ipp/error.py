"""The one error of the IPP module."""


class IPPError(Exception):
    """An IPP answer with an error status, an HTTP status other than 200, or bytes that are not IPP.

    ``status`` is the IPP status code (None when there is no IPP answer), ``attributes`` the answer's groups as
    decode() gives them, ``http_status`` the HTTP status when the answer was no 200.
    """

    def __init__(self, message, status=None, attributes=None, http_status=None):
        super().__init__(message)
        self.status = status
        self.attributes = attributes or {}
        self.http_status = http_status
