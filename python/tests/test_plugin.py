"""The pytest plugin as a user's test suite sees it, run through pytester: the fixture, the marker and the fixture
parameter, golden updates, the report of a failing test, a printer that dies, and a missing binary."""
import os
import subprocess
import time

import pytest

from conftest import plugin_entry_points

# Seconds a stopped printer's DNS-SD service may take to disappear from avahi-browse.
WITHDRAW_TIMEOUT = 10


def test_the_plugin_is_loaded_through_its_entry_point(request):
    assert [entry.value for entry in plugin_entry_points()] == ["vprinter.pytest_plugin"]
    assert request.config.pluginmanager.get_plugin("vprinter") is not None


def test_the_fixture_gives_a_ready_printer_that_is_stopped_after_the_test(pytester):
    pytester.makepyfile("""
        import os, vprinter
        from vprinter import documents

        SEEN = {}

        def test_print(vprinter):
            assert vprinter.uri.startswith("ipp://localhost:")
            assert vprinter.readyz()[0]
            assert "--no-dnssd" in vprinter.command
            assert os.path.isdir(vprinter.output_dir)
            vprinter.print_file(documents.pdf(["fixture"]), copies=2)
            [job] = vprinter.wait(1)
            assert job["attributes"]["copies"] == 2
            assert "fixture" in vprinter.text(job)
            SEEN["process"] = vprinter.process

        def test_after(vprinter):
            assert SEEN["process"].poll() == 0, "the first test's printer was stopped cleanly"
            assert vprinter.jobs() == [], "each test gets its own printer"
    """)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


def test_the_marker_picks_profile_name_scenario_and_options(pytester):
    pytester.makepyfile("""
        import pytest

        pytestmark = pytest.mark.vprinter("duplex-laser", name="module-level")

        def test_module_marker(vprinter):
            assert vprinter.name == "module-level"
            assert "duplex-laser" in vprinter.command

        @pytest.mark.vprinter("color-inkjet", scenario="toner-low", args=["--render-dpi", "72"])
        def test_closest_marker_wins(vprinter):
            assert "color-inkjet" in vprinter.command
            assert vprinter.name == "module-level", "options the closer marker does not give stay"
            assert "toner-low" in vprinter.command and "72" in vprinter.command
            reasons = vprinter.printer_record()["printer-state-reasons"]
            assert any(reason.startswith("marker-supply-low") or reason.startswith("toner-low")
                       for reason in reasons), reasons
    """)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=2)


def test_an_indirect_parameter_runs_the_test_against_each_profile(pytester):
    pytester.makepyfile("""
        import pytest

        @pytest.mark.parametrize("vprinter", ["duplex-laser", {"profile": "color-inkjet", "name": "photo"}],
                                 indirect=True)
        def test_each(vprinter):
            record = vprinter.printer_record()
            assert record["printer-name"] in ("vprinter duplex-laser", "photo")
    """)
    result = pytester.runpytest("-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*test_each?duplex-laser?*PASSED*", "*test_each?vprinter1?*PASSED*"])


def test_the_factory_starts_more_printers_in_one_test(pytester):
    pytester.makepyfile("""
        def test_two(vprinter_factory):
            first = vprinter_factory(profile="duplex-laser")
            second = vprinter_factory(profile="color-inkjet", name="second")
            assert first.uri != second.uri
            assert second.name == "second"
    """)
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)


def test_an_unknown_marker_option_is_a_usage_error(pytester):
    pytester.makepyfile("""
        import pytest

        @pytest.mark.vprinter(profle="color-inkjet")
        def test_typo(vprinter):
            pass
    """)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*unknown option profle*"])


def test_a_failing_test_reports_the_printers_log(pytester):
    pytester.makepyfile("""
        def test_fails(vprinter):
            assert vprinter.jobs() == ["something"]
    """)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*vprinter ipp://localhost:*/ipp/print (output *)*", "*ready at ipp://*"])


def test_a_printer_that_dies_during_the_test_is_an_error_of_the_test(pytester):
    pytester.makepyfile("""
        import os, signal

        def test_dies(vprinter):
            os.kill(vprinter.process.pid, signal.SIGKILL)
            vprinter.process.wait()
    """)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, errors=1)
    result.stdout.fnmatch_lines(["*exited by itself with status -9 during the test*"])


def test_a_bad_profile_fails_the_setup_with_the_printers_own_message(pytester):
    pytester.makepyfile("""
        import pytest

        @pytest.mark.vprinter("no-such-profile")
        def test_never_runs(vprinter):
            pass
    """)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*exited with status 1 before it was ready*", "*no-such-profile*"])


def test_without_a_binary_the_error_says_where_it_was_looked_for(pytester, monkeypatch):
    monkeypatch.delenv("VPRINTER_BIN", raising=False)
    monkeypatch.setenv("PATH", str(pytester.path))
    pytester.makepyfile("""
        def test_needs_printer(vprinter):
            pass
    """)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*no vprinter binary: put vprinter on PATH or set VPRINTER_BIN*"])


def test_the_binary_option_wins_over_the_environment(pytester, monkeypatch):
    binary = os.environ.get("VPRINTER_BIN")
    monkeypatch.setenv("VPRINTER_BIN", str(pytester.path / "not-a-binary"))
    pytester.makepyfile("""
        def test_runs(vprinter):
            assert vprinter.livez()
    """)
    if binary:
        pytester.runpytest("-p", "no:cacheprovider", "--vprinter-bin", binary).assert_outcomes(passed=1)
    result = pytester.runpytest("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*not-a-binary* is not an executable file*"])


def test_golden_files_fail_until_updated_then_pass(pytester):
    # In subprocesses: each run imports the test module afresh, with assertion rewriting, as a user's run does.
    pytester.makepyfile("""
        import pathlib
        from vprinter import documents

        GOLDEN = pathlib.Path(__file__).parent / "golden" / "invoice"

        def test_snapshot(vprinter):
            vprinter.print_file(documents.pdf(["Invoice 42", "Page two"]))
            [job] = vprinter.wait(1)
            result = vprinter.compare(job, GOLDEN)
            assert result
    """)
    first = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    first.assert_outcomes(failed=1)
    first.stdout.fnmatch_lines(["*CompareResult(passed=False*side 1*FAIL*has no expected side*"])
    pytester.runpytest_subprocess("-p", "no:cacheprovider", "--vprinter-update-goldens").assert_outcomes(passed=1)
    assert sorted(path.name for path in (pytester.path / "golden" / "invoice").iterdir()) == [
        "page-0001.png", "page-0002.png"]
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)


@pytest.mark.vprinter("color-inkjet", name="marked-in-this-suite")
def test_the_marker_works_on_this_suites_own_tests(vprinter):
    assert vprinter.name == "marked-in-this-suite"
    vprinter.fault(add_reasons=["door-open-error"])
    assert "door-open-error" in vprinter.printer_record()["printer-state-reasons"]


def test_a_running_printer_is_used_and_reset_between_tests(pytester, tmp_path):
    import vprinter
    with vprinter.start(work_dir=tmp_path) as service:
        service.print_file(vprinter.documents.pdf(["left from before"]))
        service.wait(1)
        pytester.makepyfile("""
            import pytest
            from vprinter import documents

            def test_first(vprinter):
                assert vprinter.jobs() == [], "jobs from before the test were reset"
                vprinter.print_file(documents.pdf(["first"]))
                assert vprinter.wait(1)[0]["job-state"] == "completed"
                # An error reason stops the printer: left in place, it would stop the next test's jobs.
                vprinter.fault(add_reasons=["door-open-error"])
                assert "door-open-error" in vprinter.printer_record()["printer-state-reasons"]

            def test_second(vprinter):
                assert vprinter.jobs() == []
                assert "door-open-error" not in vprinter.printer_record()["printer-state-reasons"]

            @pytest.mark.vprinter("color-inkjet")
            def test_own_printer(vprinter):
                assert vprinter.name.startswith("pytest-")
                vprinter.print_file(documents.pdf(["on my own printer"]))
                [job] = vprinter.wait(1)
                assert job["printer-name"] == vprinter.name
                assert "own printer" in vprinter.text(job)
        """)
        result = pytester.runpytest("-p", "no:cacheprovider", "--vprinter-url", service.base_url)
        result.assert_outcomes(passed=3)
        assert [entry["printer-name"] for entry in service.printers()] == [service.name], \
            "the runtime printer was deleted after its test"
        assert service.process.poll() is None

        pytester.makepyfile(test_args="""
            import pytest

            @pytest.mark.vprinter(args=["--render-dpi", "72"])
            def test_args(vprinter):
                pass
        """)
        result = pytester.runpytest("-p", "no:cacheprovider", "--vprinter-url", service.base_url, "test_args.py")
        result.assert_outcomes(errors=1)
        result.stdout.fnmatch_lines(["*args cannot be given to the running printer*"])


def test_a_running_printer_that_does_not_answer_is_a_clear_error(pytester):
    pytester.makepyfile("""
        import pytest

        @pytest.mark.vprinter(timeout=2)
        def test_needs_service(vprinter):
            pass
    """)
    result = pytester.runpytest("-p", "no:cacheprovider", "--vprinter-url", "http://127.0.0.1:9",
                                "-o", "console_output_style=classic")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*the vprinter at http://127.0.0.1:9 was not ready within 2 s*"])


def test_dnssd_true_advertises_the_printer_until_it_stops(pytester):
    # Through the Avahi daemon on loopback that scripts/python-test makes reachable (DBUS_SYSTEM_BUS_ADDRESS).
    # No spaces: avahi-browse -p escapes them (\032).
    name = "pytest-dnssd-%d" % os.getpid()
    pytester.makepyfile("""
        import subprocess
        import pytest

        @pytest.mark.vprinter(name=%r, dnssd=True)
        def test_advertised(vprinter):
            assert "--no-dnssd" not in vprinter.command
            # Ready (GET /readyz) means advertised: the service is there at once. Not resolved (-r): on a link
            # crowded with other tests' printers, resolving every one takes longer than this test may.
            done = subprocess.run(["avahi-browse", "-tp", "_ipp._tcp"], capture_output=True, text=True,
                                  timeout=30)
            names = [line.split(";")[3] for line in done.stdout.splitlines() if line.startswith("+;")]
            assert vprinter.name in names
    """ % name)
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1)
    # Withdrawn at once by our daemon; a daemon of another test on the link may take a moment to see the goodbye.
    deadline = time.monotonic() + WITHDRAW_TIMEOUT
    while True:
        done = subprocess.run(["avahi-browse", "-tp", "_ipp._tcp"], capture_output=True, text=True, timeout=30)
        stayed = [line for line in done.stdout.splitlines() if line.split(";")[3:4] == [name]]
        if not stayed or time.monotonic() >= deadline:
            break
        time.sleep(0.5)
    assert not stayed, "the service stayed after the printer stopped"
