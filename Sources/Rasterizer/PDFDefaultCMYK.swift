import CZlib
import Glibc
import PrintModel

/// DeviceCMYK in a PDF shown through the press profile, as a color-managed printer and Ghostscript show it.
///
/// ISO 32000-1 section 8.6.5.6: a page whose resources name a `DefaultCMYK` color space has it replace DeviceCMYK
/// wherever the page uses DeviceCMYK: its content, images, shadings, forms and the alternates of its separations.
/// Poppler honours it, and offers no other way to give DeviceCMYK a profile through poppler-glib. The update this
/// type makes is appended to a copy of the document (an incremental update, section 7.5.6): the press profile as an
/// ICCBased stream, and each distinct resources dictionary of the pages that names no DefaultCMYK of its own again,
/// with one. Pages that share a resources object share its one new version: an indirect resources dictionary is
/// written again under its own number, a dictionary inherited from a page tree node by that node written again,
/// and only a page whose resources are its own (or that has none) is written again itself. The original file is
/// left as the client sent it.
///
/// A document this type cannot read the structure of (encrypted, damaged, an object stream it cannot decompress)
/// gets no update and is drawn as it is, DeviceCMYK then being Poppler's own conversion; so is a document of more
/// than ``maximumPages`` pages, or whose update would take more than ``maximumUpdateBytes``.
struct PDFDefaultCMYK {
    /// The most indirect objects a document may hold for an update to be made.
    static let maximumObjects = 1_000_000
    /// The most pages a document may have for an update to be made.
    static let maximumPages = 10_000
    /// The most bytes the objects an update writes again may take, the profile aside.
    static let maximumUpdateBytes = 16 * 1024 * 1024
    /// The most bytes an object stream may decompress to.
    static let maximumObjectStreamBytes = 256 * 1024 * 1024

    /// The bytes to append to the document.
    let update: [UInt8]
    /// The pages given the press profile.
    let pages: Int
    /// The objects the update writes again, the profile aside: one for each distinct resources dictionary updated.
    let rewrittenObjects: Int

    /// An object of the document, as its newest definition in file order gives it.
    private struct Object {
        var generation: Int
        var value: PDFValue
        /// Whether it is a stream, which an update never writes again (it would lose its data).
        var isStream = false
    }

    /// Where a page's resources dictionary is, so that the pages sharing one are given the profile by one object.
    private enum ResourcesHolder: Hashable {
        /// An indirect object that is the dictionary: written again under its number.
        case itself(Int)
        /// The /Resources entry of a page or page tree node (this object): the object written again.
        case entryOf(Int)
    }

    /// The update for the PDF at `path` with `profile` (an ICC CMYK profile's bytes); nil when no page needs one.
    /// Throws when the document's structure is not one an update can be made for, and `.limitExceeded` past
    /// `maximumPages` pages or `maximumUpdateBytes` bytes of objects written again.
    init?(
        path: String, profile: [UInt8], maximumPages: Int = Self.maximumPages,
        maximumUpdateBytes: Int = Self.maximumUpdateBytes
    ) throws(RasterError) {
        var objects: [Int: Object] = [:]
        var trailer: [String: PDFValue]?
        var startxref: Int?
        let scanner = PDFObjectScanner(ByteReader(try FileInput(path: path))) { $0["Type"]?.nameValue == "ObjStm" }
        while let item = try scanner.next() {
            switch item {
            case .object(let number, let generation, let value, let length, let data):
                try RenderLimits.check("PDF objects", objects.count + 1, Self.maximumObjects)
                objects[number] = Object(generation: generation, value: value, isStream: length != nil)
                switch value["Type"]?.nameValue {
                case "XRef": trailer = value.dictionaryEntries
                case "ObjStm":
                    for (member, value) in try Self.members(of: value, data: data ?? [], number: number) {
                        try RenderLimits.check("PDF objects", objects.count + 1, Self.maximumObjects)
                        objects[member] = Object(generation: 0, value: value)
                    }
                default: break
                }
            case .trailer(let value):
                trailer = value.dictionaryEntries
            case .startxref(let offset):
                startxref = offset
            case .comment:
                break
            }
        }
        guard let trailer, let startxref, try Self.crossReferenceStarts(at: startxref, in: path) else {
            throw .malformed(format: "PDF", reason: "no trailer, or startxref names no cross-reference section")
        }
        guard trailer["Encrypt"] == nil else { throw .unsupportedFormat("an encrypted PDF gets no update") }
        guard case .reference(let root, let rootGeneration)? = trailer["Root"], let size = trailer["Size"]?.integerValue
        else { throw .malformed(format: "PDF", reason: "the trailer names no catalog or size") }

        func resolve(_ value: PDFValue?) -> PDFValue? {
            if case .reference(let number, _)? = value { return objects[number]?.value }
            return value
        }
        let profileNumber = max(size, (objects.keys.max() ?? 0) + 1)
        guard size > 0, profileNumber < PDFObjectScanner.maximumObjectNumber else {
            throw .malformed(format: "PDF", reason: "the trailer's /Size \(size) or an object number is out of range")
        }
        var body: [UInt8] = []
        var offsets: [(number: Int, generation: Int, offset: Int)] = []
        let base = scanner.offset + 1  // the scanner read the whole file: its offset is the file's size
        var written: Set<Int> = []
        func write(_ number: Int, _ generation: Int, _ value: PDFValue) throws(RasterError) {
            guard objects[number]?.isStream != true, written.insert(number).inserted else {
                throw .malformed(format: "PDF", reason: "object \(number) cannot hold the resources of pages")
            }
            offsets.append((number, generation, base + body.count))
            body += Array("\(number) \(generation) obj\n".utf8)
            value.write(into: &body)
            body += Array("\nendobj\n".utf8)
            try RenderLimits.check("bytes of a DefaultCMYK update", body.count, maximumUpdateBytes)
        }

        guard let catalog = objects[root]?.value else {
            throw .malformed(format: "PDF", reason: "the catalog \(root) \(rootGeneration) R is missing")
        }
        let tree = try PDFPageTree(root: catalog["Pages"], format: "PDF", object: { objects[$0]?.value })
        try RenderLimits.check("pages of a DefaultCMYK update", tree.pages.count, maximumPages)
        // The pages grouped by where their resources are, in the order of their first page.
        struct Group {
            var pages = 0
            /// The generation of the resources object, as the first page's reference gives it.
            var generation: Int?
            var resources: [String: PDFValue]
        }
        var holders: [ResourcesHolder] = []
        var groups: [ResourcesHolder: Group] = [:]
        for page in tree.pages {
            let value = page.effectiveEntries["Resources"]
            let holder: ResourcesHolder
            var generation: Int?
            if case .reference(let number, let referenced)? = value {
                holder = .itself(number)
                generation = referenced
            } else if page.entries["Resources"] == nil, let node = page.inheritedFrom["Resources"] {
                holder = .entryOf(node)
            } else if let number = page.number {
                holder = .entryOf(number)
            } else {
                throw .malformed(format: "PDF", reason: "a page is a direct object, which an update cannot replace")
            }
            if groups[holder] == nil {
                holders.append(holder)
                groups[holder] = Group(generation: generation, resources: resolve(value)?.dictionaryEntries ?? [:])
            }
            groups[holder]?.pages += 1
        }
        var changed = 0
        for holder in holders {
            guard var group = groups[holder] else { continue }
            var colorSpaces = resolve(group.resources["ColorSpace"])?.dictionaryEntries ?? [:]
            guard colorSpaces["DefaultCMYK"] == nil else { continue }  // the document's own choice stands
            colorSpaces["DefaultCMYK"] = .array([.name("ICCBased"), .reference(profileNumber, generation: 0)])
            group.resources["ColorSpace"] = .dictionary(colorSpaces)
            switch holder {
            case .itself(let number):
                let generation = objects[number]?.generation ?? group.generation ?? 0
                try write(number, generation, .dictionary(group.resources))
            case .entryOf(let number):
                guard let object = objects[number], var entries = object.value.dictionaryEntries else {
                    throw .malformed(format: "PDF", reason: "object \(number) of the page tree is missing")
                }
                entries["Resources"] = .dictionary(group.resources)
                try write(number, object.generation, .dictionary(entries))
            }
            changed += group.pages
        }
        guard changed > 0 else { return nil }

        rewrittenObjects = offsets.count
        offsets.append((profileNumber, 0, base + body.count))
        body += Array("\(profileNumber) 0 obj\n".utf8)
        body += Array("<</N 4 /Alternate /DeviceCMYK /Length \(profile.count)>>\nstream\n".utf8)
        body += profile
        body += Array("\nendstream\nendobj\n".utf8)

        // The cross-reference section of the update: one subsection per run of consecutive object numbers.
        let crossReference = base + body.count
        body += Array("xref\n".utf8)
        let sorted = offsets.sorted { $0.number < $1.number }
        var index = 0
        while index < sorted.count {
            var end = index + 1
            while end < sorted.count, sorted[end].number == sorted[end - 1].number + 1 { end += 1 }
            body += Array("\(sorted[index].number) \(end - index)\n".utf8)
            for entry in sorted[index..<end] {
                body += Array("\(Self.padded(entry.offset, 10)) \(Self.padded(entry.generation, 5)) n\r\n".utf8)
            }
            index = end
        }
        var newTrailer: [String: PDFValue] = [
            "Size": .integer(profileNumber + 1), "Root": .reference(root, generation: rootGeneration),
            "Prev": .integer(startxref),
        ]
        for key in ["Info", "ID"] { newTrailer[key] = trailer[key] }
        body += Array("trailer\n".utf8)
        PDFValue.dictionary(newTrailer).write(into: &body)
        body += Array("\nstartxref\n\(crossReference)\n%%EOF\n".utf8)
        update = [UInt8(ascii: "\n")] + body
        pages = changed
    }

    /// The objects an object stream holds (ISO 32000-1 section 7.5.7): its data decompressed, `N` pairs of object
    /// number and offset from `First`, then the objects' values.
    private static func members(of stream: PDFValue, data: [UInt8], number: Int) throws(RasterError) -> [(
        Int, PDFValue
    )] {
        let filter = stream["Filter"]
        let flate = filter == nil || filter == .name("FlateDecode") || filter == .array([.name("FlateDecode")])
        guard flate, stream["DecodeParms"] == nil, let count = stream["N"]?.integerValue,
            let first = stream["First"]?.integerValue, count >= 0, first >= 0
        else { throw .unsupportedFormat("object stream \(number) is not one this reader decompresses") }
        try RenderLimits.check("objects in an object stream", count, maximumObjects)
        let contents = filter == nil ? data : try inflate(data, number: number)
        guard first <= contents.count else {
            throw .malformed(format: "PDF", reason: "object stream \(number): /First is past its data")
        }
        let header = PDFObjectScanner(ByteReader(MemoryInput(Array(contents[0..<first]))))
        var entries: [(number: Int, offset: Int)] = []
        for _ in 0..<count {
            // The offset compared with what is left after /First: no sum of two numbers of the file.
            guard case .integer(let member)? = try header.nextValue(),
                case .integer(let offset)? = try header.nextValue(),
                offset >= 0, offset <= contents.count - first
            else { throw .malformed(format: "PDF", reason: "object stream \(number): a bad header") }
            try PDFObjectScanner.checkObjectNumber(member, generation: 0)
            entries.append((member, offset))
        }
        var members: [(Int, PDFValue)] = []
        for (index, entry) in entries.enumerated() {
            let end =
                index + 1 < entries.count
                ? max(first + entries[index + 1].offset, first + entry.offset) : contents.count
            let reader = PDFObjectScanner(ByteReader(MemoryInput(Array(contents[(first + entry.offset)..<end]))))
            guard let value = try reader.nextValue() else {
                throw .malformed(format: "PDF", reason: "object stream \(number): object \(entry.number) is empty")
            }
            members.append((entry.number, value))
        }
        return members
    }

    /// Decompresses a FlateDecode stream's data, up to ``maximumObjectStreamBytes``.
    private static func inflate(_ data: [UInt8], number: Int) throws(RasterError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit_(&stream, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw .libraryFailure(library: "zlib", message: "cannot start decompressing")
        }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256 * 1024)
        var status = Z_OK
        return try data.withUnsafeBufferPointer { (source) throws(RasterError) -> [UInt8] in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)  // zlib only reads it
            stream.avail_in = uInt(source.count)
            while status != Z_STREAM_END {
                let produced = chunk.withUnsafeMutableBufferPointer { out in
                    stream.next_out = out.baseAddress
                    stream.avail_out = uInt(out.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return out.count - Int(stream.avail_out)
                }
                guard status == Z_OK || status == Z_STREAM_END else {
                    throw .corruptData(page: 0, line: 0, reason: "object stream \(number) does not decompress")
                }
                try RenderLimits.check("object stream bytes", output.count + produced, maximumObjectStreamBytes)
                output += chunk[0..<produced]
                if produced == 0 && stream.avail_in == 0 && status != Z_STREAM_END {
                    throw .truncated(what: "object stream \(number)", offset: output.count)
                }
            }
            return output
        }
    }

    /// Whether a cross-reference section (`xref` or an `N G obj` stream) starts at `offset` in the file.
    private static func crossReferenceStarts(at offset: Int, in path: String) throws(RasterError) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(path: path, operation: "open", errno: errno) }
        defer { close(descriptor) }
        var head = [UInt8](repeating: 0, count: 8)
        let read = head.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, 8, off_t(offset)) }
        guard read > 0 else { return false }
        let first = head[0..<read].drop { [9, 10, 13, 32].contains($0) }
        return first.starts(with: Array("xref".utf8)) || first.first.map { (48...57).contains($0) } == true
    }

    private static func padded(_ value: Int, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

extension PDFDefaultCMYK {
    /// The press profile's bytes (``CMYKConversion/pressProfilePath``), read once; nil when it cannot be read or
    /// is no CMYK profile (the data color space of its header, ICC.1 section 7.2.6). Poppler reads the profile
    /// itself, and only for a document that uses DeviceCMYK.
    static let pressProfile: [UInt8]? = {
        guard let bytes = try? FileContents.read(path: CMYKConversion.pressProfilePath, maximum: 16 << 20),
            bytes.count > 128, bytes[16..<20].elementsEqual("CMYK".utf8)
        else { return nil }
        return bytes
    }()

    /// A copy of a document with its update appended, in a file of the job's folder unlinked as soon as it is
    /// made, so that nothing is left behind even when the render worker is killed, and the space goes when the
    /// render ends; Poppler opens it by ``path``, the name of
    /// its descriptor in /proc (another process of the same user can open it by that name too). The file goes when
    /// the value does.
    final class Copy {
        /// The name to open the copy by.
        let path: String
        private let descriptor: Int32

        fileprivate init?(descriptor: Int32) {
            path = "/proc/\(getpid())/fd/\(descriptor)"
            self.descriptor = descriptor
            guard access(path, R_OK) == 0 else {
                close(descriptor)
                return nil
            }
        }

        deinit {
            close(descriptor)
        }
    }

    /// A copy of the PDF at `path` with the update appended, in `folder` (the job's own, so that the copy counts
    /// against the disk the job's files are on, never a small TMPDIR); nil when the document gets no update (no
    /// press profile, nothing to change, a structure no update can be made for, or past ``maximumPages`` or
    /// ``maximumUpdateBytes``), and then the original is drawn.
    static func colorManagedCopy(of path: String, in folder: String) -> Copy? {
        guard let profile = pressProfile, let made = try? PDFDefaultCMYK(path: path, profile: profile) else {
            return nil
        }
        var template = Array("\(folder)/.vprinter-pdf-XXXXXX".utf8CString)
        let output = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard output >= 0 else { return nil }
        _ = fcntl(output, F_SETFD, FD_CLOEXEC)
        unlink(String(cString: template.withUnsafeBufferPointer { $0.baseAddress! }))
        // The document copied by the kernel, without passing through a buffer here.
        let input = open(path, O_RDONLY | O_CLOEXEC)
        var written = input >= 0
        while written {
            let count = sendfile(output, input, nil, 1 << 30)
            if count < 0 && errno == EINTR { continue }
            if count == 0 { break }
            written = count > 0
        }
        if input >= 0 { close(input) }
        guard written, writeAll(output, made.update[...]) else {
            close(output)
            return nil
        }
        return Copy(descriptor: output)
    }

    private static func writeAll(_ descriptor: Int32, _ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return false }
                done += count
            }
            return true
        }
    }
}
