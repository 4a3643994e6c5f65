import Foundation
import HTTPServer
import PrinterCore
import Profiles
import Scanner

/// The JSON API of scanning (docs/api.md "Scans"): the scan jobs of every scanning printer, their images, and the
/// scanner's faults and feeder.
extension PrinterService {
    /// The scanners of the process's printers.
    private var scanners: [ScannerDevice] { printers.compactMap(\.scanner) }

    /// `GET /api/v1/scans`: the scan jobs kept, newest first, that the filters select (docs/api.md "Scans").
    func listScans(_ request: HTTPRequest) -> HTTPResponse {
        let query: ScanQuery
        do throws(JobQueryError) {
            query = try ScanQuery(parameters: request.query)
        } catch {
            return refusal(error)
        }
        return encoded(ScanList(scans: selectScans(query)))
    }

    /// `GET /api/v1/scans/wait?count=N&timeout=S`: the ended scan jobs the filters select, once `count` have
    /// ended; 408 with those ended so far when `timeout` (0 to 3600 s, default 30) passes first.
    func waitForScans(_ request: HTTPRequest) -> HTTPResponse {
        guard let count = request.queryValue("count").flatMap({ Int($0) }), count > 0 else {
            return json(["error": "wait needs count=N with N > 0"], status: 400)
        }
        let query: ScanQuery
        do throws(JobQueryError) {
            query = try ScanQuery(parameters: request.query, otherNames: ["count", "timeout"])
        } catch {
            return refusal(error)
        }
        guard let timeout = waitTimeout(request) else { return badWaitTimeout() }
        let subscription = events.subscribe()
        defer { subscription.cancel() }
        let deadline = ContinuousClock.now + .seconds(timeout)
        while true {
            let ended = selectScans(query).filter(\.state.isEnded)
            if ended.count >= count { return encoded(ScanList(scans: ended)) }
            let remaining = (deadline - ContinuousClock.now).seconds
            if remaining <= 0 {
                var answer = encoded(
                    ScanList(scans: ended, error: "\(ended.count) of \(count) scan jobs ended in time"))
                answer.status = 408
                return answer
            }
            _ = subscription.next(timeout: remaining)
        }
    }

    /// The scan jobs kept that `query` selects, newest first.
    private func selectScans(_ query: ScanQuery) -> [ScanJob] {
        scanners.flatMap(\.jobs).filter(query.matches).sorted { $0.number > $1.number }
    }

    /// `GET /api/v1/scans/{id}`: one scan job's record.
    func scanRecord(_ id: String) -> HTTPResponse {
        guard let (job, _) = scan(id) else { return json(["error": "no scan \(id)"], status: 404) }
        return encoded(job)
    }

    /// `GET /api/v1/scans/{id}/files/{file}`: an image of a scan job, or its `scan.json`.
    func scanFile(_ id: String, name: String) -> HTTPResponse {
        guard let (job, scanner) = scan(id) else { return json(["error": "no scan \(id)"], status: 404) }
        guard name == "scan.json" || job.images.contains(where: { $0.file == name }) else {
            return json(["error": "no file \(name) in scan \(id)"], status: 404)
        }
        return HTTPResponse(
            status: 200, headers: Self.fileHeaders(ofFile: name),
            body: .file(path: "\(scanner.folder(of: job.number))/\(name)"))
    }

    /// `POST /api/v1/printers/{name}/scanner`: sets the scanner's faults (`faults`, the list of those on) and the
    /// sheets in its feeder (`feeder-sheets`); answers the scanner's state.
    func setScanner(_ printer: Printer, _ scanner: ScannerDevice, body: [UInt8]) -> HTTPResponse {
        guard let object = requestJSON(body), Set(object.keys).isSubset(of: ["faults", "feeder-sheets"]) else {
            return json(["error": "the body is {\"faults\": [...], \"feeder-sheets\": N}"], status: 400)
        }
        if let listed = object["faults"] {
            guard let names = listed as? [String] else {
                return json(["error": "faults is a list of fault names"], status: 400)
            }
            var faults: Set<ScannerFault> = []
            for name in names {
                guard let fault = ScannerFault(rawValue: name) else {
                    let known = ScannerFault.allCases.map(\.rawValue).joined(separator: ", ")
                    return json(["error": "unknown scanner fault \(name) (known: \(known))"], status: 400)
                }
                faults.insert(fault)
            }
            for fault in ScannerFault.allCases { scanner.set(fault, faults.contains(fault)) }
        }
        if let sheets = object["feeder-sheets"] {
            guard case .integer(let count)? = JSONNumber(sheets), count >= 0 else {
                return json(["error": "feeder-sheets is a whole number of sheets"], status: 400)
            }
            scanner.loadFeeder(sheets: count)
        }
        return scannerState(printer, scanner)
    }

    /// The media types a scan source is sent as. None is a type a web page's form or script may send to another
    /// site without asking first (CORS preflight), so the Origin check stands for them as JSON's does.
    static let scanSourceTypes: Set<String> = ["application/pdf", "image/png", "image/jpeg"]

    /// `PUT /api/v1/printers/{name}/scanner/source`: the body (a PDF, PNG or JPEG file, with its Content-Type) lies on
    /// the glass and in the feeder for the scans that follow; answers the scanner's state.
    func receiveScanSource(
        _ printer: Printer, _ scanner: ScannerDevice, request: HTTPRequest, body: inout HTTPRequestBody
    ) -> HTTPResponse {
        guard let mediaType = Self.mediaType(of: request), Self.scanSourceTypes.contains(mediaType) else {
            return json(
                ["error": "send the scan source with Content-Type application/pdf, image/png or image/jpeg"],
                status: 415)
        }
        if let length = request.contentLength, length > ScannerDevice.maximumSourceBytes {
            return json(["error": "a scan source holds at most \(ScannerDevice.maximumSourceBytes) bytes"], status: 413)
        }
        let received = scanner.receiveSource { buffer throws in try body.read(into: buffer) }
        switch received {
        case .success(let source):
            printer.log("scan source \(source.path) received from \(request.remoteAddress)")
            return scannerState(printer, scanner)
        case .failure(let error):
            return json(["error": error.message], status: error.isTooLarge ? 413 : 400)
        }
    }

    /// `DELETE /api/v1/printers/{name}/scanner/source`: back to what lay on the glass at start (`--scan-source`, or
    /// the test chart).
    func resetScanSource(_ printer: Printer, _ scanner: ScannerDevice) -> HTTPResponse {
        scanner.resetSource()
        return scannerState(printer, scanner)
    }

    /// `body`'s answer for the printer's scanner; 404 for a printer without one.
    func withScanner(_ printer: Printer, _ body: (ScannerDevice) -> HTTPResponse) -> HTTPResponse {
        guard let scanner = printer.scanner else {
            return json(["error": "printer \(printer.name) has no scanner"], status: 404)
        }
        return body(scanner)
    }

    /// The scanner's faults, feeder and source as the API shows them (`source` null: the test chart).
    func scannerState(_ printer: Printer, _ scanner: ScannerDevice) -> HTTPResponse {
        json([
            "printer-name": printer.name, "faults": scanner.faults.map(\.rawValue).sorted(),
            "feeder-sheets": scanner.feederSheets, "state": scanner.status.state.rawValue,
            "source": scanner.source.map { $0.path as Any } ?? NSNull(),
        ])
    }

    /// The scan job with number `id`, and its scanner.
    private func scan(_ id: String) -> (ScanJob, ScannerDevice)? {
        guard let number = Int(id) else { return nil }
        for scanner in scanners {
            if let job = scanner.job(number: number) { return (job, scanner) }
        }
        return nil
    }

    private struct ScanList: Encodable {
        var scans: [ScanJob]
        /// Why a wait ended without enough scan jobs.
        var error: String? = nil
    }

    private func encoded(_ value: some Encodable) -> HTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return json(["error": "cannot encode"], status: 500) }
        return jsonBytes(Array(data))
    }
}
