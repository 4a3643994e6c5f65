import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// DeviceState: trays, supplies and bins read from the shipped profiles, the levels printing lowers, the
/// attributes rendered back (PWG 5100.13) and the printer-state-reasons the levels imply.
@Suite struct DeviceStateTests {
    /// The device of a shipped profile.
    func device(_ profile: String, tracked: Bool = true) throws -> DeviceState {
        let loaded = try PrinterProfile.load(
            nameOrPath: profile, searchDirectories: [repositoryRoot.appendingPathComponent("profiles").path])
        let attributes = loaded.printerAttributes(context: ProfileAttributeContext(printerName: "t"))
        return DeviceState(
            attributes: Dictionary(attributes.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first }),
            tracksConsumables: tracked)
    }

    /// The text of each octetString value of a rendered attribute.
    func texts(_ device: DeviceState, _ name: String) -> [String] {
        let attribute = device.attributes.first { $0.name == name }
        return (attribute?.values ?? []).compactMap { value in
            guard case .octetString(let bytes) = value else { return nil }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    // MARK: Reading the profile

    @Test func duplexLaserHasItsTraysSupplyAndBin() throws {
        let device = try device("duplex-laser")
        #expect(device.trays.map(\.name) == ["auto", "main", "manual"])
        #expect(device.trays.map(\.capacity) == [-2, 250, 1])
        #expect(device.trays[1].level == 250)
        #expect(device.trays[2].isManual)
        #expect(device.supplies.map(\.type) == ["toner"])
        #expect(device.supplies[0].level == 80)
        #expect(device.bins.map(\.name) == ["face-down"])
        #expect(device.bins[0].capacity == 150)
        #expect(device.bins[0].level == 0)
        #expect(device.reasons.isEmpty)
    }

    @Test func colorInkjetHasFourInkSupplies() throws {
        let device = try device("color-inkjet")
        #expect(device.supplies.map(\.level) == [70, 65, 90, 55])
        #expect(device.trays.map(\.name) == ["auto", "main", "photo"])
        #expect(device.trays[2].capacity == 20)
    }

    // MARK: Rendering

    @Test func attributesCarryTheCurrentLevels() throws {
        var device = try device("duplex-laser")
        device.trays[1].level = 17
        device.supplies[0].level = 42
        device.bins[0].level = 30
        let trays = texts(device, "printer-input-tray")
        #expect(trays.count == 3)
        #expect(
            trays[1].contains(";level=17;") && trays[1].contains("name=main;") && trays[1].contains("maxcapacity=250;"))
        #expect(texts(device, "printer-supply").first?.contains(";level=42;") == true)
        let levels = device.attributes.first { $0.name == "marker-levels" }?.values
        #expect(levels == [.integer(42)])
        let bin = texts(device, "printer-output-tray").first ?? ""
        #expect(bin.contains(";remaining=120;") && bin.contains("maxcapacity=150;"))
        #expect(Set(device.attributes.map(\.name)) == DeviceState.attributeNames)
    }

    @Test func renderedAttributesReadBackToTheSameLevels() throws {
        var device = try device("color-inkjet")
        device.trays[1].level = 3
        device.supplies[2].level = 9
        device.bins[0].level = 140
        let again = DeviceState(
            attributes: Dictionary(device.attributes.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a }),
            tracksConsumables: true)
        #expect(again.trays == device.trays)
        #expect(again.supplies.map(\.level) == device.supplies.map(\.level))
        #expect(again.bins == device.bins)
    }

    // MARK: Printing lowers levels

    @Test func eachSheetComesFromTheTrayAndGoesToTheBin() throws {
        var device = try device("duplex-laser")
        device.takeSheet(source: "main")
        device.takeSheet(source: nil)
        device.takeSheet(source: "auto")
        device.deliverSheet()
        #expect(device.trays[1].level == 247)
        #expect(device.bins[0].level == 1)
    }

    @Test func untrackedConsumablesNeverRunOut() throws {
        var device = try device("duplex-laser", tracked: false)
        for _ in 0..<1000 {
            device.takeSheet(source: "main")
            device.useImpression(color: false)
            device.deliverSheet()
        }
        #expect(device.trays[1].level == 250)
        #expect(device.supplies[0].level == 80)
        #expect(device.bins[0].level == 0)
    }

    @Test func supplyLosesOnePercentPerHundredthOfItsImpressions() throws {
        var device = try device("duplex-laser")
        let perPercent = DeviceState.impressionsPerSupply / 100
        for _ in 0..<(perPercent - 1) { device.useImpression(color: false) }
        #expect(device.supplies[0].level == 80)
        device.useImpression(color: false)
        #expect(device.supplies[0].level == 79)
    }

    @Test func grayImpressionsUseOnlyBlackInk() throws {
        var device = try device("color-inkjet")
        let perPercent = DeviceState.impressionsPerSupply / 100
        for _ in 0..<perPercent { device.useImpression(color: false) }
        #expect(device.supplies.map(\.level) == [70, 65, 90, 54])
        for _ in 0..<perPercent { device.useImpression(color: true) }
        #expect(device.supplies.map(\.level) == [69, 64, 89, 53])
    }

    @Test func emptyTrayIsSkippedForAutoButNotForANamedSource() throws {
        var device = try device("color-inkjet")
        device.trays[1].level = 0
        #expect(device.trayIndex(for: "auto") == 2)
        #expect(!device.isEmpty(source: "auto"))
        #expect(device.isEmpty(source: "main"))
        device.trays[2].level = 0
        #expect(device.isEmpty(source: nil))
    }

    @Test func aRollCanRunOutAndBeReloadedThoughItsLengthIsNotCounted() throws {
        var device = try device("wide-format")
        #expect(device.trays.map(\.name) == ["main-roll", "manual"])
        let roll = device.trays[0]
        #expect(roll.isRoll && roll.canRunOut && roll.capacity == -2 && roll.level == -2)
        #expect(!device.trays[1].isRoll)
        device.trays[0].setLevel(0)
        #expect(device.isEmpty(source: "main-roll") && device.isEmpty(source: "auto"))
        #expect(device.reasons == ["media-empty-report"])
        device.takeSheet(source: "main-roll")
        #expect(device.trays[0].level == 0)
        device.trays[0].setLevel(7)
        #expect(device.trays[0].level == -2)
        device.trays[0].setLevel(0)
        device.trays[0].setLevel(nil)
        #expect(device.trays[0].level == -2 && device.reasons.isEmpty)
        // A loaded roll is never used up by printing: its length is not modelled.
        device.takeSheet(source: "main-roll")
        #expect(device.trays[0].level == -2)
    }

    @Test func aSheetTrayStillStopsAtItsCapacity() throws {
        var device = try device("duplex-laser")
        device.trays[1].setLevel(999)
        #expect(device.trays[1].level == 250)
        device.trays[1].setLevel(3)
        #expect(device.trays[1].level == 3)
        #expect(!device.trays[0].canRunOut && !device.trays[1].isRoll)
    }

    // MARK: Reasons

    @Test func trayReasonsCrossTheLowFraction() throws {
        var device = try device("duplex-laser")
        let low = Int(Double(device.trays[1].capacity) * DeviceState.lowTrayFraction)
        device.trays[1].level = low
        #expect(device.reasons.isEmpty)
        device.trays[1].level = low - 1
        #expect(device.reasons == ["media-low-report"])
        device.trays[1].level = 0
        #expect(device.reasons == ["media-empty-report"])
        device.waitingForMedia = "main"
        #expect(device.reasons == ["media-empty-error", "media-needed-error"])
    }

    @Test func tonerReasonsFollowTheLowLevel() throws {
        var device = try device("duplex-laser")
        device.supplies[0].level = device.supplies[0].lowLevel + 1
        #expect(device.reasons.isEmpty)
        device.supplies[0].level = device.supplies[0].lowLevel
        #expect(device.reasons == ["toner-low-report"])
        device.supplies[0].level = 0
        #expect(device.reasons == ["toner-empty-error"])
    }

    @Test func inkReportsMarkerSupplyReasons() throws {
        var device = try device("color-inkjet")
        device.supplies[0].level = 5
        #expect(device.reasons == ["marker-supply-low-report"])
        device.supplies[1].level = 0
        #expect(device.reasons == ["marker-supply-low-report", "marker-supply-empty-error"])
    }

    @Test func outputBinReasonsCrossAlmostFullAndFull() throws {
        var device = try device("duplex-laser")
        let almost = Int((Double(device.bins[0].capacity) * DeviceState.almostFullBinFraction).rounded(.up))
        device.bins[0].level = almost - 1
        #expect(device.reasons.isEmpty)
        device.bins[0].level = almost
        #expect(device.reasons == ["output-area-almost-full-report"])
        device.bins[0].level = device.bins[0].capacity
        #expect(device.reasons == ["output-area-full-error"])
    }

    @Test func fullBinStopsFillingAtItsCapacity() throws {
        var device = try device("duplex-laser")
        for _ in 0..<(device.bins[0].capacity + 5) { device.deliverSheet() }
        #expect(device.bins[0].level == device.bins[0].capacity)
    }
}
