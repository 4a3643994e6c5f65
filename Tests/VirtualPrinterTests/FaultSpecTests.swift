import Foundation
import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// FaultSpec+JSON: every trigger and effect of docs/scenarios.md, every refusal with the key it names, and the
/// limits crossed.
@Suite struct FaultSpecTests {
    /// Parses JSON text the way the API and scenario files do.
    func parse(_ text: String) throws -> FaultSpec {
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        return try FaultSpec(json: object)
    }

    /// The error a JSON text gives, or nil when it parses.
    func error(_ text: String) -> FaultSpecError? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        else { return nil }
        do {
            _ = try FaultSpec(json: object)
            return nil
        } catch {
            return error
        }
    }

    /// The key path an error names.
    func path(_ text: String) -> String? {
        guard case .invalid(let path, _)? = error(text) else { return nil }
        return path
    }

    // MARK: Triggers

    @Test func missingTriggerMeansNow() throws {
        let spec = try parse(#"{"effect": {"add-reasons": ["door-open-error"]}}"#)
        #expect(spec.trigger == .now)
        #expect(spec.effect == .addReasons(["door-open-error"]))
        #expect(spec.clearAfter == nil && spec.name == nil)
    }

    @Test func everyTriggerParses() throws {
        let effect = #""effect": {"add-reasons": ["cover-open-report"]}"#
        #expect(try parse(#"{"trigger": "now", \#(effect)}"#).trigger == .now)
        #expect(try parse(#"{"trigger": {"after-jobs": 3}, \#(effect)}"#).trigger == .afterJobs(3))
        #expect(try parse(#"{"trigger": {"page": 2}, \#(effect)}"#).trigger == .atPage(2))
        #expect(try parse(#"{"trigger": {"after-seconds": 1.5}, \#(effect)}"#).trigger == .afterSeconds(1.5))
        #expect(try parse(#"{"trigger": {"after-seconds": 4}, \#(effect)}"#).trigger == .afterSeconds(4))
    }

    @Test func operationTriggerCountsOneRequestUnlessToldMore() throws {
        let once = try parse(#"{"trigger": {"operation": "Print-Job"}, "effect": {"delay": 1}}"#)
        #expect(once.trigger == .requests(operation: "Print-Job", count: 1))
        let many = try parse(#"{"trigger": {"operation": "any", "count": 7}, "effect": {"delay": 0.25}}"#)
        #expect(many.trigger == .requests(operation: "any", count: 7))
        #expect(many.effect == .delay(0.25))
    }

    @Test func nameAndClearAfterAreKept() throws {
        let spec = try parse(
            #"{"name": "jam", "trigger": {"page": 1}, "effect": {"add-reasons": ["media-jam-error"]}, "clear-after": 5}"#
        )
        #expect(spec.name == "jam")
        #expect(spec.clearAfter == 5)
    }

    // MARK: Effects

    @Test func everyPrinterEffectParses() throws {
        #expect(
            try parse(#"{"effect": {"remove-reasons": ["offline-report"]}}"#).effect
                == .removeReasons(["offline-report"]))
        #expect(
            try parse(#"{"effect": {"abort-job": "aborted-by-system", "message": "boom"}}"#).effect
                == .abortJob(reason: "aborted-by-system", message: "boom"))
        #expect(
            try parse(#"{"effect": {"abort-job": "aborted-by-system"}}"#).effect
                == .abortJob(reason: "aborted-by-system", message: "Aborted by a simulated fault."))
        #expect(
            try parse(#"{"effect": {"hold-job": "job-held-for-review"}}"#).effect
                == .holdJob(reason: "job-held-for-review"))
        #expect(
            try parse(#"{"effect": {"tray": {"source": "main", "level": 0}}}"#).effect
                == .setTray(source: "main", level: 0))
        #expect(try parse(#"{"effect": {"tray": {"level": 12}}}"#).effect == .setTray(source: nil, level: 12))
        #expect(
            try parse(#"{"effect": {"supply": {"index": 2, "level": 5}}}"#).effect == .setSupply(index: 2, level: 5))
        #expect(try parse(#"{"effect": {"supply": {"level": 0}}}"#).effect == .setSupply(index: nil, level: 0))
        #expect(try parse(#"{"effect": {"output-bin": {"level": 250}}}"#).effect == .setOutputBin(level: 250))
        #expect(try parse(#"{"effect": {"scanner-fault": "feeder-jam"}}"#).effect == .scannerFault(.feederJam))
    }

    @Test func everyRequestEffectParsesWithAnOperationTrigger() throws {
        let busy = try #require(IPPStatus(keyword: "server-error-busy"))
        let notPossible = try #require(IPPStatus(keyword: "client-error-not-possible"))
        let trigger = #""trigger": {"operation": "Get-Printer-Attributes"}"#
        #expect(
            try parse(#"{\#(trigger), "effect": {"status": "server-error-busy"}}"#).effect
                == .status(busy, message: "Simulated server-error-busy."))
        #expect(
            try parse(#"{\#(trigger), "effect": {"status": "client-error-not-possible", "message": "no"}}"#).effect
                == .status(notPossible, message: "no"))
        #expect(try parse(#"{\#(trigger), "effect": {"delay": 2}}"#).effect == .delay(2))
        #expect(
            try parse(#"{\#(trigger), "effect": {"close-connection": "before-response"}}"#).effect
                == .closeConnection(midResponse: false))
        #expect(
            try parse(#"{\#(trigger), "effect": {"close-connection": "mid-response"}}"#).effect
                == .closeConnection(midResponse: true))
        #expect(try parse(#"{\#(trigger), "effect": {"slow-read": 1024}}"#).effect == .slowRead(bytesPerSecond: 1024))
    }

    @Test func requestEffectsAreOnlyRequestEffects() throws {
        #expect(FaultEffect.delay(1).isRequestEffect)
        #expect(FaultEffect.slowRead(bytesPerSecond: 1).isRequestEffect)
        #expect(!FaultEffect.addReasons(["x"]).isRequestEffect)
        #expect(!FaultEffect.setTray(source: nil, level: 0).isRequestEffect)
    }

    // MARK: Errors name the key

    @Test func errorsNameTheKeyPath() {
        #expect(path(#"[1]"#) == "fault")
        #expect(path(#"{"effect": {"delay": 1}, "when": "now"}"#) == "fault.when")
        #expect(path(#"{"trigger": "now"}"#) == "fault.effect")
        #expect(path(#"{"trigger": "later", "effect": {"add-reasons": ["x"]}}"#) == "fault.trigger")
        #expect(path(#"{"trigger": {}, "effect": {"add-reasons": ["x"]}}"#) == "fault.trigger")
        #expect(path(#"{"trigger": {"pages": 2}, "effect": {"add-reasons": ["x"]}}"#) == "fault.trigger")
        #expect(
            path(#"{"trigger": {"after-jobs": -1}, "effect": {"add-reasons": ["x"]}}"#) == "fault.trigger.after-jobs")
        #expect(
            path(#"{"trigger": {"after-jobs": 1.5}, "effect": {"add-reasons": ["x"]}}"#) == "fault.trigger.after-jobs")
        #expect(path(#"{"trigger": {"page": 0}, "effect": {"add-reasons": ["x"]}}"#) == "fault.trigger.page")
        #expect(
            path(#"{"trigger": {"after-seconds": "1"}, "effect": {"add-reasons": ["x"]}}"#)
                == "fault.trigger.after-seconds")
        #expect(path(#"{"trigger": {"operation": "Print-Jobs"}, "effect": {"delay": 1}}"#) == "fault.trigger.operation")
        #expect(
            path(#"{"trigger": {"operation": "any", "count": 0}, "effect": {"delay": 1}}"#) == "fault.trigger.count")
        #expect(path(#"{"effect": "jam"}"#) == "fault.effect")
        #expect(path(#"{"effect": {}}"#) == "fault.effect")
        #expect(path(#"{"effect": {"explode": true}}"#) == "fault.effect")
        #expect(path(#"{"effect": {"add-reasons": []}}"#) == "fault.effect.add-reasons")
        #expect(path(#"{"effect": {"add-reasons": ["media jam"]}}"#) == "fault.effect.add-reasons")
        #expect(path(#"{"effect": {"remove-reasons": "offline-report"}}"#) == "fault.effect.remove-reasons")
        #expect(path(#"{"trigger": {"operation": "any"}, "effect": {"status": "oops"}}"#) == "fault.effect.status")
        #expect(
            path(#"{"trigger": {"operation": "any"}, "effect": {"close-connection": "later"}}"#)
                == "fault.effect.close-connection")
        #expect(path(#"{"trigger": {"operation": "any"}, "effect": {"slow-read": 0}}"#) == "fault.effect.slow-read")
        #expect(path(#"{"trigger": {"operation": "any"}, "effect": {"delay": -1}}"#) == "fault.effect.delay")
        #expect(path(#"{"effect": {"tray": {"source": "main"}}}"#) == "fault.effect.tray.level")
        #expect(path(#"{"effect": {"supply": {"index": 0, "level": 5}}}"#) == "fault.effect.supply.index")
        #expect(path(#"{"effect": {"supply": {"level": 101}}}"#) == "fault.effect.supply.level")
        #expect(path(#"{"effect": {"output-bin": {"level": -3}}}"#) == "fault.effect.output-bin.level")
        #expect(path(#"{"effect": {"add-reasons": ["x"]}, "clear-after": "soon"}"#) == "fault.clear-after")
        #expect(path(#"{"effect": {"scanner-fault": "jam"}}"#) == "fault.effect.scanner-fault")
        #expect(path(#"{"effect": {"scanner-fault": ["busy"]}}"#) == "fault.effect.scanner-fault")
    }

    @Test func requestEffectWithAPrinterTriggerIsRefusedAtTheTrigger() {
        #expect(path(#"{"effect": {"status": "server-error-busy"}}"#) == "fault.trigger")
        #expect(path(#"{"trigger": {"page": 1}, "effect": {"delay": 1}}"#) == "fault.trigger")
        #expect(
            path(#"{"trigger": {"after-jobs": 1}, "effect": {"close-connection": "mid-response"}}"#) == "fault.trigger")
    }

    @Test func errorDescriptionSaysKeyAndProblem() {
        let described = error(#"{"trigger": {"page": 0}, "effect": {"add-reasons": ["x"]}}"#)?.description ?? ""
        #expect(described.hasPrefix("fault.trigger.page: "))
        #expect(described.contains("1"))
    }

    // MARK: Limits

    @Test func secondsUpToTheLimitAreAcceptedAndBeyondRefused() {
        let limit = Int(FaultSpec.maximumSeconds)
        #expect(path(#"{"trigger": {"after-seconds": \#(limit)}, "effect": {"add-reasons": ["x"]}}"#) == nil)
        #expect(
            path(#"{"trigger": {"after-seconds": \#(limit + 1)}, "effect": {"add-reasons": ["x"]}}"#)
                == "fault.trigger.after-seconds")
        #expect(path(#"{"effect": {"add-reasons": ["x"]}, "clear-after": \#(limit)}"#) == nil)
        #expect(path(#"{"effect": {"add-reasons": ["x"]}, "clear-after": \#(limit).5}"#) == "fault.clear-after")
        #expect(path(#"{"trigger": {"operation": "any"}, "effect": {"delay": \#(limit + 1)}}"#) == "fault.effect.delay")
    }

    @Test func requestCountUpToTheLimitIsAcceptedAndBeyondRefused() {
        let limit = FaultSpec.maximumRequestCount
        #expect(path(#"{"trigger": {"operation": "any", "count": \#(limit)}, "effect": {"delay": 0}}"#) == nil)
        #expect(
            path(#"{"trigger": {"operation": "any", "count": \#(limit + 1)}, "effect": {"delay": 0}}"#)
                == "fault.trigger.count")
    }

    @Test func shippedScenariosAllLoad() throws {
        let folder = repositoryRoot.appendingPathComponent("scenarios").path
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".json") }
            .sorted()
        #expect(
            names == [
                "busy.json", "flaky-network.json", "offline.json", "out-of-paper.json", "paper-jam.json",
                "scanner-busy.json", "slow.json", "toner-low.json",
            ])
        for name in names {
            let scenario = try Scenario.load(file: folder + "/" + name)
            #expect(scenario.name + ".json" == name)
            #expect(!scenario.description.isEmpty)
            #expect(!scenario.faults.isEmpty)
        }
    }

    @Test func scenarioErrorsNameTheFaultIndex() throws {
        let object: [String: Any] = ["faults": [["effect": ["add-reasons": ["x"]]], ["effect": ["tray": [:]]]]]
        var caught: FaultSpecError?
        do { _ = try Scenario(json: object, fallbackName: "s") } catch { caught = error }
        #expect(caught.map(pathOf) == "faults[1].effect.tray.level")
        #expect(throws: FaultSpecError.self) { try Scenario(json: ["faults": [], "speed": "fast"], fallbackName: "s") }
        #expect(throws: FaultSpecError.self) { try Scenario(json: ["faults": [], "pace": 1], fallbackName: "s") }
        #expect(throws: FaultSpecError.self) {
            try Scenario(json: ["faults": [], "consumables": "some"], fallbackName: "s")
        }
        let plain = try Scenario(
            json: ["faults": [], "speed": "realistic", "consumables": "tracked"], fallbackName: "s")
        #expect(plain.name == "s" && plain.speed == .realistic && plain.tracksConsumables == true)
    }

    @Test func scenarioFileOverTheSizeLimitIsRefused() throws {
        let folder = try TemporaryFolder()
        let file = folder.path + "/big.json"
        let padding = String(repeating: " ", count: Scenario.maximumFileSize)
        try Data((#"{"faults": []}"# + padding).utf8).write(to: URL(fileURLWithPath: file))
        #expect(throws: FaultSpecError.self) { try Scenario.load(file: file) }
        let fits = folder.path + "/fits.json"
        try Data(#"{"faults": []}"#.utf8).write(to: URL(fileURLWithPath: fits))
        #expect(try Scenario.load(file: fits).name == "fits")
    }
}

/// The key path of a FaultSpecError, for comparing errors without their wording.
func pathOf(_ error: FaultSpecError) -> String {
    switch error {
    case .invalid(let path, _): path
    }
}
