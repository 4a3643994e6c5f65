/// The version `vprinter --version` prints: the repository's VERSION file, copied here by scripts/set-version
/// (the binary runs without the checkout). Tests/EndToEndTests/VersionTests.swift fails when the two differ.
enum Version {
    static let string = "0.2.0"
}
