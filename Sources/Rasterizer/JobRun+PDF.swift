import Dispatch
import PrintModel
import Synchronization

extension JobRun {
    /// A side of a PDF document: the pages to place on it.
    private struct Plan: Sendable {
        var impression: Imposer.Impression
        var placements: [Imposer.Placement]
    }

    /// Renders the selected pages of a PDF document. Sides the document fills completely render in parallel (one
    /// at a time when a sheet is larger than `SideWriter.overlapLimitBytes`), each thread with its own copy of the
    /// document; a side shared with the previous or next document (with
    /// `single-document`) is drawn on this thread.
    ///
    /// With `textLayer` false (PCLm: pages of raster strips) the sides' text is left to OCR instead of Poppler.
    /// With `pressProfile` DeviceCMYK is drawn through the press profile (``PDFDefaultCMYK``), from a copy of the
    /// document in the job's folder that goes at the end.
    func renderPDF(_ path: String, document number: Int, textLayer: Bool = true, pressProfile: Bool = true)
        throws(RasterError) -> Int
    {
        let colorManaged = pressProfile ? PDFDefaultCMYK.colorManagedCopy(of: path, in: folder) : nil
        // The copy's file lives as long as the value: to the end of the render, not only to the last use of it.
        defer { withExtendedLifetime(colorManaged) {} }
        let path = colorManaged?.path ?? path
        let messages = PopplerMessages(log: warnings, document: number)
        defer { messages.stop() }
        let document = try PDFDocument(path: path, password: ticket.password, limits: limits)
        for font in document.substitutedFonts() { warnings.report(font.warning(document: number)) }
        var continuing: [Imposer.Placement] = []
        var plans: [Plan] = []
        for index in 0..<document.pageCount where ticket.selects(page: index + 1) {
            let size = try document.pageSize(index)
            let (placement, started) = imposer.place(
                document: number, page: index + 1, width: size.width, height: size.height, kind: .document)
            if let started {
                plans.append(Plan(impression: started, placements: []))
            } else if plans.isEmpty {
                continuing.append(placement)
                continue
            }
            plans[plans.count - 1].placements.append(placement)
            try countPage()
        }
        // Pages that complete the side left open by the previous document.
        for placement in continuing {
            guard let open else { break }
            try countPage()
            try Self.draw(document, placement, on: open, textLayer: textLayer)
        }
        if !plans.isEmpty { try flush() }
        // A last side with free cells stays open for the next document.
        var last: Plan?
        if imposer.isSideOpen, ticket.multipleDocumentHandling == .singleDocument { last = plans.popLast() }
        try renderInParallel(plans, path: path, textLayer: textLayer, messages: messages)
        if let last {
            let impression = try OpenImpression(last.impression)
            for placement in last.placements {
                try Self.draw(document, placement, on: impression, textLayer: textLayer)
            }
            open = impression
        }
        return document.pageCount
    }

    /// Renders a placed PDF page on a side, with the text of the part of it that the side shows (none with
    /// `textLayer` false).
    static func draw(
        _ document: PDFDocument, _ placement: Imposer.Placement, on impression: OpenImpression, textLayer: Bool
    ) throws(RasterError) {
        let text =
            textLayer
            ? try document.text(placement.page - 1, area: placement.transform.visiblePageArea(in: placement.clip))
            : nil
        try impression.draw(placement, text: text) { (context) throws(RasterError) in
            try document.render(placement.page - 1, context: context)
        }
    }

    /// Renders the sides of `plans` on `threads` threads, each reporting Poppler's messages to `messages`.
    private func renderInParallel(_ plans: [Plan], path: String, textLayer: Bool, messages: PopplerMessages)
        throws(RasterError)
    {
        guard let first = plans.first else { return }
        let emitter = ImpressionEmitter(first: first.impression.number, deliver: onImpression)
        let failure = Mutex<RasterError?>(nil)
        // Sheets too large to overlap with the writer's (`SideWriter.overlapLimitBytes`) are drawn one at a time.
        let oneAtATime = SheetCanvas.byteCount(of: first.impression.geometry) > SideWriter.overlapLimitBytes
        let (folder, ticket, limits) = (folder, ticket, limits)
        let threads = oneAtATime ? 1 : min(threads, plans.count)
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            messages.collecting {
                do throws(RasterError) {
                    let copy = try PDFDocument(path: path, password: ticket.password, limits: limits)
                    for index in stride(from: thread, to: plans.count, by: threads) {
                        if failure.withLock({ $0 != nil }) { return }
                        let impression = try OpenImpression(plans[index].impression)
                        for placement in plans[index].placements {
                            try Self.draw(copy, placement, on: impression, textLayer: textLayer)
                        }
                        emitter.finished(try impression.write(folder: folder, ticket: ticket))
                    }
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }
}
