import Dispatch
import ImageCheck
import PrintModel
import Synchronization

/// OCR of printed sides already written (the lazy half of a side's text): reads each side's PNG, recognizes its
/// text with Tesseract and writes it as `page-NNNN.txt` beside the PNG. Sides run in parallel, each thread with
/// its own engine.
public struct SideTextRecognition: Sendable {
    /// A side to read: its number, PNG file name in the folder and resolution (the render protocol's side).
    public typealias Side = RenderRequest.Side

    /// What became of one side.
    public struct Outcome: Sendable, Equatable {
        public var number: Int
        /// The text file written, or nil when the side could not be read.
        public var textFile: String?
        /// Characters of text found.
        public var characters: Int
        /// Why the side could not be read.
        public var error: String?
    }

    /// Tesseract's default language data.
    public static let defaultLanguages = "eng"

    public let folder: String
    public let languages: String
    public let threads: Int

    public init(folder: String, languages: String = SideTextRecognition.defaultLanguages, threads: Int) {
        self.folder = folder
        self.languages = languages
        self.threads = max(1, threads)
    }

    /// Reads every side; `onSide` is called as each one is done, from any thread. Throws only when the OCR
    /// engine cannot start (no language data); a side that cannot be read is an outcome with an error.
    public func run(_ sides: [Side], onSide: @escaping @Sendable (Outcome) -> Void) throws(RasterError) {
        guard !sides.isEmpty else { return }
        let failure = Mutex<RasterError?>(nil)
        let count = min(threads, sides.count)
        let (folder, languages) = (folder, languages)
        DispatchQueue.concurrentPerform(iterations: count) { thread in
            let engine: TextRecognizer
            do throws(RasterError) {
                engine = try TextRecognizer(languages: languages)
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
                return
            }
            for index in stride(from: thread, to: sides.count, by: count) {
                onSide(Self.read(sides[index], folder: folder, engine: engine))
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    private static func read(_ side: Side, folder: String, engine: TextRecognizer) -> Outcome {
        guard let textFile = PrintedSide.textFileName(forImage: side.file) else {
            return Outcome(number: side.number, textFile: nil, characters: 0, error: "\(side.file) is not a PNG name")
        }
        do throws(RasterError) {
            let image: (width: Int, height: Int, pixels: [UInt8])
            do {
                image = try PNGFile.readGray(folder + "/" + side.file)
            } catch {
                throw .libraryFailure(library: "libpng", message: error.description)
            }
            let text = try engine.recognize(
                gray: image.pixels, width: image.width, height: image.height, resolution: side.dpi)
            try TextFile.write(text, to: folder + "/" + textFile)
            return Outcome(number: side.number, textFile: textFile, characters: text.count, error: nil)
        } catch {
            return Outcome(number: side.number, textFile: nil, characters: 0, error: error.description)
        }
    }
}
