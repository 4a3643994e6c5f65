extension ScanSettings {
    /// What a client's ScanSettings said, element by element, as it said it, before the scanner's defaults and
    /// checks: the `settings-asked` of a scan job's record, beside the settings used, so that a test sees what its
    /// app sent. A setting the client left out is nil.
    public struct Asked: Sendable, Equatable, Codable {
        /// pwg:ScanRegion as it was sent: offsets and size, and the units named.
        public struct Region: Sendable, Equatable, Codable {
            public var xOffset: String?
            public var yOffset: String?
            public var width: String?
            public var height: String?
            public var units: String?

            enum CodingKeys: String, CodingKey {
                case xOffset = "x-offset", yOffset = "y-offset", width, height, units
            }
        }

        public var inputSource: String?
        public var duplex: String?
        public var colorMode: String?
        public var xResolution: String?
        public var yResolution: String?
        public var documentFormat: String?
        public var documentFormatExt: String?
        public var intent: String?
        public var region: Region?

        enum CodingKeys: String, CodingKey {
            case inputSource = "input-source", duplex, colorMode = "color-mode", xResolution = "x-resolution"
            case yResolution = "y-resolution", documentFormat = "document-format"
            case documentFormatExt = "document-format-ext", intent, region
        }

        /// What the ScanSettings document `body` says; nil when it is no ScanSettings document.
        public static func read(_ body: [UInt8]) -> Asked? {
            guard let root = try? XMLReader.read(body), root.name == "ScanSettings" else { return nil }
            var region: Region?
            if let element = root.descendant("ScanRegion") {
                region = Region(
                    xOffset: element.value("XOffset"), yOffset: element.value("YOffset"),
                    width: element.value("Width"), height: element.value("Height"),
                    units: element.value("ContentRegionUnits"))
            }
            return Asked(
                inputSource: root.value("InputSource"), duplex: root.value("Duplex"),
                colorMode: root.value("ColorMode"), xResolution: root.value("XResolution"),
                yResolution: root.value("YResolution"), documentFormat: root.value("DocumentFormat"),
                documentFormatExt: root.value("DocumentFormatExt"), intent: root.value("Intent"), region: region)
        }
    }
}
