import IPP

/// What only a client's series of requests shows, followed as the journal records them: polling faster than the
/// printer should be asked, and a Create-Job whose job never gets its document. Also each client's summary. The
/// journal follows its entries in batches, in the order of their numbers; what an entry is keyed by is worked out
/// on the request's thread, when it is recorded (`Observation`).
struct ClientActivity {
    /// Polls closer together than this, three in a row, are a finding (`--poll-interval`).
    let pollInterval: Double

    private var polls: [PollKey: PollRun] = [:]
    private var openJobs: [OpenJobKey: OpenJob] = [:]
    private var summaries: [ClientKey: Tracked] = [:]
    /// Requests of the clients whose summaries were let go (`maximumClients`).
    private(set) var untrackedRequests = 0
    /// The number of the latest entry observed: what a client's last activity is measured in.
    private var latest = 0

    /// A client's summary and the number of its latest entry.
    private struct Tracked {
        var summary: ClientSummary
        var lastActive: Int
    }

    init(pollInterval: Double) {
        self.pollInterval = pollInterval
    }

    /// The operations a client repeats to watch a printer or a job.
    static let pollingOperations: Set<String> = [
        IPPOperation.getJobs.description, IPPOperation.getJobAttributes.description,
        IPPOperation.getPrinterAttributes.description, IPPOperation.getNotifications.description,
    ]

    /// Fast polls in a row that make a finding: five requests, four short intervals. Fewer is no polling: CUPS's
    /// backend asks for the printer's state two or three times in a second as a job starts.
    static let fastPollsForFinding = 4
    /// The most polling series and open jobs followed at once, and the most clients summed up. Past the most, the
    /// least recently active polling series and clients are let go, `evictedShare` of them at a time (a client's
    /// requests then count in `untrackedRequests`), so that a flood of other clients never pushes out the client
    /// that goes on sending, and a new client is always followed; a Create-Job past the most open jobs is not
    /// followed, so that those followed keep their finding to come. Four times the 1,000 junk clients a scanner or
    /// a broken fleet sends: a client under test keeps its summary through them even when it is quiet meanwhile.
    static let maximumTracked = 10_000
    static let maximumClients = 4_096
    /// The share of the least recently active let go at once when a map is full: one sort for every so many new
    /// ones.
    static let evictedShare = 8

    /// A client on one printer, hashed once.
    struct ClientKey: Hashable {
        let printer: String?
        let address: String
        let userAgent: String?
        private let hash: Int

        init(printer: String?, address: String, userAgent: String?) {
            self.printer = printer
            self.address = address
            self.userAgent = userAgent
            var hasher = Hasher()
            hasher.combine(printer)
            hasher.combine(address)
            hasher.combine(userAgent)
            hash = hasher.finalize()
        }

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.hash == rhs.hash && lhs.address == rhs.address && lhs.userAgent == rhs.userAgent
                && lhs.printer == rhs.printer
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// A series of polls: one client asking the same thing of the same target (the same operation, job and
    /// operation attributes other than the request's own, such as requested-attributes and which-jobs; those are
    /// compared by their hash).
    struct PollKey: Hashable {
        let client: ClientKey
        let operation: String
        let jobID: Int?
        let question: Int
    }

    /// What `observe` needs of an entry, worked out on the request's thread.
    struct Observation {
        let client: ClientKey
        /// The entry's polling series, when it is a successful polling request (a refused request asked nothing
        /// the client could be watching).
        let poll: PollKey?

        init(_ entry: JournalEntry) {
            client = ClientKey(printer: entry.printer, address: entry.client.address, userAgent: entry.client.userAgent)
            guard let ipp = entry.ipp, ClientActivity.pollingOperations.contains(ipp.operation), ipp.statusCode < 0x0100
            else {
                poll = nil
                return
            }
            let question = ipp.requestGroups.hashOfFirstGroup(excluding: ClientActivity.unaskedAttributes)
            poll = PollKey(client: client, operation: ipp.operation, jobID: ipp.jobID, question: question)
        }
    }

    /// The operation attributes that vary from one request to the next without changing what is asked.
    static let unaskedAttributes: Set<String> = [
        "attributes-charset", "attributes-natural-language", "printer-uri", "job-uri", "job-id", "requesting-user-name",
    ]

    private struct PollRun {
        var last: Double
        var fast = 0
        var reported = false
    }

    private struct OpenJobKey: Hashable {
        var printer: String?
        var jobID: Int
    }

    private struct OpenJob {
        var entryID: Int
        var client: ClientKey
        var deadline: Double
        var timeout: Double
    }

    /// Follows a numbered entry as it goes into the ring: adds its polling finding, if its request is one poll too
    /// many, counts it for its client, and follows a Create-Job's job until its document comes (`openJobTimeout`
    /// is the printer's multiple-operation-time-out).
    mutating func observe(
        _ entry: inout JournalEntry, _ observation: Observation, now: Double, openJobTimeout: Double?
    ) {
        let client = observation.client
        latest = max(latest, entry.id)
        if let ipp = entry.ipp {
            if let key = observation.poll, let finding = poll(ipp, key: key, now: now) { entry.add([finding]) }
            follow(ipp, entryID: entry.id, client: client, now: now, openJobTimeout: openJobTimeout)
        }
        if summaries[client] == nil {
            if summaries.count >= Self.maximumClients {
                for evicted in Self.leastRecent(summaries, by: \.lastActive) {
                    untrackedRequests += summaries.removeValue(forKey: evicted)?.summary.requests ?? 0
                }
            }
            summaries[client] = Tracked(
                summary: ClientSummary(address: client.address, userAgent: client.userAgent, time: entry.time),
                lastActive: latest)
        }
        summaries[client]?.summary.count(entry)
        summaries[client]?.lastActive = latest
    }

    /// The keys of the `1 / evictedShare` least recently active values of a full map.
    private static func leastRecent<Key, Value, Order: Comparable>(
        _ map: [Key: Value], by order: (Value) -> Order
    ) -> [Key] {
        let count = max(1, map.count / evictedShare)
        return map.sorted { order($0.value) < order($1.value) }.prefix(count).map(\.key)
    }

    private mutating func poll(_ ipp: JournalEntry.IPPPart, key: PollKey, now: Double) -> ClientFinding? {
        guard var run = polls[key] else {
            if polls.count >= Self.maximumTracked {
                for evicted in Self.leastRecent(polls, by: \.last) { polls[evicted] = nil }
            }
            polls[key] = PollRun(last: now)
            return nil
        }
        let interval = now - run.last
        run.last = now
        if interval < pollInterval {
            run.fast += 1
        } else {
            run = PollRun(last: now)
        }
        var finding: ClientFinding?
        if run.fast >= Self.fastPollsForFinding && !run.reported {
            run.reported = true
            let target = ipp.jobID.map { "job \($0)" } ?? "the printer"
            finding = ClientFinding(
                .pollingRate,
                "\(ipp.operation) for \(target) \(run.fast + 1) times in a row, "
                    + "each less than \(Self.seconds(pollInterval)) after the one before (last: "
                    + "\(Self.seconds(interval)))")
        }
        polls[key] = run
        return finding
    }

    private mutating func follow(
        _ ipp: JournalEntry.IPPPart, entryID: Int, client: ClientKey, now: Double, openJobTimeout: Double?
    ) {
        guard let jobID = ipp.jobID else { return }
        let key = OpenJobKey(printer: client.printer, jobID: jobID)
        switch ipp.operation {
        case IPPOperation.createJob.description:
            guard let openJobTimeout, ipp.statusCode < 0x0100,
                openJobs.count < Self.maximumTracked || openJobs[key] != nil
            else { return }
            openJobs[key] = OpenJob(
                entryID: entryID, client: client, deadline: now + openJobTimeout, timeout: openJobTimeout)
        case IPPOperation.sendDocument.description, IPPOperation.sendURI.description,
            IPPOperation.closeJob.description, IPPOperation.cancelJob.description:
            openJobs[key] = nil
        default:
            break
        }
    }

    /// The Create-Jobs whose time for a document ran out by `now`: a finding for each one's entry, counted for its
    /// client. Each is reported once.
    mutating func overdueJobs(now: Double) -> [(entryID: Int, finding: ClientFinding)] {
        var overdue: [(Int, ClientFinding)] = []
        for (key, job) in openJobs where job.deadline <= now {
            openJobs[key] = nil
            let finding = ClientFinding(
                .createJobWithoutDocument,
                "Create-Job made job \(key.jobID), but no Send-Document, Send-URI or Close-Job followed within the "
                    + "printer's multiple-operation-time-out (\(Self.seconds(job.timeout)))")
            summaries[job.client]?.summary.count([finding], of: job.entryID)
            overdue.append((job.entryID, finding))
        }
        return overdue.sorted { $0.0 < $1.0 }
    }

    /// Each client's summary, across printers unless one is named.
    func report(printer: String?) -> ClientReport {
        var merged: [ClientKey: ClientSummary] = [:]
        for (key, tracked) in summaries where printer == nil || key.printer == printer {
            let summary = tracked.summary
            let client = ClientKey(printer: nil, address: key.address, userAgent: key.userAgent)
            if merged[client] == nil {
                merged[client] = summary
            } else {
                merged[client]?.merge(summary)
            }
        }
        let clients = merged.values.sorted {
            ($0.firstSeen, $0.address, $0.userAgent ?? "") < ($1.firstSeen, $1.address, $1.userAgent ?? "")
        }
        return ClientReport(clients: clients, untrackedRequests: untrackedRequests)
    }

    static func seconds(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? "\(Int(rounded)) s" : "\(rounded) s"
    }
}
