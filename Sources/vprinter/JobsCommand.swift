import Foundation
import PrintModel
import PrinterCore
import PrinterHTTP
import VirtualPrinterKit

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
        var records: [JobRecord] = []
        var texts: [[UInt8]] = []
        for id in names.compactMap(Int.init).sorted() {
            let path = "\(jobsFolder)/\(id)/job.json"
            guard let data = FileManager.default.contents(atPath: path) else {
                Console.log("warning: \(path) is missing or unreadable")
                continue
            }
            let record: JobRecord
            do throws(JobRecord.ReadError) {
                record = try JobRecord.decode(data)
            } catch {
                Console.log("warning: \(path) is unreadable: \(error)")
                continue
            }
            guard query.matches(JobQuery.Subject(record: record)) else { continue }
            if query.text != nil, !query.matches(text: sideTexts(record, folder: "\(jobsFolder)/\(id)")) { continue }
            records.append(record)
            texts.append(Array(data))
        }
        if options.json {
            // The records as they are on disk, in one array.
            let array = texts.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ",\n")
            Console.out("[" + array + "]")
            return 0
        }
        Console.out(Self.table(records))
        return 0
    }

    /// The text of each side of a recorded job: its text files, after OCR of the sides that have none.
    func sideTexts(_ record: JobRecord, folder: String) -> [String] {
        let impressions = record.impressions
        func read(_ impression: PrintedSide) -> String? {
            guard let text = PrintedSide.textFileName(forImage: impression.file) else {
                return nil
            }
            let data = FileManager.default.contents(atPath: folder + "/" + text)
            return data.map { String(decoding: $0, as: UTF8.self) }
        }
        var texts = impressions.map(read)
        let missing = impressions.indices.filter { texts[$0] == nil }
        if !missing.isEmpty, options.ocr, let worker = RenderWorkerClient.locateWorker() {
            let sides = missing.map { index in
                RenderRequest.Side(
                    number: impressions[index].number, file: impressions[index].file, dpi: impressions[index].dpi)
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
    static func table(_ records: [JobRecord]) -> String {
        var rows = [["ID", "STATE", "PRINTER", "USER", "NAME", "FORMAT", "PAGES"]]
        for record in records {
            let formats = record.documents.map(\.effectiveFormat.rawValue)
            rows.append([
                "\(record.jobID)", record.jobState.keyword, record.printerName, record.jobOriginatingUserName,
                record.jobName, formats.joined(separator: ","), "\(record.jobImpressions)",
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
