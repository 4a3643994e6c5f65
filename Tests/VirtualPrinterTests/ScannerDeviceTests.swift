import Foundation
import PrintModel
import Scanner
import Synchronization
import Testing

@testable import PrinterCore

/// The scanner's jobs, feeder and faults, with images made by a stand-in for the render worker (the worker's own
/// images are tested in RasterizerTests and end to end with sane-airscan in scripts/scanning).
@Suite struct ScannerDeviceTests {
    /// Writes a few bytes where the worker would write the image, or fails when told to.
    final class StandInImaging: ScanImaging {
        let fails = Atomic<Bool>(false)
        let pages = Mutex<[ScanPage]>([])

        func scan(_ page: ScanPage) -> Result<ScannedImage, ScanImagingError> {
            pages.withLock { $0.append(page) }
            if fails.load(ordering: .relaxed) { return .failure(ScanImagingError("the source cannot be read")) }
            let folder = (page.outputPath as NSString).deletingLastPathComponent
            try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: page.outputPath, contents: Data([1, 2, 3]))
            return .success(
                ScannedImage(path: page.outputPath, width: page.pixelWidth, height: page.pixelHeight, bytes: 3))
        }
    }

    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scanner-\(UUID().uuidString)").path
    let imaging = StandInImaging()

    func scanner() -> ScannerDevice {
        ScannerDevice(
            capabilities: ScanSettingsFixture.capabilities, imaging: imaging, outputDirectory: folder,
            printerName: "mfp")
    }

    func settings(_ source: String, duplex: Bool = false, dpi: Int = 150) -> [UInt8] {
        Array(
            """
            <scan:ScanSettings xmlns:scan="http://schemas.hp.com/imaging/escl/2011/05/03" \
            xmlns:pwg="http://www.pwg.org/schemas/2010/12/sm"><pwg:InputSource>\(source)</pwg:InputSource>\
            <scan:Duplex>\(duplex)</scan:Duplex><scan:XResolution>\(dpi)</scan:XResolution>\
            <scan:YResolution>\(dpi)</scan:YResolution></scan:ScanSettings>
            """.utf8)
    }

    @Test func aPlatenScanDeliversOneImageThenEndsAndIsRecorded() throws {
        let device = scanner()
        let job = try device.createJob(settingsBody: settings("Platen"), client: "127.0.0.1", now: 1000).get()
        #expect(job.imagesPlanned == 1 && job.printer == "mfp")
        let (image, path) = try device.nextImage(job: job.uuid).get()
        #expect(image.number == 1 && image.side == "front" && image.width == 1240 && image.height == 1754)
        #expect(FileManager.default.fileExists(atPath: path))
        #expect(device.nextImage(job: job.uuid).failure == .notFound)
        let recorded = try JSONDecoder().decode(
            ScanJob.self, from: Data(contentsOf: URL(fileURLWithPath: "\(device.folder(of: job.number))/scan.json")))
        #expect(recorded.state == .completed && recorded.reason == "JobCompletedSuccessfully")
        #expect(recorded.images.map(\.file) == ["image-0001.jpg"])
        #expect(imaging.pages.withLock { $0.first?.label.source } == "Platen")
    }

    @Test func aDuplexFeederScanGivesBothSidesOfEverySheet() throws {
        let device = scanner()
        device.loadFeeder(sheets: 2)
        let job = try device.createJob(settingsBody: settings("Feeder", duplex: true), client: nil, now: 1).get()
        var sides: [String] = []
        var sheets: [Int] = []
        while case .success(let (image, _)) = device.nextImage(job: job.uuid) {
            sides.append(image.side)
            sheets.append(image.sheet)
        }
        #expect(sides == ["front", "back", "front", "back"] && sheets == [1, 1, 2, 2])
        #expect(device.job(number: job.number)?.state == .completed)
    }

    @Test func theScannerCarriesThePrintersUUIDBareAsScannersSendIt() throws {
        let scanner = try #require(try shippedProfile("office-mfp").features.scanner)
        let capabilities = ScannerDevice.capabilities(
            of: scanner, makeAndModel: "X", uuid: "urn:uuid:4adba359-37e2-5f33-a36a-30c20d56cd63")
        #expect(capabilities.uuid == "4adba359-37e2-5f33-a36a-30c20d56cd63")
        #expect(capabilities.serialNumber == "4ADBA359")
        // A4 glass and a legal-size feeder, in three-hundredths of an inch.
        #expect(capabilities.platen == .init(width: 2480, height: 3507))
        #expect(capabilities.feeder == .init(width: 2550, height: 4200))
    }

    @Test func scanImageInfoDescribesTheLastImageAndDeletingAnEndedJobKeepsIt() throws {
        let device = scanner()
        let job = try device.createJob(settingsBody: settings("Platen"), client: nil, now: 1).get()
        #expect(device.job(uuid: job.uuid)?.imageInfoXML(jobPath: "/j") == nil, "no image yet")
        let (image, _) = try device.nextImage(job: job.uuid).get()
        let info = try #require(device.job(uuid: job.uuid)?.imageInfoXML(jobPath: "/eSCL/ScanJobs/\(job.uuid)"))
        #expect(info.contains("<scan:ActualWidth>\(image.width)</scan:ActualWidth>"))
        #expect(info.contains("<scan:ActualHeight>\(image.height)</scan:ActualHeight>"))
        #expect(info.contains("<scan:ActualBytesPerLine>\(image.width * 3)</scan:ActualBytesPerLine>"))
        #expect(info.contains("<pwg:JobUuid>\(job.uuid)</pwg:JobUuid>"))
        #expect(device.job(uuid: job.uuid)?.state == .completed, "the glass's one image ends the job")
        #expect(device.status.state == .idle, "a client that asks no more leaves the scanner idle")
        #expect(device.nextImage(job: job.uuid).failure == .notFound, "the platen gives one image")
        #expect(device.cancel(job: job.uuid), "a client deletes the job it is done with")
        #expect(device.job(uuid: job.uuid)?.state == .completed, "and it stays as it ended")
        #expect(!device.cancel(job: "no-such-job"))
    }

    @Test func oneJobAtATimeAndABusyScannerRefusesWithRetry() throws {
        let device = scanner()
        let first = try device.createJob(settingsBody: settings("Platen"), client: nil, now: 1).get()
        #expect(device.createJob(settingsBody: settings("Platen"), client: nil, now: 2).failure == .busy)
        #expect(device.cancel(job: first.uuid))
        #expect(device.job(number: first.number)?.reason == "JobCanceledByUser")
        #expect(device.nextImage(job: first.uuid).failure == .notFound)
        device.set(.busy, true)
        #expect(device.createJob(settingsBody: settings("Platen"), client: nil, now: 3).failure == .busy)
        #expect(ScannerRefusal.busy.httpStatus == 503)
    }

    /// A clock a test sets, and a log it reads.
    final class TestClock: Sendable {
        let seconds: Mutex<Double>
        let lines = Mutex<[String]>([])
        init(_ seconds: Double) { self.seconds = Mutex(seconds) }
        func set(_ value: Double) { seconds.withLock { $0 = value } }
        var now: @Sendable () -> Double { { [self] in seconds.withLock { $0 } } }
        var log: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
    }

    @Test func aJobNobodyFetchesIsDroppedAfterTheTimeOutAndTheNextClientScans() throws {
        let clock = TestClock(1000)
        let device = ScannerDevice(
            capabilities: ScanSettingsFixture.capabilities, imaging: imaging, outputDirectory: folder,
            printerName: "mfp", clock: clock.now, log: clock.log)
        let timeout = Double(ScannerDevice.abandonedJobTimeout)
        #expect(ScannerDevice.abandonedJobTimeout == 120, "AirSane's idle job time-out; 4 times sane-airscan's wait")
        device.loadFeeder(sheets: 2)
        let left = try device.createJob(settingsBody: settings("Feeder"), client: "10.0.0.2", now: 1000).get()
        #expect(device.expireAbandonedJobs(now: 1000 + timeout - 1).isEmpty, "not before the time-out")
        // Fetching an image starts the time-out again.
        clock.set(1100)
        _ = try device.nextImage(job: left.uuid).get()
        #expect(device.expireAbandonedJobs(now: 1100 + timeout - 1).isEmpty)
        #expect(
            device.createJob(settingsBody: settings("Platen"), client: "10.0.0.3", now: 1100 + timeout - 1).failure
                == .busy, "the first client may still come back")
        #expect(device.status.state == .processing)
        // Another client's scan job after the time-out drops the one left and is made.
        let next = try device.createJob(settingsBody: settings("Platen"), client: "10.0.0.3", now: 1100 + timeout)
            .get()
        let dropped = try #require(device.job(number: left.number))
        #expect(dropped.state == .aborted && dropped.reason == ScannerDevice.abandonedReason)
        #expect(dropped.reason == "AbortedBySystem" && dropped.imagesToTransfer == 0)
        #expect(dropped.message?.contains("for 120 s") == true && dropped.message?.contains("1 of 2 images") == true)
        #expect(device.nextImage(job: left.uuid).failure == .notFound, "the client that comes back finds it ended")
        let recorded = try JSONDecoder().decode(
            ScanJob.self, from: Data(contentsOf: URL(fileURLWithPath: "\(device.folder(of: left.number))/scan.json")))
        #expect(recorded.state == .aborted && recorded.message == dropped.message)
        #expect(clock.lines.withLock { $0 }.contains { $0.contains("scan job \(left.number) of 10.0.0.2 dropped") })
        #expect(device.job(uuid: next.uuid)?.state == .processing)
        // ScannerStatus says so (Mopria eSCL 8.1.5: JobState and JobStateReason of each job).
        let xml = device.status.xml(jobPath: { $0.uuid }, now: 1100 + timeout)
        #expect(xml.contains("<pwg:JobState>Aborted</pwg:JobState>"))
        #expect(xml.contains("<pwg:JobStateReason>AbortedBySystem</pwg:JobStateReason>"))
    }

    @Test func theSweepDropsAnAbandonedJobAndLeavesTheScannerIdle() throws {
        let device = ScannerDevice(
            capabilities: ScanSettingsFixture.capabilities, imaging: imaging, outputDirectory: folder,
            printerName: "mfp", abandonedJobTimeout: 5)
        let job = try device.createJob(settingsBody: settings("Platen"), client: nil, now: 10).get()
        #expect(device.status.state == .processing)
        #expect(device.expireAbandonedJobs(now: 15).map(\.uuid) == [job.uuid])
        #expect(device.status.state == .idle)
        #expect(device.expireAbandonedJobs(now: 100).isEmpty, "an ended job is not dropped again")
    }

    @Test func theScannerKeepsItsNewestScansAndRemovesTheOldestEndedOnesWithTheirFolders() throws {
        let device = scanner()
        var made: [ScanJob] = []
        for second in 0..<ScannerDevice.maximumJobs {
            let job = try device.createJob(settingsBody: settings("Platen"), client: nil, now: Double(second)).get()
            #expect(device.cancel(job: job.uuid))
            made.append(job)
        }
        #expect(device.jobs.count == 100 && FileManager.default.fileExists(atPath: device.folder(of: made[0].number)))
        let newest = try device.createJob(settingsBody: settings("Platen"), client: nil, now: 200).get()
        #expect(device.jobs.count == ScannerDevice.maximumJobs, "the 101st scan pushes out one")
        #expect(device.job(number: made[0].number) == nil && device.job(number: newest.number) != nil)
        #expect(!FileManager.default.fileExists(atPath: device.folder(of: made[0].number)), "with its folder")
        #expect(FileManager.default.fileExists(atPath: device.folder(of: made[1].number)))
        // A scanner made later for the printer (a restart, a printer made again) lists the same ones.
        #expect(scanner().jobs.map(\.number) == device.jobs.map(\.number))
    }

    @Test func recordsOfAnEarlierRunBeyondTheNewestAreRemovedAtStart() throws {
        let settings = try ScanSettings.read(settings("Platen"), for: ScanSettingsFixture.capabilities)
        let count = ScannerDevice.maximumJobs + 3
        for number in 1...count {
            var job = ScanJob(
                number: number, uuid: "u\(number)", settings: settings, created: "", createdSeconds: Double(number),
                imagesPlanned: 1, client: nil)
            job.printer = "mfp"
            job.state = .completed
            let jobFolder = "\(folder)/scans/\(number)"
            try FileManager.default.createDirectory(atPath: jobFolder, withIntermediateDirectories: true)
            try JSONEncoder().encode(job).write(to: URL(fileURLWithPath: "\(jobFolder)/scan.json"))
        }
        // A folder without a record is no scan of this scanner's: it stays (and counts for the numbers).
        try FileManager.default.createDirectory(atPath: "\(folder)/scans/0", withIntermediateDirectories: true)
        let clock = TestClock(0)
        let device = ScannerDevice(
            capabilities: ScanSettingsFixture.capabilities, imaging: imaging, outputDirectory: folder,
            printerName: "mfp", log: clock.log)
        #expect(device.jobs.count == ScannerDevice.maximumJobs && device.jobs.last?.number == 4)
        for number in 1...3 { #expect(!FileManager.default.fileExists(atPath: device.folder(of: number))) }
        #expect(FileManager.default.fileExists(atPath: device.folder(of: 4)))
        #expect(FileManager.default.fileExists(atPath: device.folder(of: 0)))
        #expect(clock.lines.withLock { $0 }.contains { $0.contains("3 scan records beyond the newest 100 removed") })
    }

    @Test func belowTheDiskFloorScanJobsAreRefusedWith503UntilThereIsRoom() throws {
        let disk = StorageLimitTests.FakeDisk()
        let device = ScannerDevice(
            capabilities: ScanSettingsFixture.capabilities, imaging: imaging, outputDirectory: folder,
            printerName: "mfp", diskFloor: disk.floor)
        disk.free.store(100 << 20, ordering: .relaxed)
        guard case .failure(let refusal) = device.createJob(settingsBody: settings("Platen"), client: nil, now: 1)
        else {
            Issue.record("a scan job below the floor was made")
            return
        }
        #expect(refusal.message.contains("100 MiB free") && refusal.message.contains("256 MiB (--min-free-disk)"))
        #expect(refusal.message.contains("no new scans"))
        #expect(refusal.httpStatus == 503 && refusal.retryAfterSeconds == ScannerDevice.storageRetryAfterSeconds)
        #expect(ScannerDevice.storageRetryAfterSeconds == 60 && ScannerRefusal.busy.retryAfterSeconds == 2)
        #expect(device.jobs.isEmpty && !FileManager.default.fileExists(atPath: "\(folder)/scans/1"))
        disk.free.store(1 << 30, ordering: .relaxed)
        #expect((try? device.createJob(settingsBody: settings("Platen"), client: nil, now: 2).get()) != nil)
    }

    @Test func anEmptyFeederRefusesFeederScansButNotThePlaten() throws {
        let device = scanner()
        device.loadFeeder(sheets: 0)
        #expect(device.createJob(settingsBody: settings("Feeder"), client: nil, now: 1).failure == .feederEmpty)
        #expect(device.status.feederState == "ScannerAdfEmpty")
        #expect((try? device.createJob(settingsBody: settings("Platen"), client: nil, now: 1).get()) != nil)
    }

    @Test func aJamAbortsTheFeederJobAndAnOpenCoverStopsTheScanner() throws {
        let device = scanner()
        let job = try device.createJob(settingsBody: settings("Feeder"), client: nil, now: 1).get()
        _ = try device.nextImage(job: job.uuid).get()
        device.set(.feederJam, true)
        #expect(device.nextImage(job: job.uuid).failure == .jammed)
        #expect(device.job(number: job.number)?.state == .aborted)
        #expect(device.job(number: job.number)?.reason == "ScannerAdfJam")
        #expect(device.status.state == .stopped && device.status.feederState == "ScannerAdfJam")
        device.set(.feederJam, false)
        device.set(.coverOpen, true)
        #expect(device.createJob(settingsBody: settings("Platen"), client: nil, now: 2).failure == .coverOpen)
        #expect(device.status.feederState == "ScannerAdfDoorOpen")
    }

    @Test func anImageThatCannotBeMadeAbortsTheJob() throws {
        let device = scanner()
        imaging.fails.store(true, ordering: .relaxed)
        let job = try device.createJob(settingsBody: settings("Platen"), client: nil, now: 1).get()
        guard case .failure(.imagingFailed(let why)) = device.nextImage(job: job.uuid) else {
            Issue.record("expected imagingFailed")
            return
        }
        #expect(why.contains("cannot be read"))
        #expect(device.job(number: job.number)?.state == .aborted)
    }

    @Test func settingsTheScannerDoesNotOfferAreRefusedWithWhy() {
        let device = scanner()
        guard
            case .failure(.invalidSettings(let why)) = device.createJob(
                settingsBody: settings("Platen", dpi: 1200), client: nil, now: 1)
        else {
            Issue.record("expected invalidSettings")
            return
        }
        #expect(why.contains("1200") && ScannerRefusal.invalidSettings(why).httpStatus == 409)
    }

    @Test func numbersFollowTheScansAlreadyOnDisk() throws {
        try FileManager.default.createDirectory(atPath: "\(folder)/scans/41", withIntermediateDirectories: true)
        let job = try scanner().createJob(settingsBody: settings("Platen"), client: nil, now: 1).get()
        #expect(job.number == 42)
    }
}

/// The capabilities the device tests scan with: A4 glass, a legal duplex feeder.
enum ScanSettingsFixture {
    static let capabilities = ScannerCapabilities(
        makeAndModel: "vprinter Office MFP", serialNumber: "VP-1", uuid: "9b2d8f4a-0000-4000-8000-000000000001",
        platen: .init(width: 2480, height: 3508), feeder: .init(width: 2550, height: 4200), duplex: true,
        feederCapacity: 50, resolutions: [75, 150, 300, 600], colorModes: [.blackAndWhite1, .grayscale8, .rgb24],
        formats: [.jpeg, .png, .pdf])
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
