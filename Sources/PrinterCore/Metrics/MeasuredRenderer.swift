import PrintModel

/// A renderer that records how long each job took to render (`vprinter_render_seconds`), then answers as the
/// renderer it wraps.
public struct MeasuredRenderer: JobRenderer {
    let inner: any JobRenderer
    let metrics: ServiceMetrics

    public init(_ inner: any JobRenderer, metrics: ServiceMetrics) {
        self.inner = inner
        self.metrics = metrics
    }

    public func render(
        _ job: RenderJob, password: String?, onImpression: @Sendable (PrintedSide) -> Void,
        onWarning: @Sendable (JobWarning) -> Void, isCanceled: @escaping @Sendable () -> Bool
    ) -> RenderOutcome {
        let started = ContinuousClock.now
        let outcome = inner.render(
            job, password: password, onImpression: onImpression, onWarning: onWarning, isCanceled: isCanceled)
        metrics.recordRender(seconds: (ContinuousClock.now - started).seconds)
        return outcome
    }

    public func recognizeText(folder: String, sides: [RenderRequest.Side]) -> TextRecognitionOutcome {
        inner.recognizeText(folder: folder, sides: sides)
    }

    /// The wrapped renderer's scanned images (a scan is not a render and is not timed as one).
    public var scanImaging: (any ScanImaging)? { inner.scanImaging }
}

extension Duration {
    /// The duration in seconds, as a Double.
    package var seconds: Double {
        let (whole, fraction) = components
        return Double(whole) + Double(fraction) / 1e18
    }
}
