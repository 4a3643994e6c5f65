import PrintModel

/// The optional capabilities of a profile beyond media and marking: options a printer may have or lack (page
/// ranges, print scaling) and the enterprise job features of PWG 5100.11 (job password, job storage, proof print).
///
/// Each one is honoured by the printer: what a profile advertises is what jobs may use, and a job that asks for
/// an absent feature gets it back as unsupported, as RFC 8011 section 4.1.7 says.
public struct ProfileFeatures: Sendable, Equatable {
    /// `page-ranges-supported`; default true exactly when the profile lists application/pdf or application/PCLm.
    public var pageRanges: Bool
    /// `print-scaling-supported` keywords; nil leaves every print-scaling attribute out (printers made before
    /// PWG 5100.13 have none). Default: auto, auto-fit, fill, fit, none.
    public var printScaling: [String]?
    /// `print-scaling-default`; default auto when listed, else the first value.
    public var printScalingDefault: String?
    /// Secure release with a PIN (PWG 5100.11 job-password); nil when the printer has none.
    public var jobPassword: JobPassword?
    /// Stored jobs (PWG 5100.11 job-storage); nil when the printer stores none.
    public var jobStorage: JobStorage?
    /// Proof prints (PWG 5100.11 proof-print); nil when the printer makes none.
    public var proofPrint: ProofPrint?
    /// Print-URI and Send-URI (RFC 8011 sections 4.2.2, 4.3.2): the printer fetches a document from an http or
    /// https URI itself. Default false, as on most IPP Everywhere printers.
    public var documentURI = false
    /// An eSCL scanner beside the printer (docs/scanning.md); nil when the device does not scan.
    public var scanner: Scanner?

    /// The print-scaling keywords of PWG 5100.13 section 6.2.5.
    public static let printScalingKeywords = ["auto", "auto-fit", "fill", "fit", "none"]

    /// The job-password a printer accepts: how long, from which characters, hashed how.
    public struct JobPassword: Sendable, Equatable {
        /// `job-password-length-supported`: the shortest and longest password in characters.
        public var length: ClosedRange<Int32>
        /// `job-password-repertoire-configured` (also the only -supported value), e.g. iana_us-ascii_digits.
        public var repertoire: String
        /// `job-password-encryption-supported`: none and/or the sha2-* hashes a client may send.
        public var encryptions: [String]

        /// The repertoires of PWG 5100.11 section 7.x.
        public static let repertoires: Set<String> = [
            "iana_us-ascii_digits", "iana_us-ascii_letters", "iana_us-ascii_complex", "iana_us-ascii_any",
            "iana_utf-8_digits", "iana_utf-8_letters", "iana_utf-8_any",
        ]
        /// The encryptions this printer can check, with the length of their digest in octets (none: the PIN).
        public static let digestLengths: [String: Int32] = ["none": 0, "sha2-256": 32]
        /// The longest job-password value (PWG 5100.11: octetString(255)).
        public static let maximumOctets: Int32 = 255

        /// `job-password-supported`: the longest value a client may send, in octets (the PIN or its digest).
        public var supportedOctets: Int32 {
            max(length.upperBound, encryptions.compactMap { Self.digestLengths[$0] }.max() ?? 0)
        }
    }

    /// Where stored jobs may be kept and what happens to them.
    public struct JobStorage: Sendable, Equatable {
        /// `job-storage-access-supported`: owner, group and/or public.
        public var access: [String]
        /// `job-storage-disposition-supported`: print-and-store and/or store-only.
        public var dispositions: [String]
        /// `job-storage-group-supported` names; empty when jobs cannot be stored for a group.
        public var groups: [String]

        public static let accessKeywords: Set<String> = ["owner", "group", "public"]
        public static let dispositionKeywords: Set<String> = ["print-and-store", "store-only"]
    }

    /// Proof prints: how many proof copies a job may ask for.
    public struct ProofPrint: Sendable, Equatable {
        /// The upper bound of `proof-print-copies-supported` (its lower bound is 0).
        public var maximumCopies: Int32
        /// The largest maximumCopies accepted in a profile.
        public static let copiesRange: ClosedRange<Int32> = 1...100
    }

    /// A scanner: its glass and feeder, and what it scans at.
    public struct Scanner: Sendable, Equatable {
        /// The glass's size; nil for a sheet-fed scanner.
        public var platen: MediaSize?
        /// The largest sheet the feeder takes; nil without a feeder.
        public var feeder: MediaSize?
        /// Whether the feeder scans both sides in one pass.
        public var duplex: Bool
        /// The sheets the feeder holds.
        public var feederCapacity: Int
        /// Dots per inch offered.
        public var resolutions: [Int]
        public var colorModes: [ScanPage.ColorMode]
        public var formats: [ScanPage.Format]
        /// A scanner and nothing else (a document scanner): the device neither prints nor advertises IPP; its
        /// printing keys describe nothing a client sees.
        public var scanOnly = false

        /// The resolutions a profile may list.
        public static let resolutionRange = 50...1200
        /// The most sheets a feeder may hold.
        public static let capacityRange = 1...500
    }
}
