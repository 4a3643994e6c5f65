import Foundation
import HTTPServer
import PrintModel
import RequestJournal

/// `vprinter requests --url URL [--count N [--timeout S]] [filters]`: the requests a running printer received (the
/// JSON API's `GET /api/v1/requests`, or `.../requests/wait` with `--count`), printed as JSON; exits 1 when the
/// printer cannot be asked or the wait timed out.
struct RequestsCommand {
    let options: CommandLineOptions

    func run() -> Int32 {
        guard let url = options.url, let base = WaitCommand.apiBase(url) else {
            Console.log("error: requests needs --url with the printer's ipp://, ipps:// or http(s):// URL")
            return 2
        }
        do throws(JournalError) {
            _ = try RequestFilter(parameters: options.requestFilters.map { ($0.name, $0.value) })
        } catch {
            Console.log("error: \(error)")
            return 2
        }
        var query = options.requestFilters.map { "\(WaitCommand.encoded($0.name))=\(WaitCommand.encoded($0.value))" }
        var path = "/api/v1/requests"
        if let count = options.jobCount {
            path += "/wait"
            query += ["count=\(count)", "timeout=\(options.timeout)"]
        }
        let address = base + path + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        do {
            let response = try HTTPClient.get(address, timeout: options.timeout + 10)
            let text = String(decoding: response.body, as: UTF8.self)
            switch response.status {
            case 200:
                Console.out(text)
                return 0
            case 408:
                Console.out(text)
                Console.log("error: timed out after \(options.timeout) s waiting for \(options.jobCount ?? 0) requests")
                return 1
            default:
                Console.log("error: the printer answered \(response.status): \(text)")
                return 1
            }
        } catch {
            Console.log("error: cannot reach \(base): \(error)")
            return 1
        }
    }
}

/// `vprinter verify --url URL VERIFICATION`: asks a running printer's journal a verification (the JSON API's
/// `POST /api/v1/requests/verify`) given as a file, `-` for standard input, or the JSON itself; prints the answer
/// and, on a failure, one line per near miss. Exits 0 when it passes, 1 when it fails, 2 when it cannot be asked.
struct VerifyCommand {
    let options: CommandLineOptions

    func run() -> Int32 {
        guard let url = options.url, let base = WaitCommand.apiBase(url), let source = options.verification else {
            Console.log("error: verify needs --url URL and a verification (a JSON file, - for stdin, or the JSON)")
            return 2
        }
        let body: [UInt8]
        if source.hasPrefix("{") {
            body = Array(source.utf8)
        } else if source == "-" {
            body = Array(FileHandle.standardInput.readDataToEndOfFile())
        } else if let data = FileManager.default.contents(atPath: source) {
            body = Array(data)
        } else {
            Console.log("error: cannot read the verification \(source)")
            return 2
        }
        do {
            _ = try Verification(json: JSONDecoder().decode(JSONValue.self, from: Data(body)))
        } catch {
            Console.log("error: the verification cannot be used: \(error)")
            return 2
        }
        let response: HTTPClient.Response
        do {
            response = try HTTPClient.post(
                base + "/api/v1/requests/verify", contentType: "application/json", body: body, timeout: 30)
        } catch {
            Console.log("error: cannot reach \(base): \(error)")
            return 2
        }
        let text = String(decoding: response.body, as: UTF8.self)
        guard response.status == 200,
            let result = try? JSONDecoder().decode(VerificationResult.self, from: Data(response.body))
        else {
            Console.log("error: the printer answered \(response.status): \(text)")
            return 2
        }
        Console.out(text)
        Console.log("verify: \(result.pass ? "PASS" : "FAIL"): \(result.message)")
        for miss in result.nearMisses {
            Console.log(
                "  near miss: request \(miss.id) (\(miss.operation ?? "?")): \(miss.missed.joined(separator: "; "))")
        }
        return result.pass ? 0 : 1
    }
}
