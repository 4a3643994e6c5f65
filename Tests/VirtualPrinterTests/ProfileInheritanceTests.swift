import Foundation
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// `"extends"`: a profile made of its parent's JSON with its own keys merged over it; errors name the file that
/// gave the offending value.
@Suite struct ProfileInheritanceTests {
    /// A folder of profile files written by the test.
    final class Profiles {
        let folder: TemporaryFolder
        init() throws { folder = try TemporaryFolder() }

        @discardableResult
        func write(_ name: String, _ json: String) throws -> String {
            let path = folder.path + "/" + name
            try json.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }

        func load(_ name: String) throws(ProfileError) -> PrinterProfile {
            try PrinterProfile.load(file: folder.path + "/" + name, searchDirectories: [shippedProfilesDirectory])
        }
    }

    @Test func aFewLinesOverAShippedProfile() throws {
        let profiles = try Profiles()
        try profiles.write(
            "mine.json",
            """
            { "extends": "duplex-laser", "model": "Floor 3 Laser", "margins": { "top": 0 },
              "resolutions": [600], "attributes": { "printer-geo-location": "geo:46.5,6.6" } }
            """)
        let mine = try profiles.load("mine.json")
        let parent = try shippedProfile("duplex-laser")
        #expect(mine.name == "mine", "name is never inherited: the file names the profile")
        #expect(mine.model == "Floor 3 Laser")
        #expect(mine.make == parent.make)
        #expect(mine.margins == ProfileMargins(top: 0, bottom: 423, left: 423, right: 423), "objects merge deeply")
        #expect(mine.resolutions == [600], "lists are replaced whole")
        #expect(mine.resolutionDefault == 600)
        #expect(mine.media == parent.media)
        #expect(mine.attributes.map(\.name) == ["printer-geo-location"])
    }

    @Test func nullSetsAKeyBackToItsDefault() throws {
        let profiles = try Profiles()
        try profiles.write(
            "parent.json", try String(contentsOfFile: shippedProfilesDirectory + "/office-mfp.json", encoding: .utf8))
        try profiles.write("child.json", #"{ "extends": "parent.json", "copiesMax": null, "finishings": null }"#)
        let child = try profiles.load("child.json")
        #expect(child.copiesMax == 99)
        #expect(child.finishings == ["none"])
    }

    @Test func chainsOfFilesResolveRelativeToTheExtendingFile() throws {
        let profiles = try Profiles()
        try FileManager.default.createDirectory(
            atPath: profiles.folder.path + "/base", withIntermediateDirectories: true)
        try profiles.write("base/a.json", #"{ "extends": "simplex-laser", "location": "A" }"#)
        try profiles.write("b.json", #"{ "extends": "base/a.json", "info": "B" }"#)
        let b = try profiles.load("b.json")
        #expect(b.location == "A" && b.info == "B" && b.model == "Simplex Laser")
    }

    @Test func aCycleIsAnErrorNamingTheFileAndKey() throws {
        let profiles = try Profiles()
        try profiles.write("a.json", #"{ "extends": "b.json" }"#)
        try profiles.write("b.json", #"{ "extends": "a.json" }"#)
        #expect {
            _ = try profiles.load("a.json")
        } throws: { error in
            guard case .invalidValue(let file, let path, let problem)? = error as? ProfileError else { return false }
            return file.hasSuffix("b.json") && path == "extends" && problem.contains("a.json -> b.json -> a.json")
        }
    }

    @Test func chainsLongerThanTheLimitAreRefused() throws {
        let profiles = try Profiles()
        let depth = ProfileInheritance.maximumDepth
        try profiles.write("p0.json", #"{ "extends": "duplex-laser" }"#)
        for level in 1...depth { try profiles.write("p\(level).json", #"{ "extends": "p\#(level - 1).json" }"#) }
        #expect(throws: Never.self) { _ = try profiles.load("p\(depth - 2).json") }
        #expect {
            _ = try profiles.load("p\(depth).json")
        } throws: { error in
            guard case .invalidValue(_, let path, let problem)? = error as? ProfileError else { return false }
            return path == "extends" && problem.contains("more than \(depth)")
        }
    }

    @Test func anErrorNamesTheFileThatGaveTheValue() throws {
        let profiles = try Profiles()
        try profiles.write(
            "parent.json",
            try String(contentsOfFile: shippedProfilesDirectory + "/duplex-laser.json", encoding: .utf8)
                .replacingOccurrences(of: #""copiesMax": 99"#, with: #""copiesMax": 0"#))
        try profiles.write("child.json", #"{ "extends": "parent.json", "media": ["na_letter_8.5x11in", "letter"] }"#)
        #expect {
            _ = try profiles.load("child.json")
        } throws: { error in
            guard case .invalidValue(let file, let path, _)? = error as? ProfileError else { return false }
            return file.hasSuffix("child.json") && path == "media[1]"
        }
        try profiles.write("child2.json", #"{ "extends": "parent.json", "model": "X" }"#)
        #expect {
            _ = try profiles.load("child2.json")
        } throws: { error in
            guard case .invalidValue(let file, let path, _)? = error as? ProfileError else { return false }
            return file.hasSuffix("parent.json") && path == "copiesMax"
        }
    }

    @Test func anUnknownParentListsTheKnownProfiles() throws {
        let profiles = try Profiles()
        try profiles.write("child.json", #"{ "extends": "duplex-lazer" }"#)
        #expect {
            _ = try profiles.load("child.json")
        } throws: { error in
            guard case .invalidValue(let file, "extends", let problem)? = error as? ProfileError else { return false }
            return file.hasSuffix("child.json") && problem.contains("duplex-laser") && problem.contains("duplex-lazer")
        }
        try profiles.write("child3.json", #"{ "extends": 7 }"#)
        #expect(
            throws: ProfileError.wrongType(
                file: profiles.folder.path + "/child3.json", keyPath: "extends", expected: "a profile name or file")
        ) {
            _ = try profiles.load("child3.json")
        }
    }
}
