
/// A buffered reader over a ``ByteInput`` that keeps only a small window of the data in memory.
///
/// Decoders read single bytes and fixed-size blocks through it; it counts the bytes consumed so errors can say
/// where they happened.
public final class ByteReader {
    /// Size of the read-ahead window in bytes.
    public static let windowSize = 256 * 1024

    private let input: any ByteInput
    private let window: UnsafeMutableRawBufferPointer
    private var start = 0
    private var end = 0
    private var consumedBeforeWindow = 0

    /// Reads from `input`.
    public init(_ input: any ByteInput) {
        self.input = input
        window = .allocate(byteCount: Self.windowSize, alignment: 8)
    }

    deinit {
        window.deallocate()
    }

    /// Bytes consumed so far.
    public var offset: Int { consumedBeforeWindow + start }

    /// Refills the window; returns false at the end of the data.
    private func refill() throws(RasterError) -> Bool {
        consumedBeforeWindow += end
        start = 0
        end = 0
        let count = try input.read(into: window)
        end = count
        return count > 0
    }

    /// The next byte, or nil at the end of the data.
    @inline(__always)
    public func nextByte() throws(RasterError) -> UInt8? {
        if start == end {
            guard try refill() else { return nil }
        }
        let byte = window.load(fromByteOffset: start, as: UInt8.self)
        start += 1
        return byte
    }

    /// The next byte; the end of the data is an error naming `what` was being read.
    @inline(__always)
    public func byte(_ what: String) throws(RasterError) -> UInt8 {
        guard let byte = try nextByte() else { throw .truncated(what: what, offset: offset) }
        return byte
    }

    /// Fills `destination` completely; returns the number of bytes copied, which is less only at the end of the data.
    public func read(into destination: UnsafeMutableRawBufferPointer) throws(RasterError) -> Int {
        var copied = 0
        while copied < destination.count {
            if start == end {
                guard try refill() else { break }
            }
            let count = min(end - start, destination.count - copied)
            (destination.baseAddress! + copied).copyMemory(from: window.baseAddress! + start, byteCount: count)
            start += count
            copied += count
        }
        return copied
    }

    /// Reads exactly `count` bytes; the end of the data is an error naming `what` was being read.
    public func bytes(_ count: Int, _ what: String) throws(RasterError) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        guard try read(into: &result) == count else { throw .truncated(what: what, offset: offset) }
        return result
    }

    /// Fills `bytes` from its start as far as the data goes; returns the number of bytes read.
    public func read(into bytes: inout [UInt8]) throws(RasterError) -> Int {
        var failure: RasterError?
        let copied = bytes.withUnsafeMutableBytes { buffer -> Int in
            do throws(RasterError) { return try read(into: buffer) } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        return copied
    }

    /// True when no byte is left.
    public func atEnd() throws(RasterError) -> Bool {
        if start < end { return false }
        return try !refill()
    }
}
