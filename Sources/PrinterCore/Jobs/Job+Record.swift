import IPP
import PrintModel
import Profiles

/// The job and its record (PrintModel's ``JobRecord``, the only reader and writer of `job.json`): the record of
/// a job as it stands, and a job rebuilt from its record after a restart.
extension JobRecord {
    /// The record of `job` as it stands now.
    public init(_ job: Job) {
        var attributes: [String: JSONValue] = [:]
        for attribute in job.templateAttributes {
            attributes[attribute.name] = JSONValue(any: IPPJSON.jsonValue(of: attribute))
        }
        let sheets = job.impressions.map(\.sheet).max() ?? 0
        self.init(
            printerName: job.printerName, jobID: job.id, jobUUID: job.uuid, jobName: job.name,
            jobOriginatingUserName: job.user, jobPrinterURI: job.printerURI, jobState: job.state,
            jobStateReasons: job.reasons, jobStateMessage: job.message, attributes: attributes,
            documents: job.documents.map(Document.init), impressions: job.impressions, sheets: sheets,
            copies: job.copies, jobImpressions: job.impressions.count * job.copies, jobMediaSheets: sheets * job.copies,
            jobPages: job.documents.compactMap(\.pages).reduce(0, +),
            times: Times(
                created: Self.iso8601(job.timeCreated), processing: job.timeProcessing.map(Self.iso8601),
                completed: job.timeCompleted.map(Self.iso8601)),
            history: job.history.map {
                HistoryEntry(
                    time: Self.iso8601($0.time), jobState: $0.state, jobStateReasons: $0.reasons,
                    jobStateMessage: $0.message)
            },
            client: Client(address: job.client.address, userAgent: job.client.userAgent),
            creationOperation: job.creationOperation, ignoredAttributes: job.ignoredAttributes,
            warnings: job.warnings, mediaActual: job.actual?.media, sidesActual: job.actual?.sides,
            printColorModeActual: job.actual?.printColorMode)
    }

    package static func iso8601(_ time: Double) -> String {
        IPPDateTime(secondsSince1970: time).iso8601
    }
}

extension JobRecord.Document {
    /// The record of a stored document.
    init(_ document: DocumentRecord) {
        self.init(
            documentNumber: document.number, documentName: document.name, documentFormat: document.format,
            documentFormatDetected: document.detectedFormat, compression: document.compression, size: document.size,
            sha256: document.sha256, file: document.file, pages: document.pages,
            documentState: document.isCanceled ? "canceled" : nil)
    }
}

extension DocumentRecord {
    /// The format the data turned out to be, when the document is labelled another: application/octet-stream asks
    /// the printer to find out, and a PCLm file is a PDF. Nil when the label is right or the data unknown.
    var mislabelledAs: DocumentFormat? {
        guard let detected = detectedFormat, format.isContradicted(byDetected: detected) else { return nil }
        return detected
    }

    /// A stored document as its record lists it.
    init(_ record: JobRecord.Document) {
        self.init(
            number: record.documentNumber, name: record.documentName, format: record.documentFormat,
            detectedFormat: record.documentFormatDetected, compression: record.compression, size: record.size,
            sha256: record.sha256, file: record.file, pages: record.pages,
            isCanceled: record.documentState == "canceled")
    }
}

extension Job {
    /// Rebuilds a job from its record (`job.json`), for a restart on the same output folder.
    init(record: JobRecord, printerStartTime: Double) {
        var ticket: [IPPAttribute] = []
        for (name, value) in record.attributes.sorted(by: { $0.key < $1.key }) {
            if let attribute = try? IPPJSON.attribute(name: name, json: value.anyValue) { ticket.append(attribute) }
        }
        self.init(
            id: record.jobID, uuid: record.jobUUID, printerName: record.printerName,
            printerURI: record.jobPrinterURI, name: record.jobName, user: record.jobOriginatingUserName,
            templateAttributes: ticket,
            client: ClientInfo(address: record.client.address, userAgent: record.client.userAgent),
            now: Self.parseISO8601(record.times.created) ?? 0, printerStartTime: printerStartTime)
        state = record.jobState
        reasons = record.jobStateReasons
        message = record.jobStateMessage
        // A job that had not ended and still showed job-incoming was waiting for (or receiving) documents.
        isReceiving = !state.isTerminal && reasons.contains("job-incoming")
        creationOperation = record.creationOperation
        if state == .pendingHeld {
            let until = ticket.first { $0.name == "job-hold-until" }?.value?.stringValue
            holdUntil = until.flatMap { $0 == "no-hold" ? nil : $0 } ?? "indefinite"
            holdReason = reasons.first { $0 != "job-incoming" && $0 != "job-hold-until-specified" }
        }
        timeProcessing = record.times.processing.flatMap(Self.parseISO8601)
        timeCompleted = record.times.completed.flatMap(Self.parseISO8601)
        documents = record.documents.map(DocumentRecord.init)
        impressions = record.impressions
        ignoredAttributes = record.ignoredAttributes
        warnings = record.warnings
        if let media = record.mediaActual, let sides = record.sidesActual, let mode = record.printColorModeActual {
            actual = ActualSettings(media: media, sides: sides, printColorMode: mode)
        }
        history = record.history.compactMap { entry in
            guard let time = Self.parseISO8601(entry.time) else { return nil }
            return JobHistoryEntry(
                time: time, state: entry.jobState, reasons: entry.jobStateReasons, message: entry.jobStateMessage)
        }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SSZ` as written by `IPPDateTime.iso8601`: fixed positions, read as bytes (a
    /// restart parses several per record, for thousands of records).
    static func parseISO8601(_ text: String) -> Double? {
        var text = text
        return text.withUTF8(parseISO8601Bytes)
    }

    private static func parseISO8601Bytes(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "Z")
        else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                let digit = Int(bytes[index]) - Int(UInt8(ascii: "0"))
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minutes = number(14, 2), let seconds = number(17, 2)
        else { return nil }
        let date = IPPDateTime(
            year: UInt16(year), month: UInt8(month), day: UInt8(day), hour: UInt8(hour), minutes: UInt8(minutes),
            seconds: UInt8(seconds))
        return date.secondsSince1970
    }
}
