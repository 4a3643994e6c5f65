extension JobRecord {
    /// One document as received and stored in the job's folder.
    public struct Document: Sendable, Hashable, Codable {
        public var documentNumber: Int
        public var documentName: String?
        /// The document-format the client declared.
        public var documentFormat: DocumentFormat
        /// The format found in the data (``DocumentFormat/detect(_:)``); nil, written as null, when it was not
        /// recognised.
        public var documentFormatDetected: DocumentFormat?
        /// The IPP compression keyword it arrived with (stored decompressed).
        public var compression: String
        /// Bytes stored (after decompression).
        public var size: Int
        public var sha256: String
        /// The file name inside the job's folder.
        public var file: String
        public var pages: Int?
        /// "canceled" for a document canceled with Cancel-Document; absent otherwise.
        public var documentState: String?

        public init(
            documentNumber: Int, documentName: String? = nil, documentFormat: DocumentFormat,
            documentFormatDetected: DocumentFormat?, compression: String, size: Int, sha256: String, file: String,
            pages: Int? = nil, documentState: String? = nil
        ) {
            self.documentNumber = documentNumber
            self.documentName = documentName
            self.documentFormat = documentFormat
            self.documentFormatDetected = documentFormatDetected
            self.compression = compression
            self.size = size
            self.sha256 = sha256
            self.file = file
            self.pages = pages
            self.documentState = documentState
        }

        /// The format the document prints as: the detected one, else the declared one.
        public var effectiveFormat: DocumentFormat { documentFormatDetected ?? documentFormat }

        enum CodingKeys: String, CodingKey {
            case documentNumber = "document-number", documentName = "document-name"
            case documentFormat = "document-format", documentFormatDetected = "document-format-detected"
            case compression, size, sha256, file, pages, documentState = "document-state"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            documentNumber = try c.decode(Int.self, forKey: .documentNumber)
            documentName = try c.decodeIfPresent(String.self, forKey: .documentName)
            documentFormat = try c.decodeIfPresent(DocumentFormat.self, forKey: .documentFormat) ?? .octetStream
            documentFormatDetected = try c.decodeIfPresent(DocumentFormat.self, forKey: .documentFormatDetected)
            compression = try c.decodeIfPresent(String.self, forKey: .compression) ?? "none"
            size = try c.decodeIfPresent(Int.self, forKey: .size) ?? 0
            sha256 = try c.decodeIfPresent(String.self, forKey: .sha256) ?? ""
            file = try c.decode(String.self, forKey: .file)
            pages = try c.decodeIfPresent(Int.self, forKey: .pages)
            documentState = try c.decodeIfPresent(String.self, forKey: .documentState)
        }

        /// `document-format-detected` is always there, null when nothing was recognised.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(documentNumber, forKey: .documentNumber)
            try c.encodeIfPresent(documentName, forKey: .documentName)
            try c.encode(documentFormat, forKey: .documentFormat)
            if let documentFormatDetected {
                try c.encode(documentFormatDetected, forKey: .documentFormatDetected)
            } else {
                try c.encodeNil(forKey: .documentFormatDetected)
            }
            try c.encode(compression, forKey: .compression)
            try c.encode(size, forKey: .size)
            try c.encode(sha256, forKey: .sha256)
            try c.encode(file, forKey: .file)
            try c.encodeIfPresent(pages, forKey: .pages)
            try c.encodeIfPresent(documentState, forKey: .documentState)
        }
    }
}
