import Foundation
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// Where the viewer puts each page's number on a number-up side (PWG 5100.3 presentation-direction-number-up).
@Suite struct NumberUpLayoutTests {
    /// A US Letter side at 100 dpi with no margins: 850 x 1100 pixels.
    private let letter = (width: 850, height: 1100)

    private func cells(_ count: Int, _ direction: String = "toright-tobottom", landscape: Bool = false)
        -> [NumberUpLayout.Cell]
    {
        let (width, height) = landscape ? (letter.height, letter.width) : (letter.width, letter.height)
        return NumberUpLayout.cells(
            count: count, direction: direction, width: width, height: height,
            printable: (x: 0, y: 0, width: width, height: height))
    }

    @Test func twoUpOnAPortraitSideStacksTheHalvesTopFirst() {
        #expect(
            cells(2) == [
                .init(left: 0, top: 0, width: 100, height: 50), .init(left: 0, top: 50, width: 100, height: 50),
            ])
        // On a landscape side the halves lie side by side.
        #expect(cells(2, landscape: true).map(\.left) == [0, 50])
    }

    @Test func theDirectionOrdersTheCells() {
        let rightDown = cells(4).map { [$0.left, $0.top] }
        #expect(rightDown == [[0, 0], [50, 0], [0, 50], [50, 50]])
        let downRight = cells(4, "tobottom-toright").map { [$0.left, $0.top] }
        #expect(downRight == [[0, 0], [0, 50], [50, 0], [50, 50]])
        let leftDown = cells(4, "toleft-tobottom").map { [$0.left, $0.top] }
        #expect(leftDown == [[50, 0], [0, 0], [50, 50], [0, 50]])
        let upLeft = cells(4, "totop-toleft").map { [$0.left, $0.top] }
        #expect(upLeft == [[50, 50], [50, 0], [0, 50], [0, 0]])
    }

    @Test func gridsFollowTheLongEdge() {
        #expect(cells(6).count == 6 && Set(cells(6).map(\.left)).count == 2)  // 2 columns x 3 rows
        #expect(cells(9).count == 9 && cells(16).count == 16)
        #expect(cells(1) == [.init(left: 0, top: 0, width: 100, height: 100)])
        #expect(cells(3).count == 1)  // not a number-up value: one cell
    }

    @Test func cellsStayInThePrintableArea() {
        let margins = NumberUpLayout.cells(
            count: 2, direction: "toright-tobottom", width: 1000, height: 2000,
            printable: (x: 100, y: 200, width: 800, height: 1600))
        #expect(
            margins == [
                .init(left: 10, top: 10, width: 80, height: 40), .init(left: 10, top: 50, width: 80, height: 40),
            ])
        let none = NumberUpLayout.cells(
            count: 2, direction: "toright-tobottom", width: 0, height: 100, printable: (0, 0, 0, 0))
        #expect(none.isEmpty)
    }

    @Test func hundredthsOfAMillimetreRoundToPixels() {
        #expect(NumberUpLayout.pixels(2_540, dpi: 300) == 300)
        #expect(NumberUpLayout.pixels(423, dpi: 300) == 50)  // 4.23 mm, a typical margin
        #expect(NumberUpLayout.pixels(0, dpi: 600) == 0)
    }
}
