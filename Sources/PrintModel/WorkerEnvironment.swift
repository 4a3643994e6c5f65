/// The environment the render worker gets from the printer, and Ghostscript from the worker: what they need to
/// find programs, libraries, fonts and OCR data, the temporary folder and the language, and nothing else of the
/// printer's, which may hold secrets (`VPRINTER_API_TOKEN`, a CI job's credentials). A document is untrusted input
/// to both.
public enum WorkerEnvironment {
    /// Variables passed on by name.
    public static let passedNames: Set<String> = [
        "PATH", "HOME", "TMPDIR", "TZ", "LANG", "LANGUAGE", "LD_LIBRARY_PATH", "FONTCONFIG_FILE", "FONTCONFIG_PATH",
        "TESSDATA_PREFIX", "VPRINTER_FONTCONFIG", "VPRINTER_GHOSTSCRIPT",
    ]
    /// Prefixes of variables passed on: the locale's, Ghostscript's own (`GS_LIB`, `GS_FONTPATH`) and OpenMP's
    /// (`OMP_THREAD_LIMIT`, which bounds the threads of OCR).
    public static let passedPrefixes = ["LC_", "GS_", "OMP_"]

    /// The variables of `environment` that a worker gets.
    public static func filtered(_ environment: [String: String]) -> [String: String] {
        environment.filter { name, _ in
            passedNames.contains(name) || passedPrefixes.contains { name.hasPrefix($0) }
        }
    }

    /// The same, as `NAME=value` strings, for posix_spawn.
    public static func entries(_ environment: [String: String]) -> [String] {
        filtered(environment).map { "\($0.key)=\($0.value)" }.sorted()
    }
}
