/// The values a job printed with, the client's or the printer's defaults (PWG 5100.8 `-actual` attributes).
public struct ActualSettings: Sendable, Equatable {
    /// The media the sheets have: a PWG self-describing name (`iso_a4_210x297mm`).
    public var media: String
    /// The sides keyword.
    public var sides: String
    /// The print-color-mode keyword.
    public var printColorMode: String

    public init(media: String, sides: String, printColorMode: String) {
        self.media = media
        self.sides = sides
        self.printColorMode = printColorMode
    }
}
