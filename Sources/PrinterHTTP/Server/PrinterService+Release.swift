import HTTPServer
import PrintModel
import PrinterCore

/// `POST /api/v1/jobs/<id>/release` with `{"job-password": "1234"}`: the PIN a user types at the printer's panel to
/// release a job that waits in job-password-wait (PWG 5100.11). 200 with the job record when it is released, 403
/// for a wrong PIN (the job keeps waiting), 409 when the job does not wait for a PIN, 404 for no such job.
extension PrinterService {
    func releaseAtPrinter(jobID: String, body: [UInt8]) -> HTTPResponse {
        guard let id = Int(jobID), id > 0 else { return json(["error": "no job \(jobID)"], status: 404) }
        guard let pin = requestJSON(body)?["job-password"] as? String else {
            return json(["error": "the body must be a JSON object with the string job-password"], status: 400)
        }
        guard let printer = printers.first(where: { $0.job(id) != nil }) else {
            return json(["error": "no job \(id)"], status: 404)
        }
        switch printer.releaseWithPassword(jobID: id, pin: pin) {
        case .success(let job):
            return jsonBytes(JobRecorder.json(of: job))
        case .failure(.wrongPassword):
            return json(["error": "wrong job password; job \(id) keeps waiting"], status: 403)
        case .failure(.notWaiting):
            return json(["error": "job \(id) does not wait for a job password"], status: 409)
        case .failure(.noSuchJob):
            return json(["error": "no job \(id)"], status: 404)
        }
    }
}
