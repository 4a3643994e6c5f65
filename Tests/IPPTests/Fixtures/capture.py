#!/usr/bin/env python3
"""Captures the IPP bodies of real clients and servers as test fixtures.

  capture.py listen PORT OUT.bin   accept one HTTP POST on 127.0.0.1:PORT (as ipptool sends it), save its
                                   body (Content-Length or chunked) to OUT.bin, answer successful-ok
  capture.py ask URL IN.bin OUT.bin POST IN.bin to URL as application/ipp, save the response body to OUT.bin
"""
import socket
import sys
import urllib.request


def read_exactly(stream, count):
    data = stream.read(count)
    if len(data) != count:
        raise EOFError("connection closed early")
    return data


def read_body(stream, headers):
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = b""
        while True:
            size = int(stream.readline().split(b";")[0].strip(), 16)
            if size == 0:
                while stream.readline().strip():
                    pass
                return body
            body += read_exactly(stream, size)
            stream.readline()
    return read_exactly(stream, int(headers.get("content-length", "0")))


def listen(port, out_path):
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", port))
    server.listen(1)
    while True:
        connection, _ = server.accept()
        stream = connection.makefile("rwb")
        request_line = stream.readline()
        headers = {}
        while True:
            line = stream.readline().decode("latin-1").strip()
            if not line:
                break
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        if not request_line.startswith(b"POST"):
            connection.close()
            continue
        if headers.get("expect", "").lower() == "100-continue":
            stream.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            stream.flush()
        body = read_body(stream, headers)
        with open(out_path, "wb") as out:
            out.write(body)
        request_id = body[4:8]
        response = (b"\x02\x00\x00\x00" + request_id + b"\x01"
                    + b"\x47\x00\x12attributes-charset\x00\x05utf-8"
                    + b"\x48\x00\x1battributes-natural-language\x00\x02en"
                    + b"\x03")
        stream.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/ipp\r\nConnection: close\r\n"
                     + b"Content-Length: %d\r\n\r\n" % len(response) + response)
        stream.flush()
        connection.close()
        return


def ask(url, in_path, out_path):
    with open(in_path, "rb") as source:
        body = source.read()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/ipp"})
    with urllib.request.urlopen(request, timeout=10) as answer, open(out_path, "wb") as out:
        out.write(answer.read())


if __name__ == "__main__":
    if sys.argv[1] == "listen":
        listen(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == "ask":
        ask(sys.argv[2], sys.argv[3], sys.argv[4])
