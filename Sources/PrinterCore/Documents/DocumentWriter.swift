import PrintModel

/// Streams one document into its job folder: decompresses it, hashes it, detects its real format and stores it
/// as `document-<n>.<ext>`, never holding it whole in memory.
package final class DocumentWriter {
    let number: Int
    let declaredFormat: DocumentFormat
    let compression: String
    let name: String?
    private let folder: String
    private let maximumSize: Int
    private let floor: DiskFloor?
    /// Bytes stored since the free space was last looked at.
    private var storedSinceCheck = 0
    private let inflater: Inflater?
    private var file: FileOutput?
    private var hash = SHA256()
    private var head: [UInt8] = []
    private(set) var size = 0

    /// - Parameters:
    ///   - compression: the IPP compression keyword: none, gzip or deflate (others were refused earlier).
    ///   - maximumSize: the most decompressed bytes accepted.
    ///   - floor: the free space the disk must keep, looked at every `DiskFloor.checkInterval` bytes stored.
    init(
        folder: String, number: Int, declaredFormat: DocumentFormat, compression: String, name: String?,
        maximumSize: Int, floor: DiskFloor? = nil
    ) {
        self.floor = floor
        self.folder = folder
        self.number = number
        self.declaredFormat = declaredFormat
        self.compression = compression
        self.name = name
        self.maximumSize = maximumSize
        inflater = Inflater.Method(rawValue: compression).map(Inflater.init(method:))
    }

    private var partialPath: String { "\(folder)/document-\(number).partial" }

    /// Adds received (possibly compressed) bytes.
    package func write(_ bytes: UnsafeRawBufferPointer) throws(DocumentError) {
        if let inflater {
            try inflater.inflate(bytes) { (chunk) throws(DocumentError) in try store(chunk) }
        } else {
            try store(bytes)
        }
    }

    /// Adds received (possibly compressed) bytes.
    package func write(_ bytes: some Collection<UInt8>) throws(DocumentError) {
        let written: Result<Void, DocumentError> = Array(bytes).withUnsafeBytes { raw in
            Result { () throws(DocumentError) in try write(raw) }
        }
        try written.get()
    }

    private func store(_ bytes: UnsafeRawBufferPointer) throws(DocumentError) {
        size += bytes.count
        if size > maximumSize { throw .tooLarge(limit: maximumSize) }
        storedSinceCheck += bytes.count
        if let floor, storedSinceCheck >= DiskFloor.checkInterval {
            storedSinceCheck = 0
            if let free = floor.shortfall() { throw .diskFull(free: free, floor: floor.minimumFreeBytes) }
        }
        if head.count < DocumentFormat.detectionLength {
            head.append(contentsOf: bytes.prefix(DocumentFormat.detectionLength - head.count))
        }
        hash.update(bytes)
        if file == nil { file = try FileOutput(creating: partialPath) }
        try file?.write(bytes)
    }

    /// Ends the document: checks the compressed stream ended, syncs the data to the disk (the printer is about
    /// to acknowledge it), closes and names the file, returns its record. The rename is made durable with the
    /// job's record (JobRecorder.sync).
    package func finish() throws(DocumentError) -> DocumentRecord {
        try inflater?.finish()
        if file == nil { file = try FileOutput(creating: partialPath) }
        try file?.sync()
        try file?.close()
        let detected = DocumentFormat.detect(head)
        let fileName = "document-\(number).\((detected ?? declaredFormat).fileExtension)"
        if rename(partialPath, "\(folder)/\(fileName)") != 0 {
            throw .storage(path: "\(folder)/\(fileName)", errno: errno)
        }
        return DocumentRecord(
            number: number, name: name, format: declaredFormat, detectedFormat: detected, compression: compression,
            size: size, sha256: hash.hexDigest(), file: fileName, pages: nil)
    }

    /// Drops the partial file after a failure.
    package func discard() {
        try? file?.close()
        unlink(partialPath)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
