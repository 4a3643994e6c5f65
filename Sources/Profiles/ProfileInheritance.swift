import Foundation

/// Profile inheritance: a profile that says `"extends": "<name or file>"` is its parent's JSON with its own keys
/// merged over it (docs/profiles.md, "Inheritance").
///
/// Merging is deep for objects (a child's `margins: {"top": 0}` changes only the top margin) and replaces
/// everything else whole: lists, strings, numbers, booleans and `null` (which sets a key back to its default).
/// The values inside `attributes` are IPP values, not profile objects: each raw attribute is replaced whole.
/// `name` is never inherited: a profile without one is named after its file.
package enum ProfileInheritance {
    /// The longest chain of `extends` followed: a profile and up to 7 ancestors.
    package static let maximumDepth = 8

    /// One file of a chain: its path and its own JSON object, before merging.
    struct Layer {
        var file: String
        var object: [String: Any]
    }

    /// `object` (the JSON of `file`) with every profile it extends merged under it; returns the merged object and
    /// the chain, the file itself first.
    static func resolve(_ object: [String: Any], file: String, searchDirectories: [String]) throws(ProfileError)
        -> (merged: [String: Any], chain: [Layer])
    {
        var chain: [Layer] = []
        var current = file
        var visited: [String] = []
        var next: [String: Any]? = object
        while true {
            let canonical = URL(fileURLWithPath: current).standardizedFileURL.resolvingSymlinksInPath().path
            if visited.contains(canonical) {
                let cycle = (visited + [canonical]).map { ($0 as NSString).lastPathComponent }
                throw .invalidValue(
                    file: chain.last?.file ?? file, keyPath: "extends",
                    problem: "extends makes a cycle: \(cycle.joined(separator: " -> "))")
            }
            visited.append(canonical)
            let object: [String: Any]
            if let given = next {
                object = given
                next = nil
            } else {
                object = try readObject(current)
            }
            chain.append(Layer(file: current, object: object))
            guard let parent = object["extends"] else { break }
            guard let reference = parent as? String, !reference.isEmpty else {
                throw .wrongType(file: current, keyPath: "extends", expected: "a profile name or file")
            }
            guard chain.count < maximumDepth else {
                throw .invalidValue(
                    file: current, keyPath: "extends",
                    problem: "more than \(maximumDepth) profiles in a chain of extends")
            }
            current = try locate(reference, from: current, searchDirectories: searchDirectories)
        }
        var merged: [String: Any] = [:]
        for layer in chain.reversed() {
            var own = layer.object
            own.removeValue(forKey: "extends")
            merged = merge(merged, own)
        }
        merged["name"] = chain[0].object["name"] ?? defaultName(of: file)
        return (merged, chain)
    }

    /// The name a profile without `name` gets: its file name without `.json`.
    package static func defaultName(of file: String) -> String {
        let base = (file as NSString).lastPathComponent
        return base.hasSuffix(".json") ? String(base.dropLast(5)) : base
    }

    /// `child` over `parent`: objects merge key by key, anything else replaces.
    static func merge(_ parent: [String: Any], _ child: [String: Any], rawAttributes: Bool = false) -> [String: Any] {
        var result = parent
        for (key, value) in child {
            if !rawAttributes, let inner = value as? [String: Any], let base = parent[key] as? [String: Any] {
                result[key] = merge(base, inner, rawAttributes: key == "attributes")
            } else {
                result[key] = value
            }
        }
        return result
    }

    /// The file an `extends` value names: a profile name from the search directories (and the extending file's
    /// own folder first), or a path relative to the extending file.
    static func locate(_ reference: String, from file: String, searchDirectories: [String]) throws(ProfileError)
        -> String
    {
        let folder = (file as NSString).deletingLastPathComponent
        let isPath = reference.contains("/") || reference.hasSuffix(".json")
        if isPath {
            let path = reference.hasPrefix("/") ? reference : (folder as NSString).appendingPathComponent(reference)
            guard FileManager.default.fileExists(atPath: path) else {
                throw .invalidValue(file: file, keyPath: "extends", problem: "no profile file '\(reference)'")
            }
            return path
        }
        for directory in [folder.isEmpty ? "." : folder] + searchDirectories {
            let candidate = (directory as NSString).appendingPathComponent(reference + ".json")
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
        }
        let known = PrinterProfile.shippedNames(in: searchDirectories)
        throw .invalidValue(
            file: file, keyPath: "extends",
            problem: "unknown profile '\(reference)' (known profiles: \(known.joined(separator: ", ")))")
    }

    /// The file's JSON object, or the error that names what is wrong with it.
    static func readObject(_ file: String) throws(ProfileError) -> [String: Any] {
        let data = try PrinterProfile.readFile(file)
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            // The decoder gives the precise syntax message.
            _ = try PrinterProfile.decode(data, file: file)
            throw .malformedJSON(file: file, reason: "not a JSON object")
        }
        guard let object = parsed as? [String: Any] else {
            throw .wrongType(file: file, keyPath: "(top level)", expected: "an object")
        }
        return object
    }

    /// The file of the chain that gave the value at `keyPath` (e.g. `media[2].margins.top`): the most derived
    /// file holding the longest part of the path; the first file when none holds any of it.
    static func origin(of keyPath: String, in chain: [Layer]) -> String {
        let components = keyPath.split(whereSeparator: { $0 == "." || $0 == "[" }).map {
            $0.hasSuffix("]") ? String($0.dropLast()) : String($0)
        }
        var best = (file: chain.first?.file ?? "", depth: 0)
        for layer in chain {
            var node: Any? = layer.object
            var depth = 0
            for component in components {
                if let object = node as? [String: Any], let next = object[component] {
                    node = next
                } else if let list = node as? [Any], let index = Int(component), list.indices.contains(index) {
                    node = list[index]
                } else {
                    break
                }
                depth += 1
            }
            if depth > best.depth { best = (layer.file, depth) }
        }
        return best.file
    }
}

extension ProfileError {
    /// The same error naming another file.
    func naming(file: String) -> ProfileError {
        switch self {
        case .unknownProfile: self
        case .unreadable(_, let reason): .unreadable(file: file, reason: reason)
        case .malformedJSON(_, let reason): .malformedJSON(file: file, reason: reason)
        case .unknownKey(_, let path): .unknownKey(file: file, keyPath: path)
        case .missingKey(_, let path): .missingKey(file: file, keyPath: path)
        case .wrongType(_, let path, let expected): .wrongType(file: file, keyPath: path, expected: expected)
        case .invalidValue(_, let path, let problem): .invalidValue(file: file, keyPath: path, problem: problem)
        }
    }
}
