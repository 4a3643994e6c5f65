/// The version `vprinter --version` prints and the printer reports (printer-firmware-string-version).
enum Version {
    static let string = "0.1.0"
}
