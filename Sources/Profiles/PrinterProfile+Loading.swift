import Foundation
import IPP
import PrintModel

extension PrinterProfile {
    /// Turns the attributes of an `ipptool --ippserver` attribute file (read from `file`) into a profile.
    ///
    /// Cloning needs a printer built from candidate profiles (what would it answer?), which this module does not
    /// know: PrinterCore passes its cloner in, and offers `load` without this parameter.
    public typealias AttributeFileImport = (_ attributes: [IPPAttribute], _ file: String) throws(ProfileError) ->
        PrinterProfile

    /// The largest profile file read: 1 MiB (shipped profiles are a few kilobytes).
    public static let maximumFileSize = 1 << 20

    /// Reads a profile by name or path.
    ///
    /// A name (no `/`, not ending in `.json`) is looked up as `<directory>/<name>.json` in each search directory
    /// in order (then as a file of the current folder when it has a `.`); anything else is read as a file path.
    /// An unknown name throws `.unknownProfile` listing the names that exist.
    public static func load(
        nameOrPath: String, searchDirectories: [String], importing: AttributeFileImport
    ) throws(ProfileError) -> PrinterProfile {
        let isPath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".json")
        if isPath { return try load(file: nameOrPath, searchDirectories: searchDirectories, importing: importing) }
        for directory in searchDirectories {
            let file = (directory as NSString).appendingPathComponent(nameOrPath + ".json")
            if FileManager.default.fileExists(atPath: file) {
                return try load(file: file, searchDirectories: searchDirectories, importing: importing)
            }
        }
        // A file in the current folder, e.g. an ipptool --ippserver capture named printer.attrs.
        if nameOrPath.contains("."), FileManager.default.fileExists(atPath: nameOrPath) {
            return try load(file: nameOrPath, searchDirectories: searchDirectories, importing: importing)
        }
        throw .unknownProfile(name: nameOrPath, known: shippedNames(in: searchDirectories))
    }

    /// The names of the profiles in the directories (file names without `.json`), sorted, without duplicates.
    public static func shippedNames(in directories: [String]) -> [String] {
        var names = Set<String>()
        for directory in directories {
            let files = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
            for file in files where file.hasSuffix(".json") && !file.hasPrefix(".") {
                names.insert(String(file.dropLast(5)))
            }
        }
        return names.sorted()
    }

    /// Reads and decodes one profile file: a JSON profile (with the profiles it extends), or an attribute file
    /// written by `ipptool --ippserver` (the format `ippeveprinter -a` reads), turned into a profile.
    public static func load(
        file: String, searchDirectories: [String] = [], importing: AttributeFileImport
    ) throws(ProfileError) -> PrinterProfile {
        let data = try readFile(file)
        if IPPServerAttributeFile.looksLikeAttributeFile(data) {
            return try importing(IPPServerAttributeFile.attributes(data, file: file), file)
        }
        return try decode(data, file: file, searchDirectories: searchDirectories)
    }

    /// The bytes of a profile file: a regular file of at most ``maximumFileSize`` (BoundedFile).
    static func readFile(_ file: String) throws(ProfileError) -> Data {
        do throws(BoundedFile.Failure) {
            return Data(try BoundedFile.contents(of: file, maximum: maximumFileSize))
        } catch {
            throw .unreadable(file: file, reason: error.description)
        }
    }

    /// Decodes a profile from JSON bytes; `file` names it in errors, and is where `extends` paths start from.
    /// A profile that extends another is merged over it first (ProfileInheritance); an error then names the file
    /// of the chain that gave the offending value.
    public static func decode(_ data: Data, file: String, searchDirectories: [String] = []) throws(ProfileError)
        -> PrinterProfile
    {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return try decodeMerged(data, file: file)
        }
        let (merged, chain) = try ProfileInheritance.resolve(
            object, file: file, searchDirectories: searchDirectories)
        let mergedData: Data
        do {
            mergedData = try JSONSerialization.data(withJSONObject: merged, options: [.sortedKeys])
        } catch {
            throw .malformedJSON(file: file, reason: "\(error)")
        }
        do {
            return try decodeMerged(mergedData, file: file)
        } catch {
            guard chain.count > 1, let keyPath = error.keyPath else { throw error }
            throw error.naming(file: ProfileInheritance.origin(of: keyPath, in: chain))
        }
    }

    /// Decodes one profile object that has nothing left to inherit.
    private static func decodeMerged(_ data: Data, file: String) throws(ProfileError) -> PrinterProfile {
        do {
            return try JSONDecoder().decode(PrinterProfile.self, from: data)
        } catch let issue as ProfileIssue {
            switch issue.problem {
            case .unknownKey: throw .unknownKey(file: file, keyPath: issue.keyPath)
            case .invalid(let problem): throw .invalidValue(file: file, keyPath: issue.keyPath, problem: problem)
            }
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                throw .malformedJSON(file: file, reason: syntaxProblem(in: data) ?? context.debugDescription)
            }
            throw profileError(error, file: file)
        } catch {
            throw .malformedJSON(file: file, reason: String(describing: error))
        }
    }

    /// DecodingError, which names its coding path, as a ProfileError naming the key path.
    private static func profileError(_ error: DecodingError, file: String) -> ProfileError {
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return .wrongType(file: file, keyPath: ProfileIssue.render(context.codingPath), expected: describe(type))
        case .keyNotFound(let key, let context):
            return .missingKey(file: file, keyPath: ProfileIssue.render(context.codingPath + [key]))
        case .dataCorrupted(let context):
            return .invalidValue(
                file: file, keyPath: ProfileIssue.render(context.codingPath), problem: context.debugDescription)
        @unknown default:
            return .malformedJSON(file: file, reason: String(describing: error))
        }
    }

    /// Where JSONSerialization finds the file malformed, as `line L, column C`, or nil.
    private static func syntaxProblem(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data)
            return nil
        } catch {
            guard let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String else { return nil }
            guard let range = detail.range(of: "character "),
                let offset = Int(detail[range.upperBound...].prefix { $0.isNumber }), offset <= data.count
            else { return detail }
            let before = data.prefix(offset)
            let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
            let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
            return "syntax error at line \(line), column \(column)"
        }
    }

    /// "a string", "a whole number" ... for a Swift type a profile value should have had.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        case is Int32.Type, is Int.Type: "a whole number"
        case is Double.Type: "a number"
        default:
            "\(type)".hasPrefix("Array") ? "a list" : "\(type)".hasPrefix("Dictionary") ? "an object" : "\(type)"
        }
    }
}
