import Foundation
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

@Test func shippedProfilesAreListedByName() {
    let names = PrinterProfile.shippedNames(in: [shippedProfilesDirectory])
    #expect(names.contains("duplex-laser"))
    #expect(names.contains("color-inkjet"))
}

@Test(arguments: ["duplex-laser", "color-inkjet"])
func shippedProfileLoadsByNameAndByPath(name: String) throws {
    let byName = try shippedProfile(name)
    let byPath = try PrinterProfile.load(
        nameOrPath: shippedProfilesDirectory + "/\(name).json", searchDirectories: [])
    #expect(byName.name == name)
    #expect(byPath.makeAndModel == byName.makeAndModel)
    #expect(byName.documentFormats.contains("application/octet-stream"))
}

@Test func unknownProfileNameListsTheKnownOnes() {
    #expect {
        _ = try PrinterProfile.load(nameOrPath: "no-such-printer", searchDirectories: [shippedProfilesDirectory])
    } throws: { error in
        guard case .unknownProfile(let name, let known)? = error as? ProfileError else { return false }
        return name == "no-such-printer" && known.contains("duplex-laser") && known.contains("color-inkjet")
    }
}

@Test func missingFileIsUnreadable() {
    #expect {
        _ = try PrinterProfile.load(nameOrPath: "/nonexistent/folder/p.json", searchDirectories: [])
    } throws: { error in
        if case .unreadable(let file, _)? = error as? ProfileError { return file == "/nonexistent/folder/p.json" }
        return false
    }
}

@Test func fileLargerThanTheLimitIsRefused() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("profile-too-large-\(getpid()).json")
    try Data(repeating: UInt8(ascii: " "), count: PrinterProfile.maximumFileSize + 1).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    #expect {
        _ = try PrinterProfile.load(file: file.path)
    } throws: { error in
        if case .unreadable(_, let reason)? = error as? ProfileError { return reason.contains("larger") }
        return false
    }
}

@Test func malformedJSONNamesTheFile() {
    #expect(throws: ProfileError.self) { _ = try PrinterProfile.decode(Data("{\"name\": ".utf8), file: "bad.json") }
    do {
        _ = try PrinterProfile.decode(Data("{\"name\": ".utf8), file: "bad.json")
    } catch {
        guard case .malformedJSON(let file, _) = error else {
            Issue.record("expected malformedJSON, got \(error)")
            return
        }
        #expect(file == "bad.json")
    }
}

@Test func syntaxErrorNamesTheLine() {
    #expect {
        _ = try PrinterProfile.decode(Data("{\n  \"name\": \"x\",\n  \"make\": }\n".utf8), file: "bad.json")
    } throws: { error in
        guard case .malformedJSON(_, let reason)? = error as? ProfileError else { return false }
        return reason.contains("line 3")
    }
}

/// Each case breaks one key of the shipped laser profile and names the key path the error must carry.
private let brokenProfiles: [(change: @Sendable (inout [String: Any]) -> Void, keyPath: String)] = [
    ({ $0["colour"] = true }, "colour"),
    ({ $0["color"] = "yes" }, "color"),
    ({ $0["pagesPerMinute"] = nil }, "pagesPerMinute"),
    ({ $0["media"] = ["na_letter_8.5x11in", "iso_a4_210x297mm", "letter"] }, "media[2]"),
    (
        { $0["media"] = ["na_letter_8.5x11in", ["size": "iso_a4_210x297mm", "margins": ["top": "x"]]] },
        "media[1].margins.top"
    ),
    (
        {
            $0["media"] = [
                "na_letter_8.5x11in",
                ["size": "iso_a4_210x297mm", "margins": ["top": 1, "bottom": 1, "left": 1, "right": 1, "inner": 2]],
            ]
        }, "media[1].margins.inner"
    ),
    (
        {
            $0["media"] = [
                "na_letter_8.5x11in",
                ["size": "iso_a4_210x297mm", "margins": ["top": 5001, "bottom": 1, "left": 1, "right": 1]],
            ]
        }, "media[1].margins.top"
    ),
    ({ $0["media"] = [] as [Any] }, "media"),
    ({ $0["media"] = ["na_letter_8.5x11in", 42] }, "media[1]"),
    (
        { $0["media"] = ["na_letter_8.5x11in", ["size": "iso_a4_210x297mm", "borderless": "yes"]] },
        "media[1].borderless"
    ),
    ({ $0["mediaDefault"] = "iso_a3_297x420mm" }, "mediaDefault"),
    ({ $0["mediaSourceDefault"] = "tray-9" }, "mediaSourceDefault"),
    (
        { $0["mediaReady"] = [["source": "main", "size": "iso_a3_297x420mm", "type": "stationery"]] },
        "mediaReady[0].size"
    ),
    ({ $0["resolutions"] = [300, 10000] }, "resolutions[1]"),
    ({ $0["resolutionDefault"] = 1200 }, "resolutionDefault"),
    ({ $0["documentFormats"] = ["application/pdf", "pdf"] }, "documentFormats[1]"),
    ({ $0["finishings"] = ["staple", "glue"] }, "finishings[1]"),
    ({ $0["copiesMax"] = 0 }, "copiesMax"),
    ({ $0["pagesPerMinuteColor"] = 10 }, "pagesPerMinuteColor"),
    ({ $0["supplies"] = [["type": "toner", "color": "black", "level": 101]] }, "supplies[0].level"),
    ({ $0["supplies"] = [] as [Any] }, "supplies"),
    ({ $0["kind"] = ["document", "spaceship"] }, "kind[1]"),
    (
        {
            $0["sidesDefault"] = "two-sided-long-edge"; $0["duplex"] = false
        }, "sidesDefault"
    ),
    ({ $0["make"] = "A;B" }, "make"),
    ({ $0["info"] = String(repeating: "x", count: PrinterProfile.maximumDescriptionLength + 1) }, "info"),
    ({ $0["attributes"] = ["orientation-requested-default": "sideways"] }, "attributes.orientation-requested-default"),
]

@Test(arguments: brokenProfiles.indices)
func brokenProfileNamesTheKeyPath(index: Int) throws {
    var object = try shippedProfileJSON("duplex-laser")
    brokenProfiles[index].change(&object)
    let error = try #require(profileError(object))
    #expect(error.keyPath == brokenProfiles[index].keyPath, "\(error)")
    #expect(error.description.hasPrefix("test.json: \(brokenProfiles[index].keyPath):"), "\(error)")
}

@Test func descriptionAtTheLengthLimitIsAccepted() throws {
    var object = try shippedProfileJSON("duplex-laser")
    object["info"] = String(repeating: "x", count: PrinterProfile.maximumDescriptionLength)
    #expect(profileError(object) == nil)
}

/// Each named range: its bounds are accepted, one past either bound names the key.
private let rangedKeys: [(key: String, range: ClosedRange<Int32>, wrap: @Sendable (Int) -> Any, path: String)] = [
    ("resolutions", PrinterProfile.resolutionRange, { [$0] }, "resolutions[0]"),
    ("copiesMax", PrinterProfile.copiesMaxRange, { $0 }, "copiesMax"),
    ("pagesPerMinute", PrinterProfile.pagesPerMinuteRange, { $0 }, "pagesPerMinute"),
]

@Test func numberUpListsOnlyLayoutsThePrinterMakes() throws {
    for (value, accepted) in [(1, true), (16, true), (9, true), (8, false), (0, false), (100, false)] {
        var object = try shippedProfileJSON("duplex-laser")
        object["numberUp"] = [value]
        let error = profileError(object)
        #expect((error == nil) == accepted, "numberUp [\(value)]: \(String(describing: error))")
        if !accepted { #expect(error?.keyPath == "numberUp[0]") }
    }
}

@Test(arguments: rangedKeys.indices)
func rangedValueIsAcceptedAtItsBoundsAndRefusedPastThem(index: Int) throws {
    let ranged = rangedKeys[index]
    for (value, accepted) in [
        (Int(ranged.range.lowerBound), true), (Int(ranged.range.upperBound), true),
        (Int(ranged.range.lowerBound) - 1, false), (Int(ranged.range.upperBound) + 1, false),
    ] {
        var object = try shippedProfileJSON("duplex-laser")
        object[ranged.key] = ranged.wrap(value)
        if ranged.key == "resolutions" { object["resolutionDefault"] = value }
        let error = profileError(object)
        if accepted {
            #expect(error == nil, "\(ranged.key) = \(value)")
        } else {
            #expect(error?.keyPath == ranged.path, "\(ranged.key) = \(value): \(String(describing: error))")
        }
    }
}

@Test func marginAtTheLimitIsAccepted() throws {
    var object = try shippedProfileJSON("duplex-laser")
    let limit = Int(ProfileMargins.maximumMargin)
    object["margins"] = ["top": limit, "bottom": 0, "left": 0, "right": 0]
    #expect(profileError(object) == nil)
}

@Test func minimalProfileGetsTheDocumentedDefaults() throws {
    let minimal: [String: Any] = [
        "name": "minimal", "make": "Acme", "model": "One", "color": false, "duplex": false,
        "media": ["iso_a4_210x297mm"], "mediaDefault": "iso_a4_210x297mm", "resolutions": [300],
        "documentFormats": ["image/pwg-raster"], "pagesPerMinute": 5,
        "supplies": [["type": "toner", "color": "black", "level": 50]],
    ]
    let profile = try PrinterProfile.decode(JSONSerialization.data(withJSONObject: minimal), file: "m.json")
    #expect(profile.makeAndModel == "Acme One")
    #expect(profile.documentFormats == ["image/pwg-raster", "application/octet-stream"])
    #expect(profile.documentFormatDefault == "application/octet-stream")
    #expect(profile.mediaSources == ["main"])
    #expect(profile.mediaReady == [ProfileReadyMedia(source: "main", size: profile.mediaDefault, type: "stationery")])
    #expect(profile.margins == ProfileMargins(top: 423, bottom: 423, left: 423, right: 423))
    #expect(profile.finishings == ["none"])
    #expect(profile.supplies[0].description == "Black Toner")
    #expect(profile.urfSupported == ["V1.4", "CP99", "IS1", "MT1", "PQ3-4-5", "RS300", "W8"])
}
