import Foundation
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// The web page's job list: what its query string asks for, and the limits it keeps.
@Suite struct JobListTests {
    private func list(_ query: [(String, String)], fixedPrinter: String? = nil) -> JobList {
        JobList(query: query.map { (name: $0.0, value: $0.1) }, fixedPrinter: fixedPrinter)
    }

    @Test func theQueryStringNamesTheFiltersAndThePage() {
        let asked = list([("q", "Invoice 42"), ("text", "total"), ("state", "completed"), ("page", "3")])
        #expect(asked.search == "Invoice 42" && asked.text == "total" && asked.state == "completed")
        #expect(asked.page == 3 && asked.isFiltered)
        #expect(asked.queryString(page: 4) == "?q=Invoice%2042&text=total&state=completed&page=4")
        #expect(asked.queryString(page: 1) == "?q=Invoice%2042&text=total&state=completed")
        let empty = list([("q", ""), ("unknown", "x")])
        #expect(empty.search == nil && !empty.isFiltered && empty.queryString(page: 1) == "?")
    }

    @Test func aFrontPanelsPrinterIsNotAFilterOfItsLinks() {
        let panel = list([("printer", "other")], fixedPrinter: "office")
        #expect(panel.printer == "office" && panel.isPrinterFixed && !panel.isFiltered)
        #expect(panel.queryString(page: 2) == "?page=2")
        let home = list([("printer", "office")])
        #expect(home.isFiltered && home.queryString(page: 1) == "?printer=office")
    }

    @Test func pageNumbersAreKeptInRange() {
        #expect(list([("page", "0")]).page == 1)
        #expect(list([("page", "-5")]).page == 1)
        #expect(list([("page", "two")]).page == 1)
        #expect(list([("page", "\(JobList.maximumPage)")]).page == JobList.maximumPage)
        #expect(list([("page", "\(JobList.maximumPage + 1)")]).page == JobList.maximumPage)
        #expect(list([("page", "99999999999999999999999")]).page == 1)  // not an Int: the first page
    }

    @Test func aSearchIsCutToItsLimit() {
        let long = String(repeating: "é", count: JobList.maximumSearchLength + 10)
        #expect(list([("q", long)]).search?.count == JobList.maximumSearchLength)
        let exact = String(repeating: "a", count: JobList.maximumSearchLength)
        #expect(list([("q", exact)]).search == exact)
    }

    @Test func aBadStateIsTheFormsProblemNotATrap() {
        var bad = list([("state", "no-such-state")])
        let (jobs, total) = bad.select(from: [])
        #expect(jobs.isEmpty && total == 0)
        #expect(bad.problem != nil)
        var good = list([("state", "completed")])
        _ = good.select(from: [])
        #expect(good.problem == nil)
    }
}
