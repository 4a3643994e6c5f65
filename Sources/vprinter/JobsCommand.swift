import Foundation

/// `vprinter jobs`: the jobs recorded in an output folder, read from their job.json files; needs no server.
struct JobsCommand {
    let options: CommandLineOptions

    func run() -> Int32 {
        let jobsFolder = options.outputDirectory + "/jobs"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: jobsFolder) else {
            Console.log("error: no jobs folder at \(jobsFolder)")
            return 1
        }
        var records: [[String: Any]] = []
        for id in names.compactMap(Int.init).sorted() {
            let path = "\(jobsFolder)/\(id)/job.json"
            guard let data = FileManager.default.contents(atPath: path),
                let record = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            else {
                Console.log("warning: \(path) is missing or unreadable")
                continue
            }
            records.append(record)
        }
        if options.json {
            let data =
                (try? JSONSerialization.data(withJSONObject: records, options: [.prettyPrinted, .sortedKeys])) ?? Data()
            Console.out(String(decoding: data, as: UTF8.self))
            return 0
        }
        Console.out(Self.table(records))
        return 0
    }

    /// A readable table: id, state, printer, user, name, format, impressions.
    static func table(_ records: [[String: Any]]) -> String {
        var rows = [["ID", "STATE", "PRINTER", "USER", "NAME", "FORMAT", "PAGES"]]
        for record in records {
            let documents = record["documents"] as? [[String: Any]] ?? []
            let formats = documents.map {
                ($0["document-format-detected"] as? String) ?? ($0["document-format"] as? String) ?? "?"
            }
            rows.append([
                "\(record["job-id"] ?? "?")", record["job-state"] as? String ?? "?",
                record["printer-name"] as? String ?? "",
                record["job-originating-user-name"] as? String ?? "", record["job-name"] as? String ?? "",
                formats.joined(separator: ","), "\(record["job-impressions"] ?? 0)",
            ])
        }
        var widths = [Int](repeating: 0, count: rows[0].count)
        for row in rows { for (i, cell) in row.enumerated() { widths[i] = max(widths[i], min(cell.count, 40)) } }
        return rows.map { row in
            row.enumerated().map { i, cell in
                let clipped = cell.count > 40 ? String(cell.prefix(39)) + "…" : cell
                return clipped.padding(toLength: widths[i], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
