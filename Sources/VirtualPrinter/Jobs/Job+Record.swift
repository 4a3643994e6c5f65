import Foundation
import IPP

extension Job {
    /// Rebuilds a job from its record (`job.json`), for a restart on the same output folder.
    ///
    /// Returns nil for a record that is not one this version wrote (wrong schema, missing identity keys).
    init?(record: [String: Any], printerStartTime: Double) {
        guard record["schema"] as? Int == JobRecorder.schema, let id = record["job-id"] as? Int, id > 0,
            let uuid = record["job-uuid"] as? String, let printerName = record["printer-name"] as? String,
            let stateName = record["job-state"] as? String, let state = JobState(keyword: stateName)
        else { return nil }
        let times = record["times"] as? [String: Any] ?? [:]
        let created = (times["created"] as? String).flatMap(Self.parseISO8601) ?? 0
        let client = record["client"] as? [String: Any] ?? [:]
        var ticket: [IPPAttribute] = []
        for (name, value) in (record["attributes"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let attribute = try? IPPJSON.attribute(name: name, json: value) { ticket.append(attribute) }
        }
        self.init(
            id: id, uuid: uuid, printerName: printerName,
            printerURI: record["job-printer-uri"] as? String ?? "", name: record["job-name"] as? String ?? "",
            user: record["job-originating-user-name"] as? String ?? "anonymous", templateAttributes: ticket,
            client: ClientInfo(
                address: client["address"] as? String ?? "", userAgent: client["user-agent"] as? String),
            now: created, printerStartTime: printerStartTime)
        self.state = state
        reasons = record["job-state-reasons"] as? [String] ?? []
        message = record["job-state-message"] as? String ?? ""
        // A job that had not ended and still showed job-incoming was waiting for (or receiving) documents.
        isReceiving = !state.isTerminal && reasons.contains("job-incoming")
        creationOperation = record["creation-operation"] as? String
        if state == .pendingHeld {
            let until = ticket.first { $0.name == "job-hold-until" }?.value?.stringValue
            holdUntil = until.flatMap { $0 == "no-hold" ? nil : $0 } ?? "indefinite"
            holdReason = reasons.first { $0 != "job-incoming" && $0 != "job-hold-until-specified" }
        }
        timeProcessing = (times["processing"] as? String).flatMap(Self.parseISO8601)
        timeCompleted = (times["completed"] as? String).flatMap(Self.parseISO8601)
        documents = (record["documents"] as? [[String: Any]] ?? []).compactMap(Self.document)
        impressions = (record["impressions"] as? [[String: Any]] ?? []).compactMap(Self.impression)
        restoreFacts(from: record)
        history = (record["history"] as? [[String: Any]] ?? []).compactMap { entry in
            guard let time = (entry["time"] as? String).flatMap(Self.parseISO8601),
                let state = (entry["job-state"] as? String).flatMap(JobState.init(keyword:))
            else { return nil }
            return JobHistoryEntry(
                time: time, state: state, reasons: entry["job-state-reasons"] as? [String] ?? [],
                message: entry["job-state-message"] as? String)
        }
    }

    static func document(_ record: [String: Any]) -> DocumentRecord? {
        guard let number = record["document-number"] as? Int, let file = record["file"] as? String else { return nil }
        var document = DocumentRecord(
            number: number, name: record["document-name"] as? String,
            format: record["document-format"] as? String ?? "application/octet-stream",
            detectedFormat: record["document-format-detected"] as? String,
            compression: record["compression"] as? String ?? "none", size: record["size"] as? Int ?? 0,
            sha256: record["sha256"] as? String ?? "", file: file, pages: record["pages"] as? Int)
        document.isCanceled = record["document-state"] as? String == "canceled"
        return document
    }

    static func impression(_ record: [String: Any]) -> ImpressionRecord? {
        guard let number = record["number"] as? Int, let file = record["file"] as? String else { return nil }
        let (facts, textSource) = Self.facts(ofImpression: record)
        return ImpressionRecord(
            number: number, file: file, sheet: record["sheet"] as? Int ?? number,
            side: record["side"] as? String ?? "front", width: record["width"] as? Int ?? 0,
            height: record["height"] as? Int ?? 0, dpi: record["dpi"] as? Int ?? 0,
            color: record["color"] as? Bool ?? false,
            pages: (record["pages"] as? [[String: Int]])?.compactMap { entry in
                guard let document = entry["document"], let page = entry["page"] else { return nil }
                return PlacedPage(document: document, page: page)
            }, facts: facts, textSource: textSource)
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
