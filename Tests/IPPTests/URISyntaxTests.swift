import Testing

@testable import IPP

/// A `uri` value is an RFC 3986 URI (RFC 8010 section 3.9): what `URISyntax` lets through and what it refuses,
/// the smuggled request line of a document-uri first.
@Suite struct URISyntaxTests {
    @Test func urisOfEveryKindThePrinterSeesPass() {
        for uri in [
            "ipp://localhost:8631/ipp/print", "ipps://[::1]:8631/ipp/print/office-1", "http://127.0.0.1:80/a%20b.pdf",
            "ftp://docs.example/pub/a.pdf", "urn:uuid:2f0a4c9e-1b2c-4d5e-8f90-0123456789ab", "mailto:a@b.example",
            "http://h/p?q=1&r=(2)*3;x=y,z!$'~_#frag", "geo:52.5,13.4",
        ] {
            #expect(URISyntax.problem(in: uri) == nil, "\(uri)")
        }
    }

    @Test func controlCharactersSpacesAndBytesBeyondASCIIAreRefused() {
        let smuggled = "http://127.0.0.1:8631/livez HTTP/1.1\r\nHost: x\r\n\r\nDELETE /api/v1/jobs"
        #expect(URISyntax.problem(in: smuggled) == .badByte(0x20, offset: 27))
        #expect(URISyntax.problem(in: "http://h/a\rb") == .badByte(0x0D, offset: 10))
        #expect(URISyntax.problem(in: "http://h/a\nb") == .badByte(0x0A, offset: 10))
        #expect(URISyntax.problem(in: "http://h/a\u{0}b") == .badByte(0x00, offset: 10))
        #expect(URISyntax.problem(in: "http://h/caf\u{E9}") == .badByte(0xC3, offset: 12))
        #expect(URISyntax.problem(in: "http://h/a\"b") == .badByte(UInt8(ascii: "\""), offset: 10))
        #expect(URISyntax.problem(in: "http://h/a<b>") == .badByte(UInt8(ascii: "<"), offset: 10))
    }

    @Test func aSchemeAndWellFormedPercentEscapesAreRequired() {
        for bad in ["", "/relative", ":nothing", "1http://h/", "ht tp://h/", "h_t://x"] {
            #expect(URISyntax.problem(in: bad) == .noScheme, "\(bad)")
        }
        #expect(URISyntax.problem(in: "http://h/%2") == .badPercentEncoding(offset: 9))
        #expect(URISyntax.problem(in: "http://h/%zz") == .badPercentEncoding(offset: 9))
        #expect(URISyntax.problem(in: "http://h/%0D%0A") == nil, "an escaped CR/LF is text, not a line end")
    }

    @Test func aProblemSaysWhatAndWhere() {
        let problem = URISyntax.problem(in: "http://h/a\r\n")
        #expect(problem?.description == "byte 11 is a carriage return, which a URI cannot hold (RFC 3986 section 2)")
    }
}
