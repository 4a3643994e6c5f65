/// What can go wrong with a scanner (docs/scanning.md "Faults"): set through the API and scenarios, each one seen
/// by clients as a real scanner shows it.
public enum ScannerFault: String, Sendable, CaseIterable, Codable {
    /// No sheets in the feeder: a feeder scan is refused (409) and ScannerStatus says ScannerAdfEmpty.
    case feederEmpty = "feeder-empty"
    /// A sheet jammed: the next feeder image aborts its job (ScannerAdfJam).
    case feederJam = "feeder-jam"
    /// The feeder's cover (or the lid) is open: scans are refused (ScannerAdfDoorOpen, state Stopped).
    case coverOpen = "cover-open"
    /// Busy with another client: new scan jobs get 503 Service Unavailable with Retry-After.
    case busy
}
