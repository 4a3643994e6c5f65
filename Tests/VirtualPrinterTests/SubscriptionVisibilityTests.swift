import IPP
import Testing

@testable import PrinterCore

/// Under --user, subscriptions and their events show a user only their own (issue 21: a user's printer
/// subscription heard of every user's jobs, and Get-Subscriptions listed everyone's); admins see all.
@Suite struct SubscriptionVisibilityTests {
    static let access = AccessControl(
        users: [("alice", "alice"), ("bob", "bob")], admins: ["alice"], allowsPlainCredentials: false)

    @Test func aUserHearsOfTheirOwnJobsAndSeesTheirOwnSubscriptions() throws {
        let printer = try SubscriptionTestPrinter(access: Self.access)
        let bobs = try printer.subscribe(["job-created"], user: "bob")
        let alices = try printer.subscribe(["job-created"], user: "alice")
        let aliceJob = try printer.createJob(user: "alice")
        let bobJob = try printer.createJob(user: "bob")
        func jobs(heardBy subscription: Int, user: String) throws -> [Int] {
            try printer.notifications([subscription], user: user).groups
                .filter { $0.tag == .eventNotificationAttributes }
                .compactMap { $0["notify-job-id"]?.value?.integerValue.map(Int.init) }
        }
        #expect(try jobs(heardBy: bobs, user: "bob") == [bobJob])
        #expect(try jobs(heardBy: alices, user: "alice") == [aliceJob, bobJob])
        let bobsList = try printer.send(.getSubscriptions, [IPPAttribute("requesting-user-name", .name("bob"))])
        #expect(bobsList.subscriptionIDs == [bobs])
        let alicesList = try printer.send(.getSubscriptions, [IPPAttribute("requesting-user-name", .name("alice"))])
        #expect(Set(alicesList.subscriptionIDs) == [bobs, alices])
        let other = try printer.send(
            .getSubscriptionAttributes,
            [
                IPPAttribute("requesting-user-name", .name("bob")),
                IPPAttribute("notify-subscription-id", .integer(Int32(alices))),
            ])
        #expect(other.status == .clientErrorNotFound)
        let own = try printer.send(
            .getSubscriptionAttributes,
            [
                IPPAttribute("requesting-user-name", .name("bob")),
                IPPAttribute("notify-subscription-id", .integer(Int32(bobs))),
            ])
        #expect(own.status == .successfulOK)
    }
}
