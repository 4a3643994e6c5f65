import Foundation
import HTTPServer
import PrintModel
import PrinterCore

extension PrinterService {
    /// `GET /api/v1/jobs/<id>/text`: the text of each printed side and how it was obtained. Sides without a text
    /// layer are read by OCR on this first request, which may take seconds a side.
    func jobText(jobID: String) -> HTTPResponse {
        guard let job = job(jobID), let printer = printers.first(where: { $0.job(job.id) != nil }),
            let sides = printer.sideTexts(jobID: job.id)
        else {
            return json(["error": "no job \(jobID)"], status: 404)
        }
        return json([
            "job-id": job.id,
            "job-state": job.state.keyword,
            "sides": sides.map { side in
                var entry: [String: Any] = [
                    "number": side.number, "file": side.file, "source": side.source.rawValue,
                    "text": side.text ?? NSNull(),
                ]
                if let file = side.textFile { entry["text-file"] = file }
                if let message = side.message { entry["message"] = message }
                return entry
            },
        ])
    }
}
