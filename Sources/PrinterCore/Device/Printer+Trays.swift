import IPP
import Profiles

/// Why a tray cannot be loaded as asked (`POST /api/v1/printers/<name>/trays`).
public enum TrayLoadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No tray or roll of that name can run out of media (unknown, `auto`, or a tray of unknown capacity); nil:
    /// the printer has none at all.
    case noSuchTray(String?)
    /// The size is not a media-supported name of this printer.
    case unsupportedMedia(String)
    /// The type is not in media-type-supported.
    case unsupportedType(String)

    public var description: String {
        switch self {
        case .noSuchTray(let name?): "no tray or roll '\(name)' whose level can be set"
        case .noSuchTray(nil):
            "this printer has no tray or roll whose level can be set (auto, and a tray of unknown capacity, hold no count)"
        case .unsupportedMedia(let name): "media \(name) is not in media-supported"
        case .unsupportedType(let type): "media-type \(type) is not in media-type-supported"
        }
    }

    /// The HTTP status of the API's answer.
    public var httpStatus: Int {
        if case .noSuchTray = self { return 404 }
        return 400
    }
}

/// What is loaded in each input tray and roll: the media (size and type, as media-col-ready and media-ready say)
/// next to the simulated level of sheets (for a roll: loaded or empty).
extension Printer {
    /// One input tray as the web page and the printers API show it.
    public struct TrayStatus: Sendable, Equatable {
        public var name: String
        /// Sheets it holds at most; -2 when unknown (auto, rolls).
        public var capacity: Int
        /// Sheets in it now; -2 when unknown, -3 some remaining, 0 empty (a roll too).
        public var level: Int
        public var isManual: Bool
        /// True for a roll: its length is not counted, but it can be emptied (level 0) and reloaded.
        public var isRoll: Bool
        /// True for a tray or roll whose level can be set (emptied and refilled).
        public var canRunOut: Bool
        /// The PWG media name loaded (media-ready), if the printer says.
        public var media: String?
        /// The media-type loaded, if the printer says.
        public var mediaType: String?

        /// True for a tray that holds a known number of sheets (its level counts them).
        public var holdsSheets: Bool { canRunOut && capacity > 0 }
    }

    /// Every input tray, in the order of printer-input-tray.
    public var trays: [TrayStatus] {
        let loaded = loadedMedia(cache)
        return status.withLock { $0.device.trays }.map { tray in
            TrayStatus(
                name: tray.name, capacity: tray.capacity, level: tray.level, isManual: tray.isManual,
                isRoll: tray.isRoll, canRunOut: tray.canRunOut, media: loaded[tray.name]?.size,
                mediaType: loaded[tray.name]?.type)
        }
    }

    /// One output bin: sheets in it and its capacity (-2 when unknown).
    public struct BinStatus: Sendable, Equatable {
        public var name: String
        public var capacity: Int
        public var level: Int
    }

    /// Every output bin, in the order of printer-output-tray.
    public var outputBins: [BinStatus] {
        status.withLock { $0.device.bins }.map { BinStatus(name: $0.name, capacity: $0.capacity, level: $0.level) }
    }

    /// The media loaded per source, from media-col-ready (size named as in media-ready or media-supported).
    func loadedMedia(_ attributes: PrinterAttributeCache) -> [String: (size: String, type: String?)] {
        let ready = attributes["media-col-ready"]?.values ?? []
        let names = attributes["media-ready"]?.values.compactMap(\.stringValue) ?? []
        let supported = attributes["media-supported"]?.values.compactMap(\.stringValue) ?? []
        var result: [String: (size: String, type: String?)] = [:]
        for (index, value) in ready.enumerated() {
            guard let members = value.collectionValue,
                let source = members.first(where: { $0.name == "media-source" })?.value?.stringValue,
                let size = members.first(where: { $0.name == "media-size" })?.value?.collectionValue,
                let width = size.first(where: { $0.name == "x-dimension" })?.value?.integerValue,
                let height = size.first(where: { $0.name == "y-dimension" })?.value?.integerValue
            else { continue }
            let type = members.first { $0.name == "media-type" }?.value?.stringValue
            let matches = { (name: String) -> Bool in
                guard let parsed = MediaSize(pwgName: name) else { return false }
                return abs(parsed.width - width) <= 100 && abs(parsed.height - height) <= 100
            }
            let name =
                (index < names.count && matches(names[index]) ? names[index] : nil)
                ?? supported.first(where: matches) ?? "custom_\(width)x\(height)"
            if result[source] == nil { result[source] = (name, type) }
        }
        return result
    }

    /// Loads a tray (a person filling it at the printer): its level in sheets (nil fills it, 0 empties it), and
    /// optionally the size and type of paper put in, which become its entry of media-col-ready and media-ready.
    /// A roll is emptied by level 0 and reloaded by any other level (or none). A nil source means every tray and
    /// roll that can run out (level only).
    public func loadTray(source: String?, level: Int?, media: String? = nil, type: String? = nil)
        throws(TrayLoadError)
    {
        let current = cache
        if let media {
            let supported = current["media-supported"]?.values.compactMap(\.stringValue) ?? []
            guard supported.contains(media), MediaSize(pwgName: media) != nil else {
                throw .unsupportedMedia(media)
            }
        }
        if let type {
            let supported = current["media-type-supported"]?.values.compactMap(\.stringValue) ?? []
            guard supported.contains(type) else { throw .unsupportedType(type) }
        }
        let trays = status.withLock { $0.device.trays }
        guard trays.contains(where: { (source == nil || $0.name == source) && $0.canRunOut })
        else { throw .noSuchTray(source) }
        if let source, media != nil || type != nil {
            let loaded = loadedMedia(current)[source]
            guard let size = media ?? loaded?.size, let parsed = MediaSize(pwgName: size) else {
                throw .unsupportedMedia(media ?? "(none loaded)")
            }
            setLoadedMedia(source: source, size: parsed, type: type ?? loaded?.type, in: current)
        }
        setTrayLevel(source: source, level: level)
    }

    /// Replaces (or adds) the media-col-ready and media-ready entries of one source, with the margins
    /// media-col-database gives for that size.
    private func setLoadedMedia(source: String, size: MediaSize, type: String?, in current: PrinterAttributeCache) {
        var ready = current["media-col-ready"]?.values ?? []
        var names = current["media-ready"]?.values ?? []
        let margins = Self.margins(of: size, in: current)
        var members = [
            IPPAttribute("media-bottom-margin", .integer(margins.bottom)),
            IPPAttribute("media-left-margin", .integer(margins.left)),
            IPPAttribute("media-right-margin", .integer(margins.right)),
            IPPAttribute(
                "media-size",
                .collection([
                    IPPAttribute("x-dimension", .integer(size.width)),
                    IPPAttribute("y-dimension", .integer(size.height)),
                ])),
            IPPAttribute("media-source", .keyword(source)),
            IPPAttribute("media-top-margin", .integer(margins.top)),
        ]
        if let type { members.append(IPPAttribute("media-type", .keyword(type))) }
        let index = ready.firstIndex { value in
            value.collectionValue?.first { $0.name == "media-source" }?.value?.stringValue == source
        }
        if let index {
            ready[index] = .collection(members)
            if index < names.count { names[index] = .keyword(size.name) } else { names.append(.keyword(size.name)) }
        } else {
            ready.append(.collection(members))
            names.append(.keyword(size.name))
        }
        attributeStore.change {
            $0 = $0.replacing([
                IPPAttribute(name: "media-col-ready", values: ready), IPPAttribute(name: "media-ready", values: names),
            ])
        }
        publishConfigChange()
        log("tray \(source) loaded with \(size.name)\(type.map { " (\($0))" } ?? "")")
    }

    /// Notes a change of the printer's description attributes (printer-config-changed, RFC 3995 section 5.3.3.2).
    func publishConfigChange() {
        updatePrinter { $0.configChangeTime = WallClock.now() }
        recordForSubscriptions(
            events.publish(
                PrinterEvent(
                    kind: .printerConfigChanged, sequence: 0, time: WallClock.now(), printerName: configuration.name,
                    jobID: nil, state: status.withLock { $0.state.keyword }, reasons: [], message: nil)))
    }

    /// The margins of the first media-col-database entry of this size (the printer's usual margins for it).
    package static func margins(of size: MediaSize, in attributes: PrinterAttributeCache) -> (
        top: Int32, left: Int32, right: Int32, bottom: Int32
    ) {
        for value in attributes["media-col-database"]?.values ?? [] {
            guard let members = value.collectionValue,
                let dimensions = members.first(where: { $0.name == "media-size" })?.value?.collectionValue,
                dimensions.first(where: { $0.name == "x-dimension" })?.value?.integerValue == size.width,
                dimensions.first(where: { $0.name == "y-dimension" })?.value?.integerValue == size.height
            else { continue }
            func margin(_ name: String) -> Int32 { members.first { $0.name == name }?.value?.integerValue ?? 0 }
            return (
                margin("media-top-margin"), margin("media-left-margin"), margin("media-right-margin"),
                margin("media-bottom-margin")
            )
        }
        return (0, 0, 0, 0)
    }
}
