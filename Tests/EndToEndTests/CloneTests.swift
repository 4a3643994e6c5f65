import Foundation
import IPP
import PrinterCore
import TestSupport
import Testing
import VirtualPrinterKit

#if canImport(Glibc)
    import Glibc
#endif

/// `vprinter clone`: a printer started from the clone of a running printer answers Get-Printer-Attributes
/// `all,media-col-database` as the original does, volatile attributes aside; the same for CUPS's ippeveprinter
/// through a file written by `ipptool --ippserver`, operations-supported included.
@Suite(.timeLimit(.minutes(1))) struct CloneTests {
    static let avahi = ProcessInfo.processInfo.environment["VPRINTER_TEST_AVAHI"] == "1"

    /// The non-volatile attributes a printer answers to all,media-col-database, by name.
    static func answer(_ uri: String) throws -> [String: IPPAttribute] {
        let response = try IPPClient(uri: uri).send(
            ippRequest(
                .getPrinterAttributes, uri: uri,
                [IPPAttribute(name: "requested-attributes", values: [.keyword("all"), .keyword("media-col-database")])])
        )
        #expect(response.status == .successfulOK)
        var result: [String: IPPAttribute] = [:]
        for group in response.groups where group.tag == .printerAttributes {
            for attribute in group.attributes where !ProfileCloner.volatileAttributes.contains(attribute.name) {
                result[attribute.name] = attribute.canonical
            }
        }
        return result
    }

    /// The attributes whose values differ between two answers, or that only one of them has.
    static func differences(_ a: [String: IPPAttribute], _ b: [String: IPPAttribute]) -> [String] {
        Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted()
    }

    static func options(_ output: String) -> [String] {
        ["--port", "0", "--listen", "127.0.0.1", "--no-dnssd", "--no-render", "--output-dir", output]
    }

    @Test(arguments: ["office-mfp", "enterprise-laser", "receipt-printer", "airprint-raster"])
    func aCloneOfARunningPrinterAnswersTheSame(profile: String) throws {
        let scratch = try ScratchFolder()
        let (original, uris) = try VPrinterProcess.printer(
            Self.options(scratch.path + "/a") + ["--profile", profile], scratch: scratch)
        defer { _ = original.terminate() }
        let file = scratch.path + "/clone.json"
        let run = try runVPrinter(["clone", uris[0], "--out", file, "--timeout", "10"], scratch: scratch)
        #expect(run.status == 0, "\(run.err)")
        #expect(!run.err.contains("warning:"), "\(run.err)")
        let (copy, copyURIs) = try VPrinterProcess.printer(
            Self.options(scratch.path + "/b") + ["--profile", file], scratch: scratch)
        defer { _ = copy.terminate() }
        let before = try Self.answer(uris[0])
        let after = try Self.answer(copyURIs[0])
        #expect(before.count > 100)
        #expect(Self.differences(before, after) == [], "\(profile): attributes that differ")
    }

    @Test func aTLSPrinterWithCredentialsIsClonedOverIPPS() throws {
        let scratch = try ScratchFolder()
        let (original, uris) = try VPrinterProcess.printer(
            Self.options(scratch.path + "/a") + [
                "--profile", "enterprise-laser", "--tls", "--user", "bob:build er", "--admin", "bob",
            ], scratch: scratch)
        defer { _ = original.terminate() }
        let port = try #require(uris[0].split(separator: "/").dropFirst().first?.split(separator: ":").last)
        let file = scratch.path + "/clone.json"
        let secure = "ipps://bob:build%20er@127.0.0.1:\(port)/ipp/print"
        let run = try runVPrinter(["clone", secure, "--out", file, "--timeout", "10"], scratch: scratch)
        #expect(run.status == 0, "\(run.err)")
        let json = try String(contentsOfFile: file, encoding: .utf8)
        #expect(!json.contains("ipps://") && !json.contains("bob"), "no URI or user in the clone: \(json)")
        let (copy, copyURIs) = try VPrinterProcess.printer(
            Self.options(scratch.path + "/b") + ["--profile", file], scratch: scratch)
        defer { _ = copy.terminate() }
        #expect(
            Self.differences(try Self.answer("ipp://127.0.0.1:\(port)/ipp/print"), try Self.answer(copyURIs[0])) == [])
        let wrong = try runVPrinter(
            ["clone", "ipps://127.0.0.1:1/ipp/print", "--out", scratch.path + "/none.json", "--timeout", "5"],
            scratch: scratch)
        #expect(wrong.status == 1 && wrong.err.contains("error:"), "\(wrong.err)")
    }

    @Test(.enabled(if: avahi, "ippeveprinter needs an avahi-daemon (the test command starts one)"))
    func anIppeveprinterCaptureAnswersTheSame() throws {
        let scratch = try ScratchFolder()
        let port = try freePort()
        let ippeve = try ChildProcess(
            "/usr/sbin/ippeveprinter",
            [
                "-p", "\(port)", "-n", "localhost", "-r", "off", "-2", "-k", "-d", scratch.path,
                "-f", "application/pdf,image/jpeg,image/pwg-raster,image/urf", "vprinter-clone-\(getpid())",
            ])
        // ippeveprinter does not always end on SIGTERM.
        defer {
            ippeve.send(SIGKILL)
            _ = ippeve.exitStatus(waitingUpTo: 10)
        }
        let uri = "ipp://localhost:\(port)/ipp/print"
        let deadline = Date().addingTimeInterval(waitLimit)
        while (try? Self.answer(uri)) == nil, Date() < deadline { usleep(100_000) }
        let test = scratch.path + "/get.test"
        try """
        {
            NAME "all,media-col-database"
            OPERATION Get-Printer-Attributes
            GROUP operation-attributes-tag
            ATTR charset attributes-charset utf-8
            ATTR naturalLanguage attributes-natural-language en
            ATTR uri printer-uri $uri
            ATTR keyword requested-attributes all,media-col-database
            STATUS successful-ok
        }
        """.write(toFile: test, atomically: true, encoding: .utf8)
        let capture = scratch.path + "/ippeveprinter.attrs"
        let ipptool = try ChildProcess.run("/usr/bin/ipptool", ["--ippserver", capture, uri, test])
        #expect(ipptool.status == 0, "ipptool: \(ipptool.errorOutput)")
        let (copy, copyURIs) = try VPrinterProcess.printer(
            Self.options(scratch.path + "/b") + ["--profile", capture], scratch: scratch)
        defer { _ = copy.terminate() }
        let before = try Self.answer(uri)
        let after = try Self.answer(copyURIs[0])
        #expect(before.count > 80)
        #expect(Self.differences(before, after) == [])
        // operations-supported included: ippeveprinter offers Print-URI and Send-URI, and so does its clone, which
        // fetches http and https documents (never file:, whatever reference-uri-schemes-supported lists).
        #expect(after["operations-supported"]?.values.contains(.enumValue(0x0003)) == true)
        #expect(after["operations-supported"]?.values.contains(.enumValue(0x0007)) == true)
        let printURI = try IPPClient(uri: copyURIs[0]).send(
            ippRequest(.printURI, uri: copyURIs[0], [IPPAttribute("document-uri", .uri("file:///etc/passwd"))]))
        #expect(printURI.status == .clientErrorURISchemeNotSupported)
    }

    @Test(.enabled(if: avahi, "DNS-SD needs an avahi-daemon (the test command starts one)"))
    func aDNSSDServiceNameIsResolvedAndItsTXTRecordCopied() throws {
        let scratch = try ScratchFolder()
        let name = "vprinter clone \(getpid()) \(UInt32.random(in: 0..<UInt32.max))"
        let profile = scratch.path + "/site.json"
        try #"{ "extends": "simplex-laser", "txt": { "x-site": "lab-3" } }"#.write(
            toFile: profile, atomically: true, encoding: .utf8)
        let (original, _) = try VPrinterProcess.printer(
            ["--port", "0", "--no-render", "--output-dir", scratch.path + "/a", "--profile", profile, "--name", name],
            scratch: scratch)
        defer { _ = original.terminate() }
        let file = scratch.path + "/clone.json"
        var run = try runVPrinter(["clone", name, "--out", file, "--timeout", "20"], scratch: scratch)
        for _ in 0..<3 where run.status != 0 {
            usleep(500_000)  // the advertisement may take a moment to reach the daemon
            run = try runVPrinter(["clone", name, "--out", file, "--timeout", "20"], scratch: scratch)
        }
        #expect(run.status == 0, "\(run.err)")
        let json = try String(contentsOfFile: file, encoding: .utf8)
        #expect(json.contains(#""x-site": "lab-3""#), "\(json)")
        #expect(json.contains(#""model": "Simplex Laser""#))
    }
}

/// A free TCP port on loopback (bound and released).
func freePort() throws -> UInt16 {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw E2EError.socket("socket") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
            bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
        }
    }
    guard bound else { throw E2EError.socket("bind") }
    return UInt16(bigEndian: address.sin_port)
}
