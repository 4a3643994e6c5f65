import CPoppler
import Dispatch
import Foundation
import PrintModel
import Synchronization
import Testing

@testable import Rasterizer

/// PopplerMessages: Poppler's messages (GLib log domain `Poppler`, one handler for the whole process) go to the
/// collector of the thread that logged them, so that two documents read at once on two threads, as two jobs or two
/// test suites do, each get their own.
@Suite struct PopplerMessagesTests {
    /// Logs `message` to the `Poppler` domain, as poppler-glib does.
    private static func logAsPoppler(_ message: String) {
        message.withCString { text in
            withVaList([text]) { arguments in g_logv("Poppler", G_LOG_LEVEL_WARNING, "%s", arguments) }
        }
    }

    /// Runs `body` on a thread of its own and returns once it ended.
    private static func onThread(_ body: @escaping @Sendable () -> Void) -> DispatchSemaphore {
        let ended = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            body()
            ended.signal()
        }
        return ended
    }

    @Test func messagesGoToTheCollectorOfTheThreadThatLoggedThem() {
        let received = Mutex<[JobWarning]>([])
        let log = WarningLog { warning in received.withLock { $0.append(warning) } }
        let firstReady = DispatchSemaphore(value: 0)
        let secondReady = DispatchSemaphore(value: 0)
        let sideDone = DispatchSemaphore(value: 0)
        let collectors = Mutex<PopplerMessages?>(nil)
        // Both collectors exist before either thread logs: a handler per collector gave both messages to the one
        // made last.
        let first = Self.onThread {
            let messages = PopplerMessages(log: log, document: 1)
            collectors.withLock { $0 = messages }
            firstReady.signal()
            secondReady.wait()
            Self.logAsPoppler("Syntax Error: from document 1")
            // Held until a side of document 1 was read on a third thread.
            sideDone.wait()
            messages.stop()
        }
        let second = Self.onThread {
            firstReady.wait()
            let messages = PopplerMessages(log: log, document: 2)
            secondReady.signal()
            Self.logAsPoppler("Syntax Error: from document 2")
            messages.stop()
        }
        second.wait()
        let side = Self.onThread {
            guard let messages = collectors.withLock({ $0 }) else { return }
            messages.collecting { Self.logAsPoppler("Syntax Error: a side of document 1") }
            // After `collecting`, this thread has no collector: the message goes to nobody.
            Self.logAsPoppler("Syntax Error: logged on a thread without a collector")
        }
        side.wait()
        sideDone.signal()
        first.wait()
        let byDocument = Dictionary(grouping: received.withLock { $0 }, by: { $0.document ?? 0 })
        #expect(
            byDocument[1]?.map(\.message).sorted() == [
                "Syntax Error: a side of document 1", "Syntax Error: from document 1",
            ])
        #expect(byDocument[2]?.map(\.message) == ["Syntax Error: from document 2"])
        #expect(byDocument.count == 2, "\(byDocument)")
    }
}
