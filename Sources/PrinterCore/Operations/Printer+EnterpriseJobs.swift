import IPP
import Profiles

/// The PWG 5100.11 (IPP Enterprise Printing Extensions) job features a profile may have: job-password (a job
/// waits in job-password-wait until its PIN is entered at the printer, here `POST /api/v1/jobs/<id>/release`),
/// job-storage (a job is kept, and with store-only not printed) and proof-print (the job prints its proof copies
/// only; Resubmit-Job prints the full run). A printer without the feature ignores the attribute and returns it in
/// the unsupported group, as RFC 8011 section 4.1.7 says.
extension Printer {
    /// Checks job-password, job-password-encryption and job-storage of a job creation request; returns the
    /// operation attributes to report as ignored.
    func checkEnterpriseAttributes(_ context: IPPRequestContext) -> Result<[IPPAttribute], IPPResponseError> {
        var ignored: [IPPAttribute] = []
        if let password = context.attribute("job-password") {
            if let supported = cache["job-password-supported"]?.value?.integerValue {
                if let problem = passwordProblem(password, context: context, maximum: supported) {
                    var error = IPPResponseError(.clientErrorAttributesOrValuesNotSupported, problem)
                    error.unsupported = [password] + [context.attribute("job-password-encryption")].compactMap { $0 }
                    return .failure(error)
                }
            } else {
                ignored.append(password)
                if let encryption = context.attribute("job-password-encryption") { ignored.append(encryption) }
            }
        }
        if let storage = context.attribute("job-storage") {
            guard cache["job-storage-supported"] != nil else { return .success(ignored + [storage]) }
            guard case .collection(let members)? = storage.value, storage.values.count == 1, !members.isEmpty,
                members.allSatisfy(isSupportedStorageMember)
            else {
                var error = IPPResponseError(
                    .clientErrorAttributesOrValuesNotSupported,
                    "job-storage must be a collection of supported job-storage-access, job-storage-disposition and "
                        + "job-storage-group values.")
                error.unsupported = [storage]
                return .failure(error)
            }
        }
        return .success(ignored)
    }

    /// Why a job-password cannot be used, or nil (PWG 5100.11: octetString at most job-password-supported octets;
    /// with encryption none, its length in job-password-length-supported, its characters from the repertoire).
    private func passwordProblem(_ password: IPPAttribute, context: IPPRequestContext, maximum: Int32) -> String? {
        guard case .octetString(let bytes)? = password.value, password.values.count == 1, !bytes.isEmpty else {
            return "job-password must be one octetString."
        }
        guard bytes.count <= Int(maximum) else { return "job-password is longer than \(maximum) octets." }
        let encryption = context.attribute("job-password-encryption")?.value?.stringValue ?? "none"
        let encryptions = cache["job-password-encryption-supported"]?.values.compactMap(\.stringValue) ?? ["none"]
        guard encryptions.contains(encryption) else {
            return
                "job-password-encryption \(encryption) is not supported; supported: \(encryptions.joined(separator: ", "))."
        }
        if let digest = ProfileFeatures.JobPassword.digestLengths[encryption], digest > 0 {
            return bytes.count == Int(digest) ? nil : "a \(encryption) job-password is \(digest) octets long."
        }
        if case .rangeOfInteger(let lengths)? = cache["job-password-length-supported"]?.value,
            !lengths.contains(Int32(bytes.count))
        {
            return "job-password must be \(lengths.lowerBound) to \(lengths.upperBound) characters long."
        }
        let repertoire = cache["job-password-repertoire-configured"]?.value?.stringValue ?? "iana_utf-8_any"
        guard Self.fits(bytes, repertoire: repertoire) else {
            return "job-password holds characters outside \(repertoire)."
        }
        return nil
    }

    /// Whether a PIN holds only characters of a PWG 5100.11 repertoire.
    static func fits(_ bytes: [UInt8], repertoire: String) -> Bool {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        func letter(_ b: UInt8) -> Bool { (65...90).contains(b) || (97...122).contains(b) }
        switch repertoire {
        case "iana_us-ascii_digits", "iana_utf-8_digits": return bytes.allSatisfy { digits.contains($0) }
        case "iana_us-ascii_letters", "iana_utf-8_letters": return bytes.allSatisfy(letter)
        case "iana_us-ascii_complex", "iana_us-ascii_any": return bytes.allSatisfy { (0x20...0x7E).contains($0) }
        default: return String(validatingCString: bytes.map { CChar(bitPattern: $0) } + [0]) != nil
        }
    }

    private func isSupportedStorageMember(_ member: IPPAttribute) -> Bool {
        guard member.values.count == 1, let value = member.value?.stringValue else { return false }
        let supported = cache["\(member.name)-supported"]?.values.compactMap(\.stringValue) ?? []
        return ["job-storage-access", "job-storage-disposition", "job-storage-group"].contains(member.name)
            && supported.contains(value)
    }

    /// Applies the checked enterprise attributes to a new job: a job-password holds it in job-password-wait, a
    /// job-storage collection becomes one of its attributes (so it is recorded and returned).
    func applyEnterpriseAttributes(to job: inout Job, context: IPPRequestContext) {
        if cache["job-password-supported"] != nil,
            case .octetString(let bytes)? = context.attribute("job-password")?.value
        {
            job.jobPassword = bytes
            job.jobPasswordEncryption = context.attribute("job-password-encryption")?.value?.stringValue ?? "none"
            job.holdUntil = "indefinite"
            job.holdReason = "job-password-wait"
        }
        if cache["job-storage-supported"] != nil, let storage = context.attribute("job-storage") {
            job.templateAttributes.removeAll { $0.name == "job-storage" }
            job.templateAttributes.append(storage)
        }
    }

    /// The job-storage-disposition of a job that asked to be stored.
    static func storageDisposition(of job: Job) -> String? {
        guard let members = job.template("job-storage")?.value?.collectionValue else { return nil }
        return members.first { $0.name == "job-storage-disposition" }?.value?.stringValue ?? "print-and-store"
    }

    /// The job-storage-access of a stored job (owner when the job did not say).
    static func storageAccess(of job: Job) -> String? {
        guard let members = job.template("job-storage")?.value?.collectionValue else { return nil }
        return members.first { $0.name == "job-storage-access" }?.value?.stringValue ?? "owner"
    }

    /// The job ticket a job renders with: a proof-print job prints its proof copies (on the proof media, if
    /// it names one) instead of the full run.
    static func renderTicket(of job: Job) -> [IPPAttribute] {
        guard let proof = job.template("proof-print")?.value?.collectionValue else { return job.templateAttributes }
        var ticket = job.templateAttributes.filter { $0.name != "proof-print" }
        let copies = proof.first { $0.name == "proof-print-copies" }?.value?.integerValue ?? 1
        ticket.removeAll { $0.name == "copies" }
        ticket.append(IPPAttribute("copies", .integer(max(1, copies))))
        for member in proof where member.name == "media" || member.name == "media-col" {
            ticket.removeAll { $0.name == "media" || $0.name == "media-col" }
            ticket.append(member)
        }
        return ticket
    }

    /// The reasons a completed stored job ends with: job-stored (PWG 5100.11), after job-completed-successfully when
    /// it was printed too.
    static func storedReasons(of job: Job) -> [String]? {
        switch storageDisposition(of: job) {
        case "store-only"?: ["job-stored"]
        case _?: ["job-completed-successfully", "job-stored"]
        case nil: nil
        }
    }

    /// Why a PIN entered at the printer does not release a job.
    public enum PasswordReleaseError: Error, Equatable, Sendable {
        /// No job of that id.
        case noSuchJob
        /// The job does not wait for a password.
        case notWaiting
        /// The PIN is not the job's.
        case wrongPassword
    }

    /// Enters `pin` at the printer for a job in job-password-wait: the right PIN releases it (it prints), a wrong
    /// one leaves it waiting. For sha2-256 jobs the printer compares the digest of what was entered.
    public func releaseWithPassword(jobID: Int, pin: String) -> Result<Job, PasswordReleaseError> {
        guard let job = job(jobID) else { return .failure(.noSuchJob) }
        guard job.state == .pendingHeld, job.reasons.contains("job-password-wait"), let expected = job.jobPassword
        else {
            return .failure(.notWaiting)
        }
        var entered = Array(pin.utf8)
        if job.jobPasswordEncryption == "sha2-256" {
            var hash = SHA256()
            hash.update(entered)
            entered = Self.bytes(hex: hash.hexDigest())
        }
        guard entered == expected else { return .failure(.wrongPassword) }
        let result = updateJob(jobID) { (job: inout Job) throws(IPPResponseError) in
            // The password is spent first: only a job without one may be released.
            job.jobPassword = nil
            do {
                try job.apply(.released, at: WallClock.now())
            } catch {
                throw IPPResponseError(.clientErrorNotPossible, "\(error)")
            }
        }
        switch result {
        case .success(let job):
            JobPasswordFile.remove(folder: recorder.folder(of: jobID))
            log("job \(jobID) released at the printer with its password")
            return .success(job)
        case .failure:
            return .failure(.notWaiting)
        }
    }

    private static func bytes(hex: String) -> [UInt8] {
        var result: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
            index = next
        }
        return result
    }
}
