import Foundation
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import Profiles
@testable import VirtualPrinterKit

/// The table "Options present or absent" of docs/profiles.md, checked against the attributes each shipped profile
/// derives: a print dialog must show an option only where the printer has it, so every option needs a profile with
/// it and one without it, and the document must say which is which.
@Suite struct ProfileOptionsTableTests {
    /// The options of the table, in its column order, each with how it reads from a printer's attributes.
    static let options: [(column: String, present: @Sendable ([IPPAttribute]) -> Bool)] = [
        (
            "duplex",
            { ($0["sides-supported"]?.values ?? []).contains { $0.stringValue?.hasPrefix("two-sided") == true } }
        ),
        (
            "copies",
            {
                if case .rangeOfInteger(let range)? = $0["copies-supported"]?.value { return range.upperBound > 1 }
                return false
            }
        ),
        ("color", { ($0["print-color-mode-supported"]?.values ?? []).contains(.keyword("color")) }),
        ("page ranges", { $0["page-ranges-supported"]?.value == .boolean(true) }),
        ("number-up", { ($0["number-up-supported"]?.values ?? []).contains { ($0.integerValue ?? 1) > 1 } }),
        ("print-scaling", { !($0["print-scaling-supported"]?.values ?? []).isEmpty }),
        ("finishings", { ($0["finishings-supported"]?.values ?? []).contains { $0 != .enumValue(3) } }),
        (
            "media choices",
            { attributes in
                ["media-supported", "media-source-supported", "media-type-supported"].contains {
                    (attributes[$0]?.values.count ?? 0) > 1
                }
            }
        ),
    ]

    /// The table's rows: profile name -> yes/no per column, read from docs/profiles.md.
    static func documentedTable() throws -> (columns: [String], rows: [String: [Bool]]) {
        let doc = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/profiles.md"), encoding: .utf8)
        let lines = doc.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("## Options present or absent") })
        let header = try #require(lines[start...].firstIndex { $0.hasPrefix("| Profile |") })
        func cells(_ line: String) -> [String] {
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        }
        let columns = Array(cells(lines[header]).dropFirst())
        var rows: [String: [Bool]] = [:]
        for line in lines[(header + 2)...] {
            guard line.hasPrefix("|") else { break }
            let row = cells(line)
            let name = row[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            rows[name] = row.dropFirst().map { $0.lowercased().hasPrefix("yes") }
        }
        return (columns, rows)
    }

    @Test func theTableHasTheOptionsAPrintDialogShowsInOrder() throws {
        let table = try Self.documentedTable()
        #expect(table.columns == Self.options.map(\.column))
    }

    @Test func everyShippedProfileHasARowThatMatchesItsAttributes() throws {
        let table = try Self.documentedTable()
        let names = shippedPrinterProfileNames()
        #expect(Set(table.rows.keys) == Set(names), "docs/profiles.md lists every printing profile, and only those")
        for name in names {
            guard let row = table.rows[name] else { continue }
            let attributes = try shippedProfile(name).printerAttributes(
                context: ProfileAttributeContext(printerName: name))
            for (index, option) in Self.options.enumerated() where index < row.count {
                #expect(
                    option.present(attributes) == row[index],
                    "\(name): docs/profiles.md says \(option.column) \(row[index] ? "yes" : "no")")
            }
        }
    }

    @Test func everyOptionHasAProfileWithItAndOneWithout() throws {
        let names = shippedPrinterProfileNames()
        let all = try names.map {
            try shippedProfile($0).printerAttributes(context: ProfileAttributeContext(printerName: $0))
        }
        for option in Self.options {
            #expect(all.contains { option.present($0) }, "a profile with \(option.column)")
            #expect(all.contains { !option.present($0) }, "a profile without \(option.column)")
        }
    }

    @Test func atLeastTwelveProfilesShip() {
        #expect(PrinterProfile.shippedNames(in: [shippedProfilesDirectory]).count >= 12)
    }

    @Test(arguments: PrinterProfile.shippedNames(in: [shippedProfilesDirectory]))
    func eachShippedProfileIsNamedAfterItsFile(name: String) throws {
        #expect(try shippedProfile(name).name == name)
    }
}
