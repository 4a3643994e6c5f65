import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// PrinterConfiguration.uuid: stable across calls and restarts, well-formed RFC 4122 text.
@Suite struct PrinterConfigurationTests {
    @Test func theSameNameGivesTheSameUUID() {
        #expect(PrinterConfiguration.uuid(forName: "Office") == PrinterConfiguration.uuid(forName: "Office"))
    }

    @Test func differentNamesGiveDifferentUUIDs() {
        let names = ["Office", "office", "Office ", "duplex-laser", "color-inkjet", ""]
        #expect(Set(names.map(PrinterConfiguration.uuid(forName:))).count == names.count)
    }

    @Test(arguments: ["Office", "", "Bürodrucker 2", String(repeating: "x", count: 1000)])
    func theUUIDIsAWellFormedVersion5URN(name: String) {
        let uuid = PrinterConfiguration.uuid(forName: name)
        #expect(uuid.hasPrefix("urn:uuid:"))
        let text = Array(uuid.dropFirst("urn:uuid:".count))
        #expect(text.count == 36)
        for (index, character) in text.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                #expect(character == "-")
            } else {
                #expect(character.isHexDigit && !character.isUppercase, "character \(index) of \(uuid)")
            }
        }
        #expect(text[14] == "5", "version nibble")
        #expect("89ab".contains(text[19]), "RFC 4122 variant")
    }

    @Test func theDefaultDocumentLimitIsFourGibibytes() {
        #expect(PrinterConfiguration.defaultMaximumDocumentSize == 4 * 1024 * 1024 * 1024)
    }
}
