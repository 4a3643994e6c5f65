import Dispatch
import PrintModel
import Synchronization

/// Writes finished sides to PNG on a thread of its own, so decoding the next raster page overlaps with encoding
/// the last one. At most one side waits to be written, which bounds memory to two sheets.
final class SideWriter: Sendable {
    /// Hands a side to the writer queue.
    ///
    /// `@unchecked Sendable` is safe here: ``SideWriter/write(_:)`` takes the only reference the producer had
    /// (its caller sets its own variable to nil before calling), so after the hand-over only the writer queue
    /// touches the side.
    private struct Handoff: @unchecked Sendable {
        let side: OpenImpression
    }

    private let queue = DispatchQueue(label: "vprinter.render.png-writer")
    private let slots = DispatchSemaphore(value: 1)
    private let failure = Mutex<RasterError?>(nil)
    private let folder: String
    private let ticket: JobTicket
    private let deliver: @Sendable (PrintedSide) -> Void

    init(folder: String, ticket: JobTicket, deliver: @escaping @Sendable (PrintedSide) -> Void) {
        self.folder = folder
        self.ticket = ticket
        self.deliver = deliver
    }

    /// Queues `side` for writing; waits while an earlier side is still being written. Throws the error of an
    /// earlier write, if one failed.
    func write(_ side: consuming OpenImpression) throws(RasterError) {
        if let error = failure.withLock({ $0 }) { throw error }
        slots.wait()
        let handoff = Handoff(side: side)
        queue.async { [self] in
            defer { slots.signal() }
            guard failure.withLock({ $0 == nil }) else { return }
            do throws(RasterError) {
                deliver(try handoff.side.write(folder: folder, ticket: ticket))
            } catch {
                failure.withLock { $0 = error }
            }
        }
    }

    /// Waits until every queued side is written; throws the first write error.
    func drain() throws(RasterError) {
        queue.sync {}
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
