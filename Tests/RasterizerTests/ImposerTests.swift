import PrintModel
import Rasterizer
import Testing

/// Placement rules of the imposer, with expectations worked out by hand for US Letter at 72 dpi
/// (612 x 792 pixels, one pixel a point).
@Suite struct ImposerTests {
    func ticket(_ change: (inout JobTicket) -> Void = { _ in }) -> JobTicket {
        var ticket = JobTicket()
        ticket.resolution = 72
        change(&ticket)
        return ticket
    }

    func placeAll(_ ticket: JobTicket, pages: Int, width: Double = 612, height: Double = 792)
        throws -> (placements: [Imposer.Placement], impressions: [Imposer.Impression], imposer: Imposer)
    {
        var imposer = try Imposer(ticket: ticket)
        var placements: [Imposer.Placement] = []
        var impressions: [Imposer.Impression] = []
        for page in 1...pages {
            let (placement, started) = imposer.place(
                document: 1, page: page, width: width, height: height, kind: .document)
            placements.append(placement)
            if let started { impressions.append(started) }
        }
        return (placements, impressions, imposer)
    }

    @Test func letterPageOnBorderlessLetterIsPrintedOneToOne() throws {
        let placement = try placeAll(ticket(), pages: 1).placements[0]
        #expect(placement.transform.scale == 1)
        #expect(placement.transform.rotation == 0)
        let corner = placement.transform.apply(x: 0, y: 0)
        #expect(corner.x == 0 && corner.y == 0)
    }

    @Test func twoUpOnPortraitSheetStacksTurnedPagesTopAndBottom() throws {
        let (placements, impressions, _) = try placeAll(ticket { $0.numberUp = 2 }, pages: 2)
        #expect(impressions.count == 1)
        #expect(placements[0].clip == PixelRect(x: 0, y: 0, width: 612, height: 396))
        #expect(placements[1].clip == PixelRect(x: 0, y: 396, width: 612, height: 396))
        #expect(placements[0].transform.rotation == 270)
        // A 792 x 612 turned page fits 612 x 396 by height: 396 / 612.
        #expect(abs(placements[0].transform.scale - 396.0 / 612.0) < 1e-9)
    }

    @Test func fourUpFollowsPresentationDirection() throws {
        let rightThenDown = try placeAll(ticket { $0.numberUp = 4 }, pages: 4).placements.map { ($0.clip.x, $0.clip.y) }
        #expect(rightThenDown.map(\.0) == [0, 306, 0, 306])
        #expect(rightThenDown.map(\.1) == [0, 0, 396, 396])
        let downThenLeft = try placeAll(
            ticket {
                $0.numberUp = 4
                $0.presentationDirection = .toBottomToLeft
            }, pages: 4
        ).placements.map { ($0.clip.x, $0.clip.y) }
        #expect(downThenLeft.map(\.0) == [306, 306, 0, 0])
        #expect(downThenLeft.map(\.1) == [0, 396, 0, 396])
    }

    @Test func everyNumberUpMakesThatManyCells() throws {
        for count in [1, 2, 4, 6, 9, 16] {
            let (_, impressions, _) = try placeAll(ticket { $0.numberUp = count }, pages: count * 2)
            #expect(impressions.count == 2, "number-up \(count)")
        }
        #expect(throws: RasterError.badTicket("number-up 3 is not supported")) {
            try Imposer(ticket: ticket { $0.numberUp = 3 })
        }
    }

    @Test func twoSidedPrintingPairsSidesOnSheets() throws {
        let (_, impressions, imposer) = try placeAll(ticket { $0.sides = .twoSidedLongEdge }, pages: 3)
        #expect(impressions.map(\.sheet) == [1, 1, 2])
        #expect(impressions.map(\.isBack) == [false, true, false])
        #expect(imposer.sheets == 2 && imposer.impressions == 3)
    }

    @Test func newDocumentStartsANewSheetWhenTwoSided() throws {
        var imposer = try Imposer(ticket: ticket { $0.sides = .twoSidedShortEdge })
        _ = imposer.place(document: 1, page: 1, width: 612, height: 792, kind: .document)
        imposer.endDocument(newSheet: true)
        let started = imposer.place(document: 2, page: 1, width: 612, height: 792, kind: .document).newImpression
        #expect(started?.number == 2 && started?.sheet == 2 && started?.isBack == false)
    }

    @Test func landscapePageTurnsAutomaticallyUnlessOrientationIsGiven() throws {
        let automatic = try placeAll(ticket(), pages: 1, width: 792, height: 612).placements[0]
        #expect(automatic.transform.rotation == 270)
        #expect(automatic.transform.scale == 1)
        let portrait = try placeAll(ticket { $0.orientation = .portrait }, pages: 1, width: 792, height: 612)
        #expect(portrait.placements[0].transform.rotation == 0)
        let reverse = try placeAll(ticket { $0.orientation = .reversePortrait }, pages: 1)
        #expect(reverse.placements[0].transform.rotation == 180)
    }

    @Test func scalingModesSizeASmallPage() throws {
        // A 306 x 396 page (half letter in each direction) on letter with 36-point margins: printable 540 x 720.
        func scale(_ mode: Scaling) throws -> Double {
            try placeAll(
                ticket {
                    $0.scaling = mode
                    ($0.topMargin, $0.bottomMargin, $0.leftMargin, $0.rightMargin) = (1270, 1270, 1270, 1270)
                }, pages: 1, width: 306, height: 396
            ).placements[0].transform.scale
        }
        #expect(try scale(.none) == 1)
        #expect(try scale(.autoFit) == 1)
        #expect(try abs(scale(.fit) - 540.0 / 306.0) < 1e-9)
        #expect(try abs(scale(.fill) - 720.0 / 396.0) < 1e-9)
        #expect(try scale(.auto) == 1)
    }

    @Test func largePageIsFittedIntoThePrintableArea() throws {
        let placement = try placeAll(
            ticket { ($0.topMargin, $0.bottomMargin, $0.leftMargin, $0.rightMargin) = (1270, 1270, 1270, 1270) },
            pages: 1, width: 1224, height: 1584
        ).placements[0]
        #expect(abs(placement.transform.scale - 540.0 / 1224.0) < 1e-9)
        #expect(placement.clip == PixelRect(x: 36, y: 36, width: 540, height: 720))
    }

    @Test func marginsThatLeaveNoPrintableAreaAreRejected() {
        #expect(throws: RasterError.badTicket("margins leave no printable area")) {
            try Imposer(ticket: ticket { ($0.leftMargin, $0.rightMargin) = (11_000, 11_000) })
        }
    }

    @Test func sheetAboveThePixelLimitIsRejected() {
        #expect(throws: RasterError.self) {
            try Imposer(ticket: ticket { $0.resolution = 2_400 })
        }
        var limits = RenderLimits()
        limits.maximumSheetPixels = 1_000_000
        #expect(
            throws: RasterError.limitExceeded(limit: "maximum sheet pixels", value: 1_275 * 1_650, maximum: 1_000_000)
        ) {
            try Imposer(ticket: ticket { $0.resolution = 150 }, limits: limits)
        }
    }

    // PWG 5100.6 page overrides.

    /// US Legal, 8.5 x 14 inches: 612 x 1008 pixels at 72 dpi.
    static let legal = PageOverride.Media(
        width: 21_590, height: 35_560, topMargin: 0, bottomMargin: 0, leftMargin: 0, rightMargin: 0)

    @Test func aPageWithOverriddenMediaPrintsOnItsOwnSheetOfThatSize() throws {
        let (_, impressions, imposer) = try placeAll(
            ticket { $0.overrides = [PageOverride(pages: [PageRange(lower: 2, upper: 2)], media: Self.legal)] },
            pages: 3)
        #expect(impressions.map { $0.geometry.height } == [792, 1008, 792])
        #expect(impressions.map { $0.geometry.width } == [612, 612, 612])
        #expect(imposer.sheets == 3)
    }

    @Test func overriddenSidesStartANewSheetAndLeaveTheBackBlank() throws {
        // Pages 1-2 one-sided on a two-sided job: two sheets; pages 3-5 two-sided: a sheet and a front.
        let (_, impressions, imposer) = try placeAll(
            ticket {
                $0.sides = .twoSidedLongEdge
                $0.overrides = [PageOverride(pages: [PageRange(lower: 1, upper: 2)], sides: .oneSided)]
            }, pages: 5)
        #expect(impressions.map(\.sheet) == [1, 2, 3, 3, 4])
        #expect(impressions.map(\.isBack) == [false, false, false, true, false])
        #expect(imposer.sheets == 4 && imposer.impressions == 5)
    }

    @Test func anOverrideAppliesOnlyToTheDocumentsItNames() throws {
        var imposer = try Imposer(
            ticket: ticket {
                $0.overrides = [
                    PageOverride(documents: [PageRange(lower: 2, upper: 2)], pages: [], media: Self.legal)
                ]
            })
        let first = imposer.place(document: 1, page: 1, width: 612, height: 792, kind: .document)
        imposer.endDocument(newSheet: true)
        let second = imposer.place(document: 2, page: 1, width: 612, height: 792, kind: .document)
        #expect(first.newImpression?.geometry.height == 792)
        #expect(second.newImpression?.geometry.height == 1008)
    }

    @Test func anOverriddenOrientationTurnsOnlyItsPagesOnTheSameSide() throws {
        let (placements, impressions, _) = try placeAll(
            ticket {
                $0.numberUp = 2
                $0.orientation = .portrait
                $0.overrides = [PageOverride(pages: [PageRange(lower: 2, upper: 2)], orientation: .landscape)]
            }, pages: 2)
        #expect(impressions.count == 1)
        #expect(placements.map(\.transform.rotation) == [0, 270])
    }

    @Test func theFirstOverrideNamingAPageWins() {
        var ticket = JobTicket()
        ticket.overrides = [
            PageOverride(pages: [PageRange(lower: 1, upper: 3)], sides: .twoSidedShortEdge),
            PageOverride(pages: [PageRange(lower: 3, upper: 4)], sides: .twoSidedLongEdge),
        ]
        #expect(ticket.forPage(document: 1, page: 3).sides == .twoSidedShortEdge)
        #expect(ticket.forPage(document: 1, page: 4).sides == .twoSidedLongEdge)
        #expect(ticket.forPage(document: 1, page: 5).sides == .oneSided)
    }

    @Test func overrideMediaBeyondTheLimitsIsRefusedBeforeAnyPage() {
        let huge = PageOverride.Media(
            width: 2_540_000, height: 2_540_000, topMargin: 0, bottomMargin: 0, leftMargin: 0, rightMargin: 0)
        #expect(throws: RasterError.self) {
            try Imposer(ticket: ticket { $0.overrides = [PageOverride(pages: [], media: huge)] })
        }
    }
}
