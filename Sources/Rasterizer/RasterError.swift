
/// Everything that can go wrong while reading, rendering or writing a document.
///
/// Every case maps to the IPP job-state-reason a real printer would report (``ippReason``) and carries enough
/// detail for a job-state-message a person can act on (``description``).
public enum RasterError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file could not be opened, read or written; `errno` is the system error number.
    case io(path: String, operation: String, errno: Int32)
    /// The data ended inside a structure; `offset` is the byte offset of the end of the data.
    case truncated(what: String, offset: Int)
    /// The data does not start with the signature of the format the decoder reads.
    case badSignature(format: String)
    /// A page header field has a value the standard does not allow.
    case badHeader(page: Int, field: String, value: Int)
    /// Compressed page data is inconsistent (a run crosses the end of a line, an unknown code).
    case corruptData(page: Int, line: Int, reason: String)
    /// A configured limit was crossed; `limit` names the constant.
    case limitExceeded(limit: String, value: Int, maximum: Int)
    /// Memory for `what` (`bytes` long) could not be allocated, typically under the worker's address-space limit.
    case outOfMemory(what: String, bytes: Int)
    /// The bytes are not in any format the renderer understands.
    case unsupportedFormat(String)
    /// The document is encrypted and no password or a wrong password was given.
    case passwordRequired
    /// A C library (Poppler, Cairo, libjpeg, libpng) refused the document; `message` is its own.
    case libraryFailure(library: String, message: String)
    /// The job ticket cannot be applied (for example a media size of zero).
    case badTicket(String)
    /// The document goes past a limit of the interpreter that reads it (PostScript's limitcheck); `message` says
    /// which.
    case tooComplex(String)
    /// The data breaks a rule of the format it claims (`format`), for example a PCLm file without its strips.
    case malformed(format: String, reason: String)

    /// The IPP job-state-reasons keyword (PWG 5100.x / RFC 8011 section 5.3.8) for this failure.
    public var ippReason: String {
        switch self {
        case .io: "document-access-error"
        case .truncated, .badSignature, .badHeader, .corruptData: "document-format-error"
        case .limitExceeded, .badTicket, .outOfMemory, .tooComplex: "document-unprintable-error"
        case .unsupportedFormat: "unsupported-document-format"
        case .passwordRequired: "document-password-error"
        case .libraryFailure: "document-format-error"
        case .malformed: "document-format-error"
        }
    }

    /// A one-line message for job-state-message.
    public var description: String {
        switch self {
        case .io(let path, let operation, let errno):
            "cannot \(operation) \(path): error \(errno)"
        case .truncated(let what, let offset):
            "data ends inside the \(what) at byte \(offset)"
        case .badSignature(let format):
            "not a \(format) file: wrong signature"
        case .badHeader(let page, let field, let value):
            "page \(page): header field \(field) has the invalid value \(value)"
        case .corruptData(let page, let line, let reason):
            "page \(page), line \(line): \(reason)"
        case .limitExceeded(let limit, let value, let maximum):
            "\(limit) exceeded: \(value) > \(maximum)"
        case .outOfMemory(let what, let bytes):
            "out of memory for \(what) (\(bytes) bytes)"
        case .unsupportedFormat(let what):
            "unsupported document format: \(what)"
        case .passwordRequired:
            "the document is encrypted and the password is missing or wrong"
        case .libraryFailure(let library, let message):
            "\(library): \(message)"
        case .badTicket(let message):
            "job ticket: \(message)"
        case .tooComplex(let message):
            "the document is too complex: \(message)"
        case .malformed(let format, let reason):
            "not a valid \(format) file: \(reason)"
        }
    }
}
