import PrintModel

extension RenderLimits {
    /// Throws when `value` is above `maximum`, naming the limit.
    @inline(__always)
    static func check(_ name: String, _ value: Int, _ maximum: Int) throws(RasterError) {
        if value > maximum { throw .limitExceeded(limit: name, value: value, maximum: maximum) }
    }
}
