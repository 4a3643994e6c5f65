import IPP
import PrintModel
import Testing

@testable import PrinterCore

/// The job record's `ignored-attributes` (docs/job-record.md): what the client sent of each attribute the printer
/// ignored, and what it printed instead, looked up by name among many attributes.
@Suite struct IgnoredAttributesTests {
    /// RFC 8011 section 4.1.7: each unsupported or repeated job attribute comes back in the unsupported group; the
    /// record names what was sent first and what was used.
    @Test func eachIgnoredAttributeAmongManyNamesWhatWasSentAndUsed() throws {
        let harness = try PrinterHarness()
        let unknown = (0..<20_000).map { IPPAttribute("x-unknown-\($0)", .integer(Int32($0))) }
        let job =
            [IPPAttribute("copies", .integer(2))] + unknown + [
                IPPAttribute("copies", .integer(3)),
                IPPAttribute("media", .keyword("x-no-such-media")), IPPAttribute("media", .keyword("x-nor-this")),
            ]
        let message = ippRequest(.printJob, [IPPAttribute("requesting-user-name", .name("t"))], job: job)
        let cache = harness.printer.cache
        let context = IPPRequestContext(
            message: message, uriAuthority: "localhost:631", user: "t",
            client: ClientInfo(address: "127.0.0.1", userAgent: nil), printerURI: "ipp://localhost:631/ipp/print",
            jobID: nil, attributes: cache)
        let checked = try harness.printer.checkJobRequest(context, forDocument: true).get()
        let ignored = checked.ignoredAttributes(context: context, printer: cache)
        let byName = Dictionary(grouping: ignored, by: \.name)
        #expect(ignored.count == unknown.count + 3)
        #expect(byName["x-unknown-7"]?.first?.reason == "unsupported-attribute")
        #expect(byName["x-unknown-7"]?.first?.sent == .number(7))
        #expect(byName["copies"]?.map(\.reason) == ["repeated"])
        #expect(byName["copies"]?.first?.sent == .number(3) && byName["copies"]?.first?.used == .number(2))
        #expect(byName["media"]?.map(\.reason) == ["unsupported-value", "repeated"])
        #expect(byName["media"]?.first?.sent == .string("x-no-such-media"))
    }

    /// A job-password sent to a printer that takes none (PWG 5100.11 section 7.1.2) is ignored, and the record says
    /// so without the PIN: the record is served to whoever may read jobs.
    @Test func anIgnoredPINIsRecordedAsItsLengthOnly() throws {
        let harness = try PrinterHarness()
        #expect(harness.printer.cache["job-password-supported"] == nil)
        let pin = IPPAttribute("job-password", .octetString(Array("8642".utf8)))
        let message = ippRequest(.printJob, [IPPAttribute("requesting-user-name", .name("t")), pin], job: [])
        let context = IPPRequestContext(
            message: message, uriAuthority: "localhost:631", user: "t",
            client: ClientInfo(address: "127.0.0.1", userAgent: nil), printerURI: "ipp://localhost:631/ipp/print",
            jobID: nil, attributes: harness.printer.cache)
        let checked = try harness.printer.checkJobRequest(context, forDocument: true).get()
        let ignored = checked.ignoredAttributes(context: context, printer: harness.printer.cache)
        #expect(ignored.map(\.name) == ["job-password"])
        #expect(ignored.first?.sent == .string("(redacted, 4 bytes)"))
    }
}
