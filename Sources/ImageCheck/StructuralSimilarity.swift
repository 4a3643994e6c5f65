/// The structural similarity index (SSIM; Wang, Bovik, Sheikh and Simoncelli, IEEE Trans. Image Processing 13(4),
/// 2004) of two gray images: the mean over 8 x 8 windows placed every 4 pixels, with the constants of the paper
/// (K1 = 0.01, K2 = 0.03, L = 255). Windows are summed from 4 x 4 blocks, so each pixel is read once.
enum StructuralSimilarity {
    /// Window size and step, in pixels.
    static let window = 8
    static let step = 4

    private static let c1 = (0.01 * 255) * (0.01 * 255)
    private static let c2 = (0.03 * 255) * (0.03 * 255)

    /// Sums over one block or window.
    private struct Sums {
        var a = 0
        var b = 0
        var squares = 0
        var cross = 0

        static func + (lhs: Sums, rhs: Sums) -> Sums {
            Sums(a: lhs.a + rhs.a, b: lhs.b + rhs.b, squares: lhs.squares + rhs.squares, cross: lhs.cross + rhs.cross)
        }
    }

    /// The mean SSIM of `a` and `b`, both `width` x `height` bytes; images smaller than a window are one window.
    static func mean(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int) -> Double {
        guard width > 0, height > 0 else { return 1 }
        guard width >= window, height >= window else {
            return a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    similarity(
                        sums(a, b, width: width, x: 0, y: 0, columns: width, rows: height), count: width * height)
                }
            }
        }
        let blockColumns = width / step
        let blockRows = height / step
        return a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var previous = (0..<blockColumns).map {
                    sums(a, b, width: width, x: $0 * step, y: 0, columns: step, rows: step)
                }
                var total = 0.0
                var windows = 0
                for row in 1..<blockRows {
                    let current = (0..<blockColumns).map {
                        sums(a, b, width: width, x: $0 * step, y: row * step, columns: step, rows: step)
                    }
                    for column in 1..<blockColumns {
                        let sum = previous[column - 1] + previous[column] + current[column - 1] + current[column]
                        total += similarity(sum, count: window * window)
                        windows += 1
                    }
                    previous = current
                }
                return windows == 0 ? 1 : total / Double(windows)
            }
        }
    }

    private static func sums(
        _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, width: Int, x: Int, y: Int, columns: Int,
        rows: Int
    ) -> Sums {
        var result = Sums()
        for row in y..<(y + rows) {
            for index in (row * width + x)..<(row * width + x + columns) {
                let p = Int(a[index])
                let q = Int(b[index])
                result.a += p
                result.b += q
                result.squares += p * p + q * q
                result.cross += p * q
            }
        }
        return result
    }

    private static func similarity(_ sums: Sums, count: Int) -> Double {
        let n = Double(count)
        let meanA = Double(sums.a) / n
        let meanB = Double(sums.b) / n
        let variances = Double(sums.squares) / n - meanA * meanA - meanB * meanB
        let covariance = Double(sums.cross) / n - meanA * meanB
        return ((2 * meanA * meanB + c1) * (2 * covariance + c2))
            / ((meanA * meanA + meanB * meanB + c1) * (variances + c2))
    }
}
