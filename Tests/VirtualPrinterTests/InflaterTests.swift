import Foundation
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Inflater: gzip (RFC 1952), zlib-wrapped (RFC 1950) and raw (RFC 1951) deflate, made by python3's zlib.
@Suite(.timeLimit(.minutes(1))) struct InflaterTests {
    /// Compressible but not trivial sample data.
    static let plain: [UInt8] = {
        var generator = SplitMix(seed: 7)
        var bytes: [UInt8] = []
        for line in 0..<4000 {
            bytes += Array("line \(line) value \(generator.next() % 1000)\n".utf8)
        }
        return bytes
    }()

    /// Compresses with python3: `gzip`, `zlib` (RFC 1950) or `raw` (RFC 1951).
    static func compress(_ bytes: [UInt8], as kind: String) throws -> [UInt8] {
        let program = """
            import sys, zlib, gzip
            data = sys.stdin.buffer.read()
            kind = sys.argv[1]
            if kind == "gzip": out = gzip.compress(data)
            elif kind == "zlib": out = zlib.compress(data)
            else:
                c = zlib.compressobj(6, zlib.DEFLATED, -15)
                out = c.compress(data) + c.flush()
            sys.stdout.buffer.write(out)
            """
        return try runTool("/usr/bin/python3", ["-c", program, kind], input: bytes)
    }

    /// Inflates `input` fed in chunks of `chunkSize`, then finishes.
    static func inflate(_ input: [UInt8], method: Inflater.Method, chunkSize: Int) throws(DocumentError) -> [UInt8] {
        let inflater = Inflater(method: method)
        var output: [UInt8] = []
        var offset = 0
        while offset < input.count {
            let end = min(offset + chunkSize, input.count)
            let chunk = Array(input[offset..<end])
            let result: Result<Void, DocumentError> = chunk.withUnsafeBytes { raw in
                Result { () throws(DocumentError) in
                    try inflater.inflate(raw) { (bytes) throws(DocumentError) in output += bytes }
                }
            }
            try result.get()
            offset = end
        }
        try inflater.finish()
        return output
    }

    @Test(arguments: [("gzip", Inflater.Method.gzip), ("zlib", .deflate), ("raw", .deflate)])
    func compressedDataInflatesToTheOriginalInAnyChunking(kind: String, method: Inflater.Method) throws {
        let compressed = try Self.compress(Self.plain, as: kind)
        #expect(compressed.count < Self.plain.count)
        for chunkSize in [1, 7, 4096, compressed.count] {
            #expect(try Self.inflate(compressed, method: method, chunkSize: chunkSize) == Self.plain)
        }
    }

    @Test(arguments: [("gzip", Inflater.Method.gzip), ("zlib", .deflate), ("raw", .deflate)])
    func truncatedDataIsACompressionError(kind: String, method: Inflater.Method) throws {
        let compressed = try Self.compress(Self.plain, as: kind)
        for cut in [1, compressed.count / 2, compressed.count - 1] {
            #expect {
                try Self.inflate(Array(compressed.prefix(cut)), method: method, chunkSize: 512)
            } throws: { error in
                guard case DocumentError.compressionError(let name, _) = error else { return false }
                return name == method.rawValue
            }
        }
    }

    @Test func corruptGzipHeaderIsACompressionError() throws {
        var compressed = try Self.compress(Self.plain, as: "gzip")
        compressed[0] = 0x00
        #expect {
            try Self.inflate(compressed, method: .gzip, chunkSize: 100)
        } throws: { error in
            if case DocumentError.compressionError("gzip", _) = error { return true }
            return false
        }
    }

    @Test func corruptGzipBodyIsACompressionError() throws {
        var compressed = try Self.compress(Self.plain, as: "gzip")
        // Flip bytes in the deflate data and in the CRC trailer: either the stream or the check fails.
        for index in stride(from: 20, to: compressed.count, by: 3) { compressed[index] ^= 0x5A }
        #expect(throws: DocumentError.self) { try Self.inflate(compressed, method: .gzip, chunkSize: 100) }
    }

    @Test func badGzipChecksumIsACompressionError() throws {
        var compressed = try Self.compress(Self.plain, as: "gzip")
        compressed[compressed.count - 6] ^= 0xFF  // inside the CRC32 trailer
        #expect {
            try Self.inflate(compressed, method: .gzip, chunkSize: 4096)
        } throws: { error in
            if case DocumentError.compressionError = error { return true }
            return false
        }
    }

    @Test func plainBytesLabelledGzipAreACompressionError() {
        #expect(throws: DocumentError.self) {
            try Self.inflate(Array("%PDF-1.7 not compressed".utf8), method: .gzip, chunkSize: 10)
        }
    }

    @Test func zlibHeaderSplitAcrossTheFirstTwoChunksIsStillRecognized() throws {
        let compressed = try Self.compress(Self.plain, as: "zlib")
        let inflater = Inflater(method: .deflate)
        var output: [UInt8] = []
        for chunk in [Array(compressed.prefix(1)), Array(compressed.dropFirst())] {
            let result: Result<Void, DocumentError> = chunk.withUnsafeBytes { raw in
                Result { () throws(DocumentError) in
                    try inflater.inflate(raw) { (bytes) throws(DocumentError) in output += bytes }
                }
            }
            try result.get()
        }
        try inflater.finish()
        #expect(output == Self.plain)
    }

    @Test func aSingleDeflateByteIsATruncatedStream() {
        #expect(throws: DocumentError.self) { try Self.inflate([0x78], method: .deflate, chunkSize: 1) }
    }

    @Test func noInputAtAllFinishesWithoutError() throws {
        #expect(try Self.inflate([], method: .gzip, chunkSize: 1) == [])
    }

    @Test func bytesAfterTheEndMarkerAreIgnored() throws {
        let compressed = try Self.compress(Self.plain, as: "gzip") + Array("trailing garbage".utf8)
        #expect(try Self.inflate(compressed, method: .gzip, chunkSize: 333) == Self.plain)
    }
}
