import PrintModel
import Testing

/// PrintedSide's file names: the one place that says which text file goes with a side's PNG (the worker writes
/// it, the printer and `vprinter jobs` read it).
@Suite struct PrintedSideTests {
    @Test func textFileNamesArePlainPNGNamesOnly() {
        #expect(PrintedSide.textFileName(forImage: "page-0001.png") == "page-0001.txt")
        #expect(PrintedSide.textFileName(forImage: "../page-0001.png") == nil)
        #expect(PrintedSide.textFileName(forImage: ".png") == nil)
        #expect(PrintedSide.textFileName(forImage: "page-0001.jpg") == nil)
    }

    @Test func fileNamesAreNumberedFromOneWithFourDigits() {
        #expect(PrintedSide.fileName(1) == "page-0001.png")
        #expect(PrintedSide.textFileName(12) == "page-0012.txt")
        #expect(PrintedSide.fileName(12345) == "page-12345.png")
    }
}
