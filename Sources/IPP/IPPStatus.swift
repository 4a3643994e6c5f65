/// An IPP status-code (RFC 8011 section 4.1.6, cups/ipp.h).
///
/// Open set: an unknown code survives as its raw value and prints in hex.
public struct IPPStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt16

    public init(rawValue: UInt16) {
        self.rawValue = rawValue
    }

    public static let successfulOK = Self(rawValue: 0x0000)
    public static let successfulOKIgnoredOrSubstitutedAttributes = Self(rawValue: 0x0001)
    public static let successfulOKConflictingAttributes = Self(rawValue: 0x0002)
    public static let successfulOKEventsComplete = Self(rawValue: 0x0007)

    public static let clientErrorBadRequest = Self(rawValue: 0x0400)
    public static let clientErrorForbidden = Self(rawValue: 0x0401)
    public static let clientErrorNotAuthenticated = Self(rawValue: 0x0402)
    public static let clientErrorNotAuthorized = Self(rawValue: 0x0403)
    public static let clientErrorNotPossible = Self(rawValue: 0x0404)
    public static let clientErrorTimeout = Self(rawValue: 0x0405)
    public static let clientErrorNotFound = Self(rawValue: 0x0406)
    public static let clientErrorGone = Self(rawValue: 0x0407)
    public static let clientErrorRequestEntityTooLarge = Self(rawValue: 0x0408)
    public static let clientErrorRequestValueTooLong = Self(rawValue: 0x0409)
    public static let clientErrorDocumentFormatNotSupported = Self(rawValue: 0x040A)
    public static let clientErrorAttributesOrValuesNotSupported = Self(rawValue: 0x040B)
    public static let clientErrorURISchemeNotSupported = Self(rawValue: 0x040C)
    public static let clientErrorCharsetNotSupported = Self(rawValue: 0x040D)
    public static let clientErrorConflictingAttributes = Self(rawValue: 0x040E)
    public static let clientErrorCompressionNotSupported = Self(rawValue: 0x040F)
    public static let clientErrorCompressionError = Self(rawValue: 0x0410)
    public static let clientErrorDocumentFormatError = Self(rawValue: 0x0411)
    public static let clientErrorDocumentAccessError = Self(rawValue: 0x0412)
    public static let clientErrorNotFetchable = Self(rawValue: 0x0420)

    public static let serverErrorInternalError = Self(rawValue: 0x0500)
    public static let serverErrorOperationNotSupported = Self(rawValue: 0x0501)
    public static let serverErrorServiceUnavailable = Self(rawValue: 0x0502)
    public static let serverErrorVersionNotSupported = Self(rawValue: 0x0503)
    public static let serverErrorDeviceError = Self(rawValue: 0x0504)
    public static let serverErrorTemporaryError = Self(rawValue: 0x0505)
    public static let serverErrorNotAcceptingJobs = Self(rawValue: 0x0506)
    public static let serverErrorBusy = Self(rawValue: 0x0507)
    public static let serverErrorJobCanceled = Self(rawValue: 0x0508)
    public static let serverErrorMultipleDocumentJobsNotSupported = Self(rawValue: 0x0509)
    /// The printer holds as many jobs as it may (PWG 5100.7 section 9.2.2, IANA IPP registry).
    public static let serverErrorTooManyJobs = Self(rawValue: 0x050B)

    /// True for the successful-* range 0x0000-0x00FF.
    public var isSuccess: Bool { rawValue < 0x0100 }

    /// The status keyword, e.g. `client-error-not-found`, or hex for an unknown code.
    public var description: String {
        Self.names[rawValue] ?? "0x" + hex4(rawValue)
    }

    /// The status whose keyword is `name`, if it is a known one.
    public init?(keyword name: String) {
        guard let code = Self.names.first(where: { $0.value == name })?.key else { return nil }
        self.init(rawValue: code)
    }

    private static let names: [UInt16: String] = [
        0x0000: "successful-ok", 0x0001: "successful-ok-ignored-or-substituted-attributes",
        0x0002: "successful-ok-conflicting-attributes", 0x0007: "successful-ok-events-complete",
        0x0400: "client-error-bad-request", 0x0401: "client-error-forbidden",
        0x0402: "client-error-not-authenticated", 0x0403: "client-error-not-authorized",
        0x0404: "client-error-not-possible", 0x0405: "client-error-timeout", 0x0406: "client-error-not-found",
        0x0407: "client-error-gone", 0x0408: "client-error-request-entity-too-large",
        0x0409: "client-error-request-value-too-long", 0x040A: "client-error-document-format-not-supported",
        0x040B: "client-error-attributes-or-values-not-supported", 0x040C: "client-error-uri-scheme-not-supported",
        0x040D: "client-error-charset-not-supported", 0x040E: "client-error-conflicting-attributes",
        0x040F: "client-error-compression-not-supported", 0x0410: "client-error-compression-error",
        0x0411: "client-error-document-format-error", 0x0412: "client-error-document-access-error",
        0x0420: "client-error-not-fetchable",
        0x0500: "server-error-internal-error", 0x0501: "server-error-operation-not-supported",
        0x0502: "server-error-service-unavailable", 0x0503: "server-error-version-not-supported",
        0x0504: "server-error-device-error", 0x0505: "server-error-temporary-error",
        0x0506: "server-error-not-accepting-jobs", 0x0507: "server-error-busy", 0x0508: "server-error-job-canceled",
        0x0509: "server-error-multiple-document-jobs-not-supported", 0x050B: "server-error-too-many-jobs",
    ]
}
