import Foundation
import VirtualPrinter

/// `vprinter jobs`: the jobs recorded in an output folder, read from their job.json files; needs no server. The
/// filters are those of `GET /api/v1/jobs`; `--text` reads the sides' text files, and has raster sides read by OCR
/// through the render worker first when their text was never asked for (unless `--no-ocr`).
struct JobsCommand {
    let options: CommandLineOptions

    func run() -> Int32 {
        let query: JobQuery
        do throws(JobQueryError) {
            query = try JobQuery(parameters: options.filters.map { ($0.name, $0.value) })
        } catch {
            Console.log("error: \(error)")
            return 2
        }
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
            guard let subject = JobQuery.Subject(record: record), query.matches(subject) else { continue }
            if query.text != nil, !query.matches(text: sideTexts(record, folder: "\(jobsFolder)/\(id)")) { continue }
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

    /// The text of each side of a recorded job: its text files, after OCR of the sides that have none.
    func sideTexts(_ record: [String: Any], folder: String) -> [String] {
        let impressions = record["impressions"] as? [[String: Any]] ?? []
        func read(_ impression: [String: Any]) -> String? {
            guard let file = impression["file"] as? String, file.hasSuffix(".png"), !file.contains("/") else {
                return nil
            }
            let data = FileManager.default.contents(atPath: folder + "/" + file.dropLast(4) + ".txt")
            return data.map { String(decoding: $0, as: UTF8.self) }
        }
        var texts = impressions.map(read)
        let missing = impressions.indices.filter { texts[$0] == nil }
        if !missing.isEmpty, options.ocr, let worker = RenderWorkerClient.locateWorker() {
            let sides = missing.compactMap { index -> TextRecognitionSide? in
                guard let number = impressions[index]["number"] as? Int,
                    let file = impressions[index]["file"] as? String
                else { return nil }
                return TextRecognitionSide(number: number, file: file, dpi: impressions[index]["dpi"] as? Int ?? 150)
            }
            if case .failed(let message) = RenderWorkerClient(executable: worker).recognizeText(
                folder: folder, sides: sides)
            {
                Console.log("warning: OCR of \(folder) failed: \(message)")
            }
            texts = impressions.map(read)
        }
        return texts.compactMap { $0 }
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
