import Foundation
import IPP

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// The repository's profiles/ folder, found from this file's place in Tests/VirtualPrinterTests.
let shippedProfilesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("profiles").path

/// A shipped profile, loaded the way the printer loads it.
func shippedProfile(_ name: String) throws -> PrinterProfile {
    try PrinterProfile.load(nameOrPath: name, searchDirectories: [shippedProfilesDirectory])
}

/// The shipped profiles that print: every one but a scanner alone (`scanner.scanOnly`, document-scanner), which
/// answers no IPP.
func shippedPrinterProfileNames() -> [String] {
    PrinterProfile.shippedNames(in: [shippedProfilesDirectory]).filter {
        (try? shippedProfile($0).features.scanner?.scanOnly) != true
    }
}

/// The shipped profile's JSON as a mutable object, for tests that break one key.
func shippedProfileJSON(_ name: String) throws -> [String: Any] {
    let data = try Data(contentsOf: URL(fileURLWithPath: shippedProfilesDirectory + "/\(name).json"))
    return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
}

/// Decodes a JSON object as a profile and returns the error it gives, or nil when it decodes.
func profileError(_ object: [String: Any]) -> ProfileError? {
    do {
        let data = try JSONSerialization.data(withJSONObject: object)
        _ = try PrinterProfile.decode(data, file: "test.json")
        return nil
    } catch let error as ProfileError {
        return error
    } catch {
        return .malformedJSON(file: "test.json", reason: "\(error)")
    }
}

extension Array where Element == IPPAttribute {
    /// The attribute of a name, if present exactly once.
    subscript(name: String) -> IPPAttribute? {
        let matches = filter { $0.name == name }
        return matches.count == 1 ? matches[0] : nil
    }
}
