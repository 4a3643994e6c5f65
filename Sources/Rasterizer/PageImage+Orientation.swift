
extension PageImage {
    /// The image turned upright for an EXIF orientation value (1 = already upright, 2...8 mirror and rotate).
    func oriented(_ orientation: Int) -> PageImage {
        guard (2...8).contains(orientation) else { return self }
        let swaps = orientation >= 5
        var result = PageImage(
            width: swaps ? height : width, height: swaps ? width : height, isGray: isGray,
            resolutionX: swaps ? resolutionY : resolutionX, resolutionY: swaps ? resolutionX : resolutionY)
        let channels = self.channels
        for y in 0..<result.height {
            for x in 0..<result.width {
                // The source pixel that lands on (x, y) of the upright image.
                let (sx, sy): (Int, Int)
                switch orientation {
                case 2: (sx, sy) = (width - 1 - x, y)
                case 3: (sx, sy) = (width - 1 - x, height - 1 - y)
                case 4: (sx, sy) = (x, height - 1 - y)
                case 5: (sx, sy) = (y, x)
                case 6: (sx, sy) = (y, height - 1 - x)
                case 7: (sx, sy) = (width - 1 - y, height - 1 - x)
                default: (sx, sy) = (width - 1 - y, x)
                }
                let from = (sy * width + sx) * channels
                let to = (y * result.width + x) * channels
                for c in 0..<channels { result.pixels[to + c] = pixels[from + c] }
            }
        }
        return result
    }
}
