import PrintModel
import Testing

/// What the render worker and Ghostscript inherit of the printer's environment (issue 21: everything, the API
/// token included).
@Suite struct WorkerEnvironmentTests {
    @Test func onlyWhatFindsProgramsFontsAndDataIsPassedOn() {
        let environment = [
            "PATH": "/usr/bin", "HOME": "/home/tester", "LANG": "C.UTF-8", "LC_ALL": "C", "TMPDIR": "/tmp",
            "VPRINTER_FONTCONFIG": "/etc/fonts.conf", "GS_LIB": "/usr/share/gs", "OMP_THREAD_LIMIT": "1",
            "TESSDATA_PREFIX": "/usr/share/tessdata",
            "VPRINTER_API_TOKEN": "secret", "VPRINTER_USER": "alice:pw", "AWS_SECRET_ACCESS_KEY": "k",
            "GITHUB_TOKEN": "t", "CI_JOB_TOKEN": "j", "http_proxy": "http://user:pw@proxy",
        ]
        let passed = WorkerEnvironment.filtered(environment)
        #expect(
            Set(passed.keys) == [
                "PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "VPRINTER_FONTCONFIG", "GS_LIB", "OMP_THREAD_LIMIT",
                "TESSDATA_PREFIX",
            ])
        #expect(WorkerEnvironment.entries(["PATH": "/bin", "VPRINTER_API_TOKEN": "x"]) == ["PATH=/bin"])
    }
}
