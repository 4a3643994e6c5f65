/// Decoding of the feature keys of a profile: pageRanges, printScaling(Default), jobPassword, jobStorage, proofPrint,
/// documentURI.
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
            documentURI: try c.decode(Bool.self, forKey: .documentURI, default: false))
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
