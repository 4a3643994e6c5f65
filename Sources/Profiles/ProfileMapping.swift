import IPP

/// The high-level profile keys that a printer's attributes map to (the inverse of the derivation in
/// docs/profiles.md), for `ProfileCloner`. Each key is taken only when the attributes say it plainly; anything
/// else is left to the raw attributes the cloner adds.
package struct ProfileMapping {
    package private(set) var keys: [(key: String, value: ProfileJSON)] = []
    private let a: [String: IPPAttribute]

    package init(_ attributes: [String: IPPAttribute], name: String) {
        a = attributes
        add("name", .string(name))
        mapIdentity()
        mapMarking()
        mapMedia()
        mapJobs()
        mapFeatures()
        keys = Self.fillRequired(keys)
    }

    /// Adds placeholders for the required keys that are missing, so that the profile decodes; the raw
    /// attributes then restore (or delete) what they derive.
    package static func fillRequired(_ keys: [(key: String, value: ProfileJSON)]) -> [(key: String, value: ProfileJSON)]
    {
        var result = keys
        func has(_ key: String) -> Bool { result.contains { $0.key == key } }
        let defaults: [(String, ProfileJSON)] = [
            ("make", .string("Unknown")), ("model", .string("Printer")), ("color", .bool(false)),
            ("duplex", .bool(false)), ("media", .array([.string("na_letter_8.5x11in")])),
            ("mediaDefault", .string("na_letter_8.5x11in")), ("resolutions", .array([.integer(300)])),
            ("documentFormats", .array([.string("image/pwg-raster"), .string("image/jpeg")])),
            ("pagesPerMinute", .integer(1)),
            (
                "supplies",
                .array([.object([("type", .string("toner")), ("color", .string("black")), ("level", .integer(100))])])
            ),
        ]
        for (key, value) in defaults where !has(key) { result.append((key, value)) }
        if case .bool(true)? = result.first(where: { $0.key == "color" })?.value, !has("pagesPerMinuteColor") {
            result.append(("pagesPerMinuteColor", result.first { $0.key == "pagesPerMinute" }?.value ?? .integer(1)))
        }
        if case .array(let media)? = result.first(where: { $0.key == "media" })?.value,
            let mediaDefault = result.first(where: { $0.key == "mediaDefault" })?.value, !media.contains(mediaDefault)
        {
            result.removeAll { $0.key == "mediaDefault" }
            let first = media.first { if case .string = $0 { true } else { $0.objectValue("size") != nil } }
            result.append(("mediaDefault", first.flatMap { $0.objectValue("size") ?? $0 } ?? .string("")))
        }
        return result
    }

    private mutating func add(_ key: String, _ value: ProfileJSON?) {
        guard let value else { return }
        keys.removeAll { $0.key == key }
        keys.append((key, value))
    }

    private func strings(_ name: String) -> [String] { a[name]?.values.compactMap(\.stringValue) ?? [] }
    private func string(_ name: String) -> String? { a[name]?.value?.stringValue }
    private func integers(_ name: String) -> [Int32] {
        a[name]?.values.compactMap { value in
            if case .integer(let n) = value { return n }
            if case .enumValue(let n) = value { return n }
            return nil
        } ?? []
    }
    private func keywordList(_ list: [String]) -> ProfileJSON { .array(list.map { .string($0) }) }

    // MARK: Identity

    private mutating func mapIdentity() {
        var make: String?
        var model: String?
        for pair in (string("printer-device-id") ?? "").split(separator: ";") {
            let parts = pair.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, !parts[1].isEmpty else { continue }
            switch parts[0].uppercased() {
            case "MFG", "MANUFACTURER": make = make ?? parts[1]
            case "MDL", "MODEL": model = model ?? parts[1]
            default: break
            }
        }
        let makeAndModel = string("printer-make-and-model")
        if make == nil || model == nil, let makeAndModel {
            let words = makeAndModel.split(separator: " ", maxSplits: 1).map(String.init)
            make = make ?? words.first
            model = model ?? (words.count > 1 ? words[1] : makeAndModel)
        }
        add("make", make.map { .string($0) })
        add("model", model.map { .string($0) })
        add("makeAndModel", makeAndModel.map { .string($0) })
        add("info", string("printer-info").map { .string($0) })
        add("location", string("printer-location").map { .string($0) })
        add("organization", string("printer-organization").map { .string($0) })
        add("organizationalUnit", string("printer-organizational-unit").map { .string($0) })
        if case .uri(let geo)? = a["printer-geo-location"]?.value, geo.hasPrefix("geo:") {
            add("geoLocation", .string(geo))
        }
        add("firmwareName", string("printer-firmware-name").map { .string($0) })
        add("firmwareVersion", string("printer-firmware-string-version").map { .string($0) })
        let kinds = strings("printer-kind").filter { PrinterProfile.printerKinds.contains($0) }
        if !kinds.isEmpty { add("kind", keywordList(kinds)) }
    }

    // MARK: Marking

    private mutating func mapMarking() {
        let color = a["color-supported"]?.value?.booleanValue ?? false
        add("color", .bool(color))
        let sides = strings("sides-supported")
        add("duplex", .bool(sides.contains("two-sided-long-edge") || sides.contains("two-sided-short-edge")))
        if let back = string("pwg-raster-document-sheet-back"),
            ["normal", "flipped", "rotated", "manual-tumble"].contains(back)
        {
            add("sheetBack", .string(back))
        }
        add("sidesDefault", string("sides-default").map { .string($0) })
        let resolutions: [Int] = (a["printer-resolution-supported"]?.values ?? []).compactMap { value in
            guard case .resolution(let r) = value, r.crossFeed == r.feed else { return nil }
            return r.units == .dotsPerCentimeter ? Int(r.crossFeed) * 254 / 100 : Int(r.crossFeed)
        }
        if !resolutions.isEmpty {
            add("resolutions", .array(resolutions.map { .integer($0) }))
            if case .resolution(let r)? = a["printer-resolution-default"]?.value, r.crossFeed == r.feed {
                add("resolutionDefault", .integer(Int(r.crossFeed)))
            }
        }
        let qualities = integers("print-quality-supported").compactMap {
            IPPEnumNames.keyword(attribute: "print-quality", value: $0)
        }
        if !qualities.isEmpty { add("printQualities", keywordList(qualities)) }
        if let quality = integers("print-quality-default").first,
            let name = IPPEnumNames.keyword(attribute: "print-quality", value: quality)
        {
            add("printQualityDefault", .string(name))
        }
        if let speed = integers("pages-per-minute").first, speed > 0 { add("pagesPerMinute", .integer(Int(speed))) }
        if color, let speed = integers("pages-per-minute-color").first, speed > 0 {
            add("pagesPerMinuteColor", .integer(Int(speed)))
        }
        mapSupplies()
    }

    private mutating func mapSupplies() {
        let descriptions = strings("printer-supply-description")
        var supplies: [ProfileJSON] = []
        for (index, value) in (a["printer-supply"]?.values ?? []).enumerated() {
            let fields = DeviceFields.pairs(of: value)
            func field(_ key: String) -> String? { fields.first { $0.0 == key }?.1 }
            guard let type = field("type"), let level = Int(field("level") ?? ""), (0...100).contains(level) else {
                continue
            }
            var supply: [(String, ProfileJSON)] = [
                ("type", .string(type)), ("color", .string(field("colorantname") ?? "none")),
                ("level", .integer(level)),
            ]
            if index < descriptions.count { supply.append(("description", .string(descriptions[index]))) }
            if let supplyClass = field("class"), supplyClass != "supplyThatIsConsumed" {
                supply.append(("class", .string(supplyClass)))
            }
            supplies.append(.object(supply))
        }
        if !supplies.isEmpty { add("supplies", .array(supplies)) }
    }

    // MARK: Media

    private mutating func mapMedia() {
        let names = strings("media-supported").filter { MediaSize(pwgName: $0) != nil }
        let sizes = names.compactMap { MediaSize(pwgName: $0) }
        let database = (a["media-col-database"]?.values ?? []).compactMap(\.collectionValue)
        func margins(_ entry: [IPPAttribute]) -> ProfileMargins? {
            func margin(_ side: String) -> Int32? {
                entry.first { $0.name == "media-\(side)-margin" }?.value?.integerValue
            }
            guard let top = margin("top"), let bottom = margin("bottom"), let left = margin("left"),
                let right = margin("right")
            else { return nil }
            return ProfileMargins(top: top, bottom: bottom, left: left, right: right)
        }
        func dimensions(_ entry: [IPPAttribute]) -> (Int32, Int32)? {
            guard let size = entry.first(where: { $0.name == "media-size" })?.value?.collectionValue,
                let x = size.first(where: { $0.name == "x-dimension" })?.value?.integerValue,
                let y = size.first(where: { $0.name == "y-dimension" })?.value?.integerValue
            else { return nil }
            return (x, y)
        }
        var perSize: [(size: MediaSize, margins: ProfileMargins?, borderless: Bool)] = []
        for size in sizes {
            let entries = database.filter { entry in
                guard let (x, y) = dimensions(entry) else { return false }
                return abs(x - size.width) <= 1 && abs(y - size.height) <= 1
            }
            let all = entries.compactMap(margins)
            let bordered = all.first { $0 != .zero }
            perSize.append((size, bordered ?? all.first, bordered != nil && all.contains(.zero)))
        }
        var counts: [ProfileMargins: Int] = [:]
        for entry in perSize { if let m = entry.margins { counts[m, default: 0] += 1 } }
        let common = counts.max { $0.value < $1.value || ($0.value == $1.value && $0.key.top > $1.key.top) }?.key
        if let common { add("margins", Self.marginsJSON(common)) }
        if !perSize.isEmpty {
            add(
                "media",
                .array(
                    perSize.map { entry in
                        let own = entry.margins.flatMap { $0 == common ? nil : $0 }
                        guard own != nil || entry.borderless else { return .string(entry.size.name) }
                        var object: [(String, ProfileJSON)] = [("size", .string(entry.size.name))]
                        if let own { object.append(("margins", Self.marginsJSON(own))) }
                        if entry.borderless { object.append(("borderless", .bool(true))) }
                        return .object(object)
                    }))
        }
        if let mediaDefault = string("media-default"), names.contains(mediaDefault) {
            add("mediaDefault", .string(mediaDefault))
        }
        let defaultCol = a["media-col-default"]?.value?.collectionValue ?? []
        func member(_ entry: [IPPAttribute], _ name: String) -> String? {
            entry.first { $0.name == name }?.value?.stringValue
        }
        let sources = strings("media-source-supported").filter(IPPKeyword.isValid)
        if !sources.isEmpty {
            add("mediaSources", keywordList(sources))
            if let source = member(defaultCol, "media-source"), sources.contains(source) {
                add("mediaSourceDefault", .string(source))
            }
        }
        let types = strings("media-type-supported").filter(IPPKeyword.isValid)
        if !types.isEmpty {
            add("mediaTypes", keywordList(types))
            if let type = member(defaultCol, "media-type"), types.contains(type) {
                add("mediaTypeDefault", .string(type))
            }
        }
        var ready: [ProfileJSON] = []
        for entry in (a["media-col-ready"]?.values ?? []).compactMap(\.collectionValue) {
            guard let source = member(entry, "media-source"), sources.contains(source),
                let type = member(entry, "media-type"), types.contains(type), let (x, y) = dimensions(entry),
                let size = sizes.first(where: { abs($0.width - x) <= 1 && abs($0.height - y) <= 1 })
            else { continue }
            ready.append(.object([("source", .string(source)), ("size", .string(size.name)), ("type", .string(type))]))
        }
        if !ready.isEmpty { add("mediaReady", .array(ready)) }
    }

    static func marginsJSON(_ m: ProfileMargins) -> ProfileJSON {
        .object([
            ("top", .integer(Int(m.top))), ("bottom", .integer(Int(m.bottom))), ("left", .integer(Int(m.left))),
            ("right", .integer(Int(m.right))),
        ])
    }

    // MARK: Jobs

    private mutating func mapJobs() {
        let formats = strings("document-format-supported")
        if !formats.isEmpty { add("documentFormats", keywordList(formats)) }
        if let format = string("document-format-default"), formats.contains(format) {
            add("documentFormatDefault", .string(format))
        }
        if case .rangeOfInteger(let copies)? = a["copies-supported"]?.value,
            PrinterProfile.copiesMaxRange.contains(copies.upperBound)
        {
            add("copiesMax", .integer(Int(copies.upperBound)))
        }
        let finishings = integers("finishings-supported").compactMap {
            IPPEnumNames.keyword(attribute: "finishings", value: $0)
        }
        if !finishings.isEmpty { add("finishings", keywordList(finishings)) }
        let bins = strings("output-bin-supported").filter(IPPKeyword.isValid)
        if !bins.isEmpty {
            add("outputBins", keywordList(bins))
            if let bin = string("output-bin-default"), bins.contains(bin) { add("outputBinDefault", .string(bin)) }
        }
        var numberUp = integers("number-up-supported")
        if case .rangeOfInteger(let range)? = a["number-up-supported"]?.value {
            numberUp = [1, 2, 4, 6, 9, 16].filter { range.contains($0) }
        }
        numberUp = numberUp.filter { PrinterProfile.numberUpLayouts.contains($0) }
        if !numberUp.isEmpty { add("numberUp", .array(numberUp.map { .integer(Int($0)) })) }
        let actions = strings("identify-actions-supported").filter {
            ["display", "flash", "sound", "speak"].contains($0)
        }
        if !actions.isEmpty {
            add("identifyActions", keywordList(actions))
            if let action = string("identify-actions-default"), actions.contains(action) {
                add("identifyActionDefault", .string(action))
            }
        }
        if let multiple = a["multiple-document-jobs-supported"]?.value?.booleanValue {
            add("multipleDocumentJobs", .bool(multiple))
        }
    }

    // MARK: Features

    private mutating func mapFeatures() {
        if let pageRanges = a["page-ranges-supported"]?.value?.booleanValue { add("pageRanges", .bool(pageRanges)) }
        let scaling = strings("print-scaling-supported").filter(ProfileFeatures.printScalingKeywords.contains)
        if scaling.isEmpty {
            add("printScaling", .bool(false))
        } else {
            add("printScaling", keywordList(scaling))
            if let value = string("print-scaling-default"), scaling.contains(value) {
                add("printScalingDefault", .string(value))
            }
        }
        if a["job-password-supported"] != nil {
            var password: [(String, ProfileJSON)] = []
            if case .rangeOfInteger(let range)? = a["job-password-length-supported"]?.value {
                password += [
                    ("minimumLength", .integer(Int(range.lowerBound))),
                    ("maximumLength", .integer(Int(range.upperBound))),
                ]
            }
            if let repertoire = string("job-password-repertoire-configured"),
                ProfileFeatures.JobPassword.repertoires.contains(repertoire)
            {
                password.append(("repertoire", .string(repertoire)))
            }
            let encryptions = strings("job-password-encryption-supported").filter {
                ProfileFeatures.JobPassword.digestLengths[$0] != nil
            }
            if !encryptions.isEmpty { password.append(("encryptions", keywordList(encryptions))) }
            add("jobPassword", .object(password))
        }
        if a["job-storage-supported"] != nil {
            var storage: [(String, ProfileJSON)] = []
            let access = strings("job-storage-access-supported").filter(
                ProfileFeatures.JobStorage.accessKeywords.contains)
            if !access.isEmpty { storage.append(("access", keywordList(access))) }
            let dispositions = strings("job-storage-disposition-supported").filter(
                ProfileFeatures.JobStorage.dispositionKeywords.contains)
            if !dispositions.isEmpty { storage.append(("dispositions", keywordList(dispositions))) }
            let groups = strings("job-storage-group-supported")
            if !groups.isEmpty { storage.append(("groups", keywordList(groups))) }
            add("jobStorage", .object(storage))
        }
        let operations = a["operations-supported"]?.values.compactMap(\.integerValue) ?? []
        if operations.contains(Int32(IPPOperation.printURI.rawValue))
            || operations.contains(Int32(IPPOperation.sendURI.rawValue))
        {
            add("documentURI", .bool(true))
        }
        if case .rangeOfInteger(let copies)? = a["proof-print-copies-supported"]?.value,
            ProfileFeatures.ProofPrint.copiesRange.contains(copies.upperBound)
        {
            add("proofPrint", .object([("maximumCopies", .integer(Int(copies.upperBound)))]))
        }
    }
}

extension ProfileJSON {
    /// The member of an object.
    func objectValue(_ key: String) -> ProfileJSON? {
        if case .object(let members) = self { return members.first { $0.0 == key }?.1 }
        return nil
    }
}
