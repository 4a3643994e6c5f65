import PrintModel

/// Decoding of the feature keys of a profile: pageRanges, printScaling(Default), jobPassword, jobStorage, proofPrint,
/// documentURI, scanner.
extension PrinterProfile {
    /// Decodes and checks the feature keys; `documentFormats` decides the pageRanges default.
    static func decodeFeatures(_ c: KeyedDecodingContainer<CodingKeys>, documentFormats: [String]) throws
        -> ProfileFeatures
    {
        // Page ranges select pages of a paged vector document: PDF, or PCLm (a PDF subset).
        let paged = documentFormats.contains {
            $0 == "application/pdf" || $0.lowercased() == PrinterProfile.pclmFormat.lowercased()
        }
        let pageRanges = try c.decode(Bool.self, forKey: .pageRanges, default: paged)
        var scaling: [String]? = ProfileFeatures.printScalingKeywords
        if c.present(.printScaling) {
            if let flag = try? c.decode(Bool.self, forKey: .printScaling) {
                guard !flag else {
                    throw ProfileIssue(c.path(.printScaling), .invalid("a list of print-scaling keywords, or false"))
                }
                scaling = nil
            } else {
                scaling = try c.decodeNonEmpty([String].self, forKey: .printScaling)
                try c.requireAllowed(scaling ?? [], Set(ProfileFeatures.printScalingKeywords), key: .printScaling)
            }
        }
        var scalingDefault: String?
        if let scaling {
            scalingDefault = try c.decode(
                String.self, forKey: .printScalingDefault, default: scaling.contains("auto") ? "auto" : scaling[0])
            try c.requireMember(scalingDefault ?? "", of: scaling, key: .printScalingDefault)
        } else if c.present(.printScalingDefault) {
            throw ProfileIssue(c.path(.printScalingDefault), .invalid("printScaling is false: there is no default"))
        }
        return ProfileFeatures(
            pageRanges: pageRanges, printScaling: scaling, printScalingDefault: scalingDefault,
            jobPassword: try c.decodeIfPresent(ProfileFeatures.JobPassword.self, forKey: .jobPassword),
            jobStorage: try c.decodeIfPresent(ProfileFeatures.JobStorage.self, forKey: .jobStorage),
            proofPrint: try c.decodeIfPresent(ProfileFeatures.ProofPrint.self, forKey: .proofPrint),
            documentURI: try c.decode(Bool.self, forKey: .documentURI, default: false),
            scanner: try c.decodeIfPresent(ProfileFeatures.Scanner.self, forKey: .scanner))
    }
}

extension ProfileFeatures.JobPassword: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case minimumLength, maximumLength, repertoire, encryptions }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let minimum = try c.decode(Int32.self, forKey: .minimumLength, default: 4)
        let maximum = try c.decode(Int32.self, forKey: .maximumLength, default: max(8, minimum))
        try c.requireRange(minimum, 1...Self.maximumOctets, key: .minimumLength)
        try c.requireRange(maximum, minimum...Self.maximumOctets, key: .maximumLength)
        repertoire = try c.decode(String.self, forKey: .repertoire, default: "iana_us-ascii_digits")
        guard Self.repertoires.contains(repertoire) else {
            throw ProfileIssue(
                c.path(.repertoire),
                .invalid("'\(repertoire)' is not one of: \(Self.repertoires.sorted().joined(separator: ", "))"))
        }
        encryptions = try c.decodeNonEmpty([String].self, forKey: .encryptions, default: ["none", "sha2-256"])
        try c.requireAllowed(encryptions, Set(Self.digestLengths.keys), key: .encryptions)
        length = minimum...maximum
    }
}

extension ProfileFeatures.JobStorage: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case access, dispositions, groups }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        access = try c.decodeNonEmpty([String].self, forKey: .access, default: ["owner", "public"])
        try c.requireAllowed(access, Self.accessKeywords, key: .access)
        dispositions = try c.decodeNonEmpty(
            [String].self, forKey: .dispositions, default: ["print-and-store", "store-only"])
        try c.requireAllowed(dispositions, Self.dispositionKeywords, key: .dispositions)
        groups = try c.decode([String].self, forKey: .groups, default: [])
        for (index, group) in groups.enumerated() where group.isEmpty || group.utf8.count > 255 {
            throw ProfileIssue(c.path(.groups, index), .invalid("a group name is 1 to 255 octets"))
        }
        if access.contains("group") != !groups.isEmpty {
            throw ProfileIssue(c.path(.groups), .invalid("groups are listed exactly when access has group"))
        }
    }
}

extension ProfileFeatures.ProofPrint: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case maximumCopies }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        maximumCopies = try c.decode(Int32.self, forKey: .maximumCopies, default: 1)
        try c.requireRange(maximumCopies, Self.copiesRange, key: .maximumCopies)
    }
}

extension ProfileFeatures.Scanner: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case platen, feeder, duplex, feederCapacity, resolutions, colorModes, formats, scanOnly
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func size(_ key: CodingKeys) throws -> MediaSize? {
            guard let name = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
            guard let size = MediaSize(pwgName: name) else {
                throw ProfileIssue(c.path(key), .invalid("\(name) is not a PWG media size name"))
            }
            return size
        }
        platen = try size(.platen)
        feeder = try size(.feeder)
        guard platen != nil || feeder != nil else {
            throw ProfileIssue(c.path(.platen), .invalid("a scanner has a platen, a feeder or both"))
        }
        duplex = try c.decode(Bool.self, forKey: .duplex, default: false)
        if duplex && feeder == nil {
            throw ProfileIssue(c.path(.duplex), .invalid("only a feeder scans duplex"))
        }
        feederCapacity = try c.decode(Int.self, forKey: .feederCapacity, default: 50)
        guard Self.capacityRange.contains(feederCapacity) else {
            throw ProfileIssue(
                c.path(.feederCapacity),
                .invalid("between \(Self.capacityRange.lowerBound) and \(Self.capacityRange.upperBound) sheets"))
        }
        resolutions = try c.decodeNonEmpty([Int].self, forKey: .resolutions, default: [75, 150, 300, 600])
        for (index, dpi) in resolutions.enumerated() where !Self.resolutionRange.contains(dpi) {
            throw ProfileIssue(
                c.path(.resolutions, index),
                .invalid("between \(Self.resolutionRange.lowerBound) and \(Self.resolutionRange.upperBound) dpi"))
        }
        colorModes = try c.decodeNonEmpty(
            [ScanPage.ColorMode].self, forKey: .colorModes, default: ScanPage.ColorMode.allCases)
        formats = try c.decodeNonEmpty([ScanPage.Format].self, forKey: .formats, default: ScanPage.Format.allCases)
        scanOnly = try c.decode(Bool.self, forKey: .scanOnly, default: false)
    }
}
