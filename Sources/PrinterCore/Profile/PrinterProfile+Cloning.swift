import Foundation
import IPP
import Profiles

/// Profile loading with attribute files: an `ipptool --ippserver` capture becomes a profile through
/// ``ProfileCloner``, which builds printers of candidate profiles to compare their answers with the capture.
extension PrinterProfile {
    /// Reads a profile by name or path (Profiles' `load(nameOrPath:searchDirectories:importing:)`), attribute
    /// files cloned.
    public static func load(nameOrPath: String, searchDirectories: [String]) throws(ProfileError) -> PrinterProfile {
        try load(nameOrPath: nameOrPath, searchDirectories: searchDirectories, importing: importAttributeFile)
    }

    /// Reads one profile file, attribute files cloned.
    public static func load(file: String, searchDirectories: [String] = []) throws(ProfileError) -> PrinterProfile {
        try load(file: file, searchDirectories: searchDirectories, importing: importAttributeFile)
    }

    /// The profile the attributes of an attribute file describe, as `vprinter clone` makes one.
    public static func importAttributeFile(_ attributes: [IPPAttribute], file: String) throws(ProfileError)
        -> PrinterProfile
    {
        let clone = ProfileCloner.clone(
            attributes: attributes, txt: nil,
            name: ProfileInheritance.defaultName(of: file).replacingOccurrences(of: ".attrs", with: ""),
            source: file)
        return try clone.profile(file: file)
    }
}
