import Foundation
import Testing

@testable import HTTPServer

/// The self-signed certificate of `--tls`: made once, reused, made again when it no longer fits.
@Test func selfSignedCertificateIsReusedUntilANameIsMissing() throws {
    let folder = NSTemporaryDirectory() + "vprinter-cert-\(UInt32.random(in: 0...UInt32.max))"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let certificate = folder + "/tls/cert.pem"
    let key = folder + "/tls/key.pem"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let first = try SelfSignedCertificate.ensure(
        certificateFile: certificate, keyFile: key, hostNames: ["printer.local", "localhost", "bad name!"],
        addresses: ["127.0.0.1", "fe80::1%lo"])
    #expect(first == .created(reason: "there was none"))
    let again = try SelfSignedCertificate.ensure(
        certificateFile: certificate, keyFile: key, hostNames: ["printer.local"], addresses: ["127.0.0.1", "fe80::1"])
    #expect(again == .reused)
    let attributes = try FileManager.default.attributesOfItem(atPath: key)
    #expect((attributes[.posixPermissions] as? Int) == 0o600)
    let renamed = try SelfSignedCertificate.ensure(
        certificateFile: certificate, keyFile: key, hostNames: ["other.local"], addresses: ["127.0.0.1"])
    #expect(renamed == .created(reason: "the one there does not name other.local"))
    _ = try TLSContext(certificateFile: certificate, keyFile: key)
}

@Test func aKeyThatDoesNotBelongToTheCertificateIsAnError() throws {
    let folder = NSTemporaryDirectory() + "vprinter-cert-\(UInt32.random(in: 0...UInt32.max))"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    try SelfSignedCertificate.generate(
        certificateFile: folder + "/a.pem", keyFile: folder + "/a.key", hostNames: ["a"], addresses: [])
    try SelfSignedCertificate.generate(
        certificateFile: folder + "/b.pem", keyFile: folder + "/b.key", hostNames: ["b"], addresses: [])
    #expect(throws: HTTPServerError.self) {
        try TLSContext(certificateFile: folder + "/a.pem", keyFile: folder + "/b.key")
    }
    #expect(throws: HTTPServerError.self) {
        try TLSContext(certificateFile: folder + "/missing.pem", keyFile: folder + "/b.key")
    }
    let outcome = try SelfSignedCertificate.ensure(
        certificateFile: folder + "/a.pem", keyFile: folder + "/b.key", hostNames: ["a"], addresses: [])
    #expect(outcome != .reused)
}
