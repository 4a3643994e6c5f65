/// Why a printer could not be created, found or removed; the API and the System Service turn each into a status.
public enum FleetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Another printer has this name (or the same path segment, or the same printer-id).
    case nameTaken(String)
    /// No printer has this name or id.
    case notFound(String)
    /// The request is malformed: a missing or invalid field, with what is wrong.
    case invalid(String)
    /// The profile could not be loaded.
    case profile(String)
    /// The scenario could not be loaded.
    case scenario(String)
    /// The printer's own port could not be opened.
    case listen(String)
    /// This server cannot create printers (an embedded printer).
    case unsupported

    public var description: String {
        switch self {
        case .nameTaken(let name): "a printer named '\(name)' already exists"
        case .notFound(let name): "no printer \(name)"
        case .invalid(let problem): problem
        case .profile(let problem): "cannot load the profile: \(problem)"
        case .scenario(let problem): "cannot load the scenario: \(problem)"
        case .listen(let problem): "cannot listen on the printer's port: \(problem)"
        case .unsupported: "this server does not create printers"
        }
    }

    /// The HTTP status of the JSON API for this error.
    public var httpStatus: Int {
        switch self {
        case .nameTaken: 409
        case .notFound: 404
        case .invalid, .profile, .scenario: 400
        case .listen: 409
        case .unsupported: 501
        }
    }
}
