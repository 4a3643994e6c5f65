import HTTPServer
import IPP
import PrinterCore

/// Credentials at the HTTP level (docs/security.md): 401 with a Basic challenge when a request needs a user,
/// 426 when it came over plain HTTP and credentials may only come over TLS, and which jobs a user sees.
extension PrinterService {
    /// Whether a request may go on, and as whom.
    enum Admission {
        /// Go on as this client.
        case allowed(ClientIdentity)
        /// Answer this instead (401, 426).
        case refused(HTTPResponse)
    }

    /// Checks a request's credentials. Wrong or unreadable credentials are refused even where none are
    /// needed; no credentials are refused only when `needsCredentials`.
    func admit(_ request: HTTPRequest, needsCredentials: Bool) -> Admission {
        guard access.isEnabled else { return .allowed(.anonymous) }
        if let refusal = throttled(request) { return .refused(refusal) }
        if carriesAPIToken(request) {
            if let refusal = plainTokenRefusal(request) { return .refused(refusal) }
            return .allowed(.user(name: Self.apiTokenUser, isAdmin: true))
        }
        let identity = access.identify(request)
        switch identity {
        case .user:
            return .allowed(identity)
        case .plainCredentials:
            log("refused credentials sent in the clear from \(request.remoteAddress)")
            return .refused(tlsOrUnauthorized("Credentials are accepted over TLS only: use ipps:// or https://."))
        case .refused(let reason):
            log("refused credentials from \(request.remoteAddress): \(reason)")
            logins.recordFailure(address: request.remoteAddress, account: loginAccount(request), now: WallClock.now())
            return .refused(unauthorized("The user name or password is not right.\n"))
        case .anonymous:
            guard needsCredentials else { return .allowed(identity) }
            if !request.isEncrypted && !access.allowsPlainCredentials {
                return .refused(tlsOrUnauthorized("This needs a user name and password, sent over TLS (ipps://)."))
            }
            return .refused(unauthorized("This needs a user name and password.\n"))
        }
    }

    /// Why a change (the API's mutating calls, the System Service's Create-Printer, Delete-Printer and power)
    /// is refused.
    enum ChangeRefusal {
        /// Answer this at the HTTP level: 401 without credentials or with wrong ones, 426 over plain HTTP.
        case http(HTTPResponse)
        /// Credentials are asked for and the user is not an admin.
        case notAdmin
        /// `--api-token` is set and the request does not carry it.
        case needsToken
        /// Neither credentials nor an API token are set, and the request is not from loopback.
        case notLoopback

        /// The IPP answer to an operation refused so: client-error-not-authorized for a user who is not an admin,
        /// client-error-forbidden without the API token or from beyond loopback.
        func ippResponse(for operation: IPPOperation) -> IPPResponse {
            switch self {
            case .notAdmin, .http:
                .error(.clientErrorNotAuthorized, "\(operation) is for admins (vprinter --admin NAME).")
            case .needsToken:
                .error(.clientErrorForbidden, "\(operation) needs Authorization: Bearer <api token> (--api-token).")
            case .notLoopback:
                .error(
                    .clientErrorForbidden,
                    "\(operation) changes the printer: it is accepted from loopback only; start vprinter with "
                        + "--user and --admin, or --api-token.")
            }
        }
    }

    /// Whether a change may go on: the API token always may; with credentials asked for, admins only; with
    /// an API token set, only requests that carry it; with neither, requests from loopback.
    func changeRefusal(_ request: HTTPRequest) -> ChangeRefusal? {
        if access.isEnabled {
            // admit checks the throttle and the API token, as for any request with credentials.
            switch admit(request, needsCredentials: true) {
            case .refused(let response): return .http(response)
            case .allowed(let identity): return identity.isAdmin ? nil : .notAdmin
            }
        }
        if let refusal = throttled(request) { return .http(refusal) }
        if carriesAPIToken(request) { return plainTokenRefusal(request).map { .http($0) } }
        if apiToken != nil {
            if case .bearer? = request.authorization {
                log("refused a wrong API token from \(request.remoteAddress)")
                logins.recordFailure(
                    address: request.remoteAddress, account: loginAccount(request), now: WallClock.now())
            }
            return .needsToken
        }
        return request.isLoopback ? nil : .notLoopback
    }

    /// The user name of requests that carry the API token: they act as an admin.
    static let apiTokenUser = "api-token"

    /// Whether a request carries `Authorization: Bearer <api token>` (compared in constant time).
    func carriesAPIToken(_ request: HTTPRequest) -> Bool {
        guard let apiTokenDigest, case .bearer(let token)? = request.authorization else { return false }
        return ConstantTime.equal(Array(token.utf8), digest: apiTokenDigest)
    }

    /// Whether a request carries credentials that let it in: the API token, or a user's name and password that match.
    func carriesCredentials(_ request: HTTPRequest) -> Bool {
        if carriesAPIToken(request) { return true }
        if case .user = access.identify(request) { return true }
        return false
    }

    /// 426 for the API token sent over plain HTTP to a printer that speaks TLS: it crossed the network in the clear,
    /// as Basic credentials would have (`--allow-plain-auth` accepts both).
    func plainTokenRefusal(_ request: HTTPRequest) -> HTTPResponse? {
        guard security.offersTLS, !request.isEncrypted, !access.allowsPlainCredentials else { return nil }
        log("refused the API token sent in the clear from \(request.remoteAddress)")
        return .tlsRequired("The API token is accepted over TLS only: use https://.\n")
    }

    /// 429 Too Many Requests (RFC 6585 section 4) for a request with credentials from an address that failed to
    /// log in too often lately (`LoginThrottle`); nil for a request without credentials, or from another address.
    func throttled(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.authorization != nil,
            let seconds = logins.retryAfter(
                address: request.remoteAddress, account: loginAccount(request), now: WallClock.now())
        else { return nil }
        var response = HTTPResponse(status: 429, text: "Too many failed logins from this address; try again later.\n")
        response.headers.set("Retry-After", String(max(1, Int(seconds.rounded(.up)))))
        return response
    }

    /// The account `LoginThrottle` counts a request's credentials against: the user they name (the API token and
    /// unreadable credentials are accounts of their own).
    func loginAccount(_ request: HTTPRequest) -> String {
        switch request.authorization {
        case .basic(let user, _)?: "user " + user
        case .bearer?: "api token"
        default: "unreadable"
        }
    }

    /// 401 with the Basic challenge (RFC 9110 section 11.6.1, RFC 7617).
    func unauthorized(_ text: String) -> HTTPResponse {
        var response = HTTPResponse(status: 401, text: text)
        response.headers.set("WWW-Authenticate", AccessControl.challenge)
        return response
    }

    /// 426 offering TLS when the port speaks it, else 401.
    private func tlsOrUnauthorized(_ text: String) -> HTTPResponse {
        guard security.offersTLS else {
            return unauthorized(text + "\n")
        }
        return .tlsRequired(text + "\n")
    }

    /// Whether a client may see a job: everyone without credentials asked for, admins, and its owner.
    func canSee(_ job: Job, _ identity: ClientIdentity) -> Bool {
        !access.isEnabled || identity.isAdmin || job.user == identity.userName
    }
}
