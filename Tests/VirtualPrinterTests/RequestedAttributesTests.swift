import IPP
import Testing

@testable import PrinterCore
@testable import PrinterHTTP
@testable import VirtualPrinterKit

/// RequestedAttributes (RFC 8011 section 4.2.5.1): groups, names, and media-col-database only when named.
@Suite struct RequestedAttributesTests {
    func requested(_ names: String...) -> RequestedAttributes {
        RequestedAttributes(IPPAttribute(name: "requested-attributes", values: names.map { .keyword($0) }))
    }

    @Test func absentMeansAllExceptMediaColDatabase() {
        let all = RequestedAttributes(nil)
        #expect(all.includes("printer-make-and-model"))
        #expect(all.includes("copies-supported"))
        #expect(!all.includes("media-col-database"))
    }

    @Test func mediaColDatabaseIsReturnedOnlyWhenNamed() {
        #expect(!requested("all").includes("media-col-database"))
        #expect(!requested("printer-description").includes("media-col-database"))
        #expect(!requested("job-template").includes("media-col-database"))
        #expect(requested("media-col-database").includes("media-col-database"))
        #expect(requested("all", "media-col-database").includes("media-col-database"))
    }

    @Test func jobTemplateGroupHoldsDefaultSupportedAndReadyForms() {
        let template = requested("job-template")
        #expect(template.includes("copies-default"))
        #expect(template.includes("sides-supported"))
        #expect(template.includes("media-col-ready"))
        #expect(template.includes("media-size-supported"))
        #expect(!template.includes("printer-name"))
        #expect(!template.includes("document-format-supported"))
    }

    @Test func printerDescriptionGroupHoldsTheRest() {
        let description = requested("printer-description")
        #expect(description.includes("printer-make-and-model"))
        #expect(description.includes("document-format-supported"))
        #expect(!description.includes("copies-default"))
        #expect(!description.includes("print-quality-supported"))
    }

    @Test func namedAttributesOnly() {
        let named = requested("printer-state", "copies-default")
        #expect(named.includes("printer-state"))
        #expect(named.includes("copies-default"))
        #expect(!named.includes("printer-name"))
        #expect(!named.includes("copies-supported"))
    }

    @Test func jobAttributeGroups() {
        let defaults = RequestedAttributes(nil, default: ["job-id", "job-uri"])
        #expect(defaults.includesJobAttribute("job-id"))
        #expect(!defaults.includesJobAttribute("job-state"))
        #expect(requested("job-template").includesJobAttribute("copies"))
        #expect(!requested("job-template").includesJobAttribute("job-state"))
        #expect(requested("job-description").includesJobAttribute("job-state"))
        #expect(!requested("job-description").includesJobAttribute("copies"))
        #expect(!requested("job-description").includes("printer-name"))
        #expect(requested("all").includesJobAttribute("job-state"))
    }
}
