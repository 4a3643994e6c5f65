import IPP

extension PrinterProfile {
    /// The derived attributes adjusted for the profile's features (ProfileFeatures): page ranges and print scaling
    /// present or absent, and the attributes of job-password, job-storage and proof-print (PWG 5100.11).
    func applyingFeatures(to derived: [IPPAttribute]) -> [IPPAttribute] {
        var result = derived
        func set(_ attribute: IPPAttribute) {
            if let index = result.firstIndex(where: { $0.name == attribute.name }) {
                result[index] = attribute
            } else {
                result.append(attribute)
            }
        }
        func remove(_ name: String) { result.removeAll { $0.name == name } }
        var creation =
            result.first { $0.name == "job-creation-attributes-supported" }?.values.compactMap(\.stringValue)
            ?? []
        var features = result.first { $0.name == "ipp-features-supported" }?.values.compactMap(\.stringValue) ?? []
        var whichJobs = result.first { $0.name == "which-jobs-supported" }?.values.compactMap(\.stringValue) ?? []
        func offer(_ name: String, _ present: Bool) {
            creation.removeAll { $0 == name }
            if present { creation.append(name) }
        }

        set(IPPAttribute("page-ranges-supported", .boolean(self.features.pageRanges)))
        offer("page-ranges", self.features.pageRanges)
        if let scaling = self.features.printScaling, let scalingDefault = self.features.printScalingDefault {
            set(keywords("print-scaling-default", [scalingDefault]))
            set(keywords("print-scaling-supported", scaling))
        } else {
            remove("print-scaling-default")
            remove("print-scaling-supported")
        }
        offer("print-scaling", self.features.printScaling != nil)
        // A printer that prints one copy only still lists copies-supported 1-1 (it accepts copies=1).

        if let password = self.features.jobPassword {
            set(IPPAttribute("job-password-supported", .integer(password.supportedOctets)))
            set(keywords("job-password-encryption-supported", password.encryptions))
            set(IPPAttribute("job-password-length-supported", .rangeOfInteger(password.length)))
            set(keywords("job-password-repertoire-configured", [password.repertoire]))
            set(keywords("job-password-repertoire-supported", [password.repertoire]))
            offer("job-password", true)
            offer("job-password-encryption", true)
        }
        if let storage = self.features.jobStorage {
            var members = ["job-storage-access", "job-storage-disposition"]
            if !storage.groups.isEmpty { members.append("job-storage-group") }
            set(keywords("job-storage-supported", members))
            set(keywords("job-storage-access-supported", storage.access))
            set(keywords("job-storage-disposition-supported", storage.dispositions))
            if !storage.groups.isEmpty {
                set(IPPAttribute(name: "job-storage-group-supported", values: storage.groups.map { .name($0) }))
            }
            features.append("job-storage")
            // saved: the stored jobs that have printed, kept to print again (PWG 5100.11 section 5.3).
            whichJobs += ["saved"] + storage.access.map { "stored-\($0)" }
            offer("job-storage", true)
        }
        if let proof = self.features.proofPrint {
            set(keywords("proof-print-supported", ["media", "media-col", "proof-print-copies"]))
            set(IPPAttribute("proof-print-copies-supported", .rangeOfInteger(0...proof.maximumCopies)))
            set(IPPAttribute("proof-print-default", .outOfBand(.noValue)))
            features.append("proof-print")
            if !whichJobs.contains("proof-print") { whichJobs.append("proof-print") }
            offer("proof-print", true)
        }
        if self.features.documentURI {
            // Print-URI and Send-URI follow (Printer.implementationAttributes): ftp, http and https, never file:.
            set(
                IPPAttribute(
                    name: "reference-uri-schemes-supported", values: ["ftp", "http", "https"].map { .uriScheme($0) }))
        }
        if !creation.isEmpty { set(keywords("job-creation-attributes-supported", creation.sorted())) }
        if !features.isEmpty { set(keywords("ipp-features-supported", features)) }
        if !whichJobs.isEmpty { set(keywords("which-jobs-supported", whichJobs)) }
        return result
    }
}
