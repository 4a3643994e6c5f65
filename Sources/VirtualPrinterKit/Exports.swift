// The library product's surface, chosen on purpose: `import VirtualPrinterKit` gives a Swift test the embedded
// printer (EmbeddedPrinter), golden-file comparison (Snapshot) and the types their answers are made of; the rest
// of the printer stays behind the package boundary.
@_exported import enum ImageCheck.TolerantComparison
@_exported import struct PrintModel.DocumentFormat
@_exported import struct PrintModel.IgnoredAttribute
@_exported import struct PrintModel.InkCoverage
@_exported import enum PrintModel.JSONValue
@_exported import struct PrintModel.JobRecord
@_exported import enum PrintModel.JobState
@_exported import struct PrintModel.JobWarning
@_exported import struct PrintModel.PlacedPage
@_exported import struct PrintModel.PrintedSide
@_exported import struct PrintModel.SideFacts
@_exported import struct PrinterCore.JobQuery
@_exported import class PrinterCore.Printer
@_exported import struct PrinterCore.SideText
@_exported import struct RequestJournal.ClientFinding
@_exported import struct RequestJournal.ClientReport
@_exported import enum RequestJournal.ClientRule
@_exported import struct RequestJournal.ClientSummary
@_exported import struct RequestJournal.JournalEntry
@_exported import struct RequestJournal.JournaledAttribute
@_exported import struct RequestJournal.JournaledGroup
@_exported import struct RequestJournal.JournaledValue
@_exported import struct RequestJournal.NearMiss
@_exported import struct RequestJournal.RequestFilter
@_exported import struct RequestJournal.RequestMatcher
@_exported import struct RequestJournal.Verification
@_exported import struct RequestJournal.VerificationResult
