import Dispatch
import PrintModel
import Synchronization

/// Writes finished sides to PNG on a thread of its own, so decoding the next raster page overlaps with encoding
/// the last one. At most one side waits to be written, which bounds memory to two sheets; a sheet larger than
/// `overlapLimitBytes` is one at a time (`makeRoom(forSheetBytes:)`).
final class SideWriter: Sendable {
    /// The largest sheet drawn while the one before it is still being written. A US letter side at 600 dpi is
    /// 135 MB: two of them took the render worker of a 500 MB PWG raster job to 282 MB, where the printer and its
    /// workers are to stay under 200 MB (`scripts/bench` memory). A side at 300 dpi (34 MB) still overlaps.
    static let overlapLimitBytes = 64 << 20

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

    /// Before a sheet of `bytes` is made: waits until the side before it is written when the two would exceed
    /// `overlapLimitBytes`'s bound (the new sheet is larger than it); throws the error of an earlier write.
    func makeRoom(forSheetBytes bytes: Int) throws(RasterError) {
        guard bytes > Self.overlapLimitBytes else { return }
        try drain()
    }

    /// Waits until every queued side is written; throws the first write error.
    func drain() throws(RasterError) {
        queue.sync {}
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
