"""What a release ships (docs/releasing.md): the Debian package and tarball scripts/package makes (packed here from
the test build's binaries, so in seconds), one version in all of them, the image's label and the Python wheel, and
the GitHub workflows and action.yml against GitHub's schemas of workflow and action files."""
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


# The schemas of GitHub's workflow and action files (check-jsonschema's vendored copies of SchemaStore's), in the
# environment scripts/setup makes for them (scripts/requirements-lint.txt): they run everywhere setup ran, offline.
LINT_VENV = pathlib.Path(os.environ.get("VP_LINT_VENV") or REPO / ".venv-lint")


def schema_check(schema, *paths):
    program = LINT_VENV / "bin" / "check-jsonschema"
    assert program.exists(), "%s is missing: scripts/setup makes it (scripts/requirements-lint.txt)" % program
    return subprocess.run([str(program), "--no-cache", "--builtin-schema", schema, *map(str, paths)],
                          capture_output=True, text=True, timeout=120)


def test_the_workflows_and_the_action_follow_github_s_schemas():
    workflows = sorted((REPO / ".github/workflows").glob("*.yml"))
    assert {path.name for path in workflows} >= {"ci.yml", "release.yml"}
    done = schema_check("vendor.github-workflows", *workflows)
    assert done.returncode == 0, done.stdout + done.stderr
    done = schema_check("vendor.github-actions", REPO / "action.yml")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_schema_check_reports_a_job_without_runs_on_and_an_action_input_of_a_wrong_shape(tmp_path):
    workflow = (REPO / ".github/workflows/ci.yml").read_text()
    broken = tmp_path / "ci.yml"
    broken.write_text(workflow.replace("runs-on:", "runs-in:", 1))
    done = schema_check("vendor.github-workflows", broken)
    assert done.returncode == 1 and "jobs" in done.stdout, done.stdout + done.stderr
    action = tmp_path / "action.yml"
    action.write_text((REPO / "action.yml").read_text().replace("runs:", "run:", 1))
    done = schema_check("vendor.github-actions", action)
    assert done.returncode == 1, done.stdout + done.stderr


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
