import Foundation
import IPP

/// Writes each job's record, `<output>/jobs/<id>/job.json` (DESIGN.md "Job record"), atomically: the record is
/// written to a temporary file in the same folder and renamed over the old one, so a reader never sees a torn
/// record, even if the process is killed.
struct JobRecorder: Sendable {
    let outputDirectory: String

    /// The record's schema version.
    static let schema = 1

    /// The folder of a job.
    func folder(of jobID: Int) -> String {
        "\(outputDirectory)/jobs/\(jobID)"
    }

    /// Creates the job's folder.
    func createFolder(of jobID: Int) throws(DocumentError) {
        let path = folder(of: jobID)
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .storage(path: path, errno: Int32((error as NSError).code))
        }
    }

    /// Writes the record and returns its bytes (kept by the printer to answer the API without encoding again);
    /// a failure is returned for the caller to log, never thrown into the job.
    func write(_ job: Job) -> (json: [UInt8]?, failure: String?) {
        let path = "\(folder(of: job.id))/job.json"
        do {
            let bytes = RecordJSON.encode(Self.record(of: job))
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
            return (bytes, nil)
        } catch {
            return (nil, "cannot write \(path): \(error)")
        }
    }

    /// The record of a job as JSON bytes: the ones last written, or encoded now.
    static func json(of job: Job) -> [UInt8] {
        if let cached = job.recordJSON { return cached }
        return RecordJSON.encode(record(of: job))
    }

    /// The record as a JSON object.
    static func record(of job: Job) -> [String: Any] {
        var attributes: [String: Any] = [:]
        for attribute in job.templateAttributes {
            attributes[attribute.name] = IPPJSON.jsonValue(of: attribute)
        }
        var times: [String: Any] = ["created": iso8601(job.timeCreated)]
        if let t = job.timeProcessing { times["processing"] = iso8601(t) }
        if let t = job.timeCompleted { times["completed"] = iso8601(t) }
        var client: [String: Any] = ["address": job.client.address]
        if let agent = job.client.userAgent { client["user-agent"] = agent }
        let sheets = job.impressions.map(\.sheet).max() ?? 0
        let record: [String: Any] = [
            "schema": schema,
            "printer-name": job.printerName,
            "job-id": job.id,
            "job-uuid": job.uuid,
            "job-name": job.name,
            "job-originating-user-name": job.user,
            "job-printer-uri": job.printerURI,
            "job-state": job.state.keyword,
            "job-state-reasons": job.reasons,
            "job-state-message": job.message,
            "attributes": attributes,
            "documents": job.documents.map(documentRecord),
            "impressions": job.impressions.map(impressionRecord),
            "sheets": sheets,
            "copies": job.copies,
            "job-impressions": job.impressions.count * job.copies,
            "job-media-sheets": sheets * job.copies,
            "job-pages": job.documents.compactMap(\.pages).reduce(0, +),
            "times": times,
            "history": job.history.map { entry in
                ["time": iso8601(entry.time), "job-state": entry.state.keyword, "job-state-reasons": entry.reasons]
            },
            "client": client,
        ]
        return record.merging(factsRecord(of: job)) { current, _ in current }
    }

    static func documentRecord(_ document: DocumentRecord) -> [String: Any] {
        var record: [String: Any] = [
            "document-number": document.number,
            "document-format": document.format,
            "document-format-detected": document.detectedFormat ?? NSNull(),
            "compression": document.compression,
            "size": document.size,
            "sha256": document.sha256,
            "file": document.file,
        ]
        if let name = document.name { record["document-name"] = name }
        if let pages = document.pages { record["pages"] = pages }
        if document.isCanceled { record["document-state"] = "canceled" }
        return record
    }

    static func impressionRecord(_ impression: ImpressionRecord) -> [String: Any] {
        var record: [String: Any] = [
            "number": impression.number, "file": impression.file, "sheet": impression.sheet,
            "side": impression.side, "width": impression.width, "height": impression.height, "dpi": impression.dpi,
            "color": impression.color,
        ]
        if let pages = impression.pages { record["pages"] = pages.map { ["document": $0.document, "page": $0.page] } }
        return record.merging(factsRecord(of: impression)) { current, _ in current }
    }

    static func iso8601(_ time: Double) -> String {
        IPPDateTime(secondsSince1970: time).iso8601
    }
}
