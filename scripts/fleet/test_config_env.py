"""Configuration: VPRINTER_* variables for every option, --config files, what wins, and the
JSON Schema of docs/config.md checked against the shipped examples."""
import json
import os
import re

import jsonschema
import pytest
from vprinter import ipp

from vptest.names import unique
from vptest.paths import DOCS, REPO
from vptest.printer import run_vprinter

SCHEMA = json.loads((DOCS / "config.schema.json").read_text())
EXAMPLES = sorted((REPO / "examples" / "config").glob("*.json"))


def run(*arguments, env=None):
    """Runs vprinter to completion (usage errors); returns (exit status, stderr)."""
    status, _, stderr = run_vprinter(*arguments, env=env)
    return status, stderr


def printer_names(printer):
    return [entry["printer-name"] for entry in printer.checked("GET", "/api/v1/printers")]


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda path: path.name)
def test_every_shipped_config_example_is_valid_by_the_schema_and_starts(start_printer, example):
    config = json.loads(example.read_text())
    jsonschema.Draft7Validator(SCHEMA).validate(config)
    names = [printer["name"] for printer in config["printers"]]
    running = start_printer("--config", str(example))
    assert printer_names(running) == names
    # (No IPP request here: the examples' scenarios break connections and answer errors on purpose.)
    assert [uri.rsplit("/", 1)[1] for uri in running.uris] == names


@pytest.mark.parametrize("config, schema_refuses", [
    ({"printers": [{"name": "x", "colour": "red"}]}, True),
    ({"printers": [{"name": "x", "port": 70000}]}, True),
    ({"printers": [{"name": "x", "options": {"render-workers": 2}}]}, True),
    ({"printers": "desk"}, True),
    ({"render-workers": "many"}, True),
    ({"port": [1, 2]}, True),
    ({"no-such-option": 1}, False),  # the schema lets options it does not list through; vprinter knows them all
])
def test_the_schema_and_vprinter_refuse_a_bad_config(config, schema_refuses, tmp_path):
    if schema_refuses:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.Draft7Validator(SCHEMA).validate(config)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(config))
    status, stderr = run("--config", str(path), "--port", "0", "--no-dnssd", "--output-dir", str(tmp_path / "out"))
    assert status == 2, stderr
    assert "config %s" % path in stderr


def test_a_config_gives_printers_own_ports_scenarios_and_options_and_process_options(start_printer, tmp_path):
    names = [unique("cfg-a"), unique("cfg-b")]
    config = {
        "printers": [
            {"name": names[0], "profile": "color-inkjet", "port": 0, "scenario": "out-of-paper"},
            {"name": names[1], "options": {"max-jobs": 3, "speed": "instant"}},
        ],
        "render-workers": 1, "no-render": True,
    }
    (tmp_path / "fleet.json").write_text(json.dumps(config))
    running = start_printer("--config", str(tmp_path / "fleet.json"))
    printers = {p["printer-name"]: p for p in running.checked("GET", "/api/v1/printers")}
    assert list(printers) == names
    own = printers[names[0]]["port"]
    main = int(running.uris[1].split("/")[2].rsplit(":", 1)[1])
    assert own != main
    assert running.uris == ["ipp://localhost:%d/ipp/print/%s" % (own, names[0]),
                            "ipp://localhost:%d/ipp/print/%s" % (main, names[1])]
    assert any(reason.startswith("media-empty") for reason in printers[names[0]]["printer-state-reasons"])
    # Every port serves every printer's path; the printer answers on its own.
    assert running.ipp(ipp.GET_PRINTER_ATTRIBUTES, uri=running.uris[0]).status == ipp.SUCCESSFUL_OK


def test_a_config_string_is_one_value_and_a_list_gives_several(start_printer, tmp_path):
    """In a config file a string is one value, commas and all (a password may hold one); several values of a
    repeatable option are a JSON list. (In a VPRINTER_* variable, where no list can be written, commas separate.)"""
    (tmp_path / "one.json").write_text(json.dumps({"profile": "duplex-laser,color-inkjet"}))
    status, stderr = run("--config", str(tmp_path / "one.json"), "--port", "0", "--no-dnssd",
                         "--output-dir", str(tmp_path / "out"))
    assert status != 0 and "duplex-laser,color-inkjet" in stderr, stderr
    (tmp_path / "two.json").write_text(json.dumps({"profile": ["duplex-laser", "color-inkjet"]}))
    running = start_printer("--config", str(tmp_path / "two.json"))
    assert len(running.uris) == 2 and len(printer_names(running)) == 2


def test_environment_variables_set_options_and_the_command_line_wins(start_printer, tmp_path):
    from_env = tmp_path / "from-env"
    env = {"VPRINTER_PROFILE": "duplex-laser,color-inkjet", "VPRINTER_NAME": "env name, with a comma",
           "VPRINTER_NO_RENDER": "1", "VPRINTER_MAX_JOBS": "7", "VPRINTER_OUTPUT_DIR": str(from_env)}
    running = start_printer(env=env)  # the harness passes --output-dir itself: the command line wins
    assert printer_names(running) == ["env name, with a comma duplex-laser", "env name, with a comma color-inkjet"]
    assert not from_env.exists()
    assert os.path.isdir(running.output_dir)
    # A repeatable option on the command line replaces the variable's list; -p is --profile.
    running = start_printer("-p", "color-inkjet", env={"VPRINTER_PROFILE": "duplex-laser,duplex-laser"})
    assert printer_names(running) == ["vprinter color-inkjet"]


def test_a_switch_variable_set_to_0_is_off_and_the_environment_beats_the_config_file(start_printer, tmp_path):
    (tmp_path / "c.json").write_text(json.dumps({"printers": [{"name": "from-config"}], "name": "ignored"}))
    running = start_printer("--config", str(tmp_path / "c.json"), env={"VPRINTER_NO_RENDER": "0"})
    assert printer_names(running) == ["from-config"]
    # VPRINTER_CONFIG names the file too.
    running = start_printer(env={"VPRINTER_CONFIG": str(tmp_path / "c.json")})
    assert printer_names(running) == ["from-config"]


@pytest.mark.parametrize("variable, value, message", [
    ("VPRINTER_PORT", "eighty", "VPRINTER_PORT: --port needs a number"),
    ("VPRINTER_NO_DNSSD", "maybe", "VPRINTER_NO_DNSSD: --no-dnssd is a switch"),
    ("VPRINTER_SPEED", "warp", "VPRINTER_SPEED: --speed is instant or realistic"),
    # Options read one by one are still checked together: an admin needs users, users need TLS.
    ("VPRINTER_ADMIN", "boss", "--admin names a user of --user or --users"),
    ("VPRINTER_USER", "boss:secret", "--user sends passwords over TLS"),
])
def test_a_bad_variable_is_a_usage_error_naming_it(variable, value, message):
    status, stderr = run("--no-dnssd", env={variable: value})
    assert status == 2 and message in stderr, stderr


def test_an_unknown_variable_is_ignored_with_a_warning():
    status, stderr = run("--version", env={"VPRINTER_NO_SUCH_OPTION": "1"})
    assert status == 0
    assert "VPRINTER_NO_SUCH_OPTION names no option" in stderr


def test_the_schema_names_every_option_of_vprinter_run():
    """The schema lets unknown keys through (vprinter checks them), so its list of options must not fall behind
    the parser's: every option of `vprinter --help` is a property, TLS and credentials included."""
    _, help_text, _ = run_vprinter("--help")
    section = help_text.split("\noptions:\n", 1)[1].split("\n\n", 1)[0]
    options = set()
    for line in section.splitlines():
        # An option's own line starts "  --name ARG  description"; a line indented further continues a description,
        # and an option named inside a description ("an ipptool --ippserver file") is not one of vprinter run's.
        if not re.match(r"^ {1,4}--", line):
            continue
        names = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        options.update(word[2:] for word in names.split() if word.startswith("--") and len(word) > 2)
    assert {"tls", "tls-only", "user", "users", "admin"} <= options, section
    # A config file cannot name another; --version is not a setting.
    missing = sorted(options - set(SCHEMA["properties"]) - {"config", "version"})
    assert not missing, "docs/config.schema.json lacks %s" % missing
