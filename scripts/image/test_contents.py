"""The Containerfile's stages hold what vprinter needs, checked against this machine's own build (docs/testing.md,
"The image guard"): the build stage every -dev package Package.swift names, the runtime stage every library the
built binaries load, every program the render worker starts, the OCR data and the fonts of fonts/fonts.conf. A
package removed from either stage fails a test here, in seconds, without building the image."""
import glob
import os
import shutil
import subprocess

import pytest

from containerfile import IMAGE_STAGE, package_swift_providers, setup_packages, stage_packages
from vptest.paths import REPO

# The programs the render worker starts (Sources/Rasterizer/GhostscriptProcess.swift).
WORKER_PROGRAMS = ("gs",)
# The language data the worker's OCR loads by default (Sources/Rasterizer/SideTextRecognition.swift: English).
OCR_DATA = "eng.traineddata"


def owner(path):
    """The Debian package that installed ``path`` (dpkg -S), trying it as given, under /usr and resolved, as merged
    /usr makes one file reachable by several names."""
    candidates = [path, "/usr" + path if not path.startswith("/usr/") else path[len("/usr"):], os.path.realpath(path)]
    for candidate in candidates:
        done = subprocess.run(["dpkg", "-S", candidate], capture_output=True, text=True)
        if done.returncode == 0:
            return done.stdout.split(":", 1)[0].strip()
    raise AssertionError("no Debian package installed %s" % path)


def closure(packages):
    """``packages`` and everything they depend on (apt-cache depends --recurse, no recommends), plus the packages
    every Debian 12 base has (priority required), which the slim base holds."""
    done = subprocess.run(["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts",
                           "--no-breaks", "--no-replaces", "--no-enhances", *sorted(packages)],
                          capture_output=True, text=True, check=True)
    found = {line.strip() for line in done.stdout.splitlines() if line and not line[0].isspace()}
    required = subprocess.run(["dpkg-query", "-W", "-f", "${Package} ${Priority}\n"], capture_output=True,
                              text=True, check=True).stdout
    found |= {line.split()[0] for line in required.splitlines() if line.endswith(" required")}
    return {name.split(":")[0] for name in found}


@pytest.fixture(scope="module")
def stages():
    found = stage_packages()
    assert {"build", "runtime", IMAGE_STAGE} <= set(found), "Containerfile stages: %s" % sorted(found)
    return found


@pytest.fixture(scope="module")
def runtime(stages):
    return closure(stages["runtime"])


def built_binaries():
    folder = os.path.dirname(os.environ["VPRINTER"])
    return [os.path.join(folder, name) for name in ("vprinter", "vprinter-render")]


def test_the_build_stage_and_setup_have_every_package_that_package_swift_names(stages):
    providers = package_swift_providers()
    assert providers, "Package.swift names no apt providers"
    assert not providers - stages["build"], "the build stage lacks %s" % sorted(providers - stages["build"])
    assert not providers - setup_packages(), "scripts/setup lacks %s" % sorted(providers - setup_packages())


def test_the_runtime_stage_has_every_library_the_built_binaries_load(runtime):
    toolchain = os.path.dirname(os.path.dirname(os.path.realpath(shutil.which("swift"))))
    needed = {}
    for binary in built_binaries():
        output = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
        assert "not found" not in output, output
        for line in output.splitlines():
            path = line.split("=>", 1)[1].split("(")[0].strip() if "=>" in line else ""
            # The Swift runtime: linked statically into the image's release binaries.
            if path.startswith("/") and not os.path.realpath(path).startswith(os.path.dirname(toolchain)):
                needed.setdefault(owner(path), set()).add(os.path.basename(path))
    missing = {package: sorted(libraries) for package, libraries in needed.items() if package not in runtime}
    assert not missing, "the runtime stage lacks the packages of these libraries: %s" % missing


def test_the_runtime_stage_has_the_programs_the_worker_starts_and_its_ocr_data(stages, runtime):
    for program in WORKER_PROGRAMS:
        path = shutil.which(program)
        assert path, "%s is not installed here" % program
        assert owner(path) in runtime, "the runtime stage lacks %s (%s)" % (owner(path), program)
    data = glob.glob("/usr/share/tesseract-ocr/*/tessdata/" + OCR_DATA)
    assert data, "no %s here" % OCR_DATA
    # Data that nothing depends on: the stage must name the package itself.
    assert owner(data[0]) in stages["runtime"], "the runtime stage lacks %s (%s)" % (owner(data[0]), OCR_DATA)


def test_the_runtime_stage_and_setup_install_exactly_the_fonts_of_fonts_conf(stages):
    listed = subprocess.run(["fc-list", "--format", "%{file}\n"], capture_output=True, text=True, check=True,
                            env=dict(os.environ, FONTCONFIG_FILE=str(REPO / "fonts" / "fonts.conf"))).stdout
    files = sorted(set(listed.split()))
    assert len(files) >= 60, "fonts.conf finds only %d fonts here: %s" % (len(files), files)
    packages = {owner(path) for path in files}
    assert not packages - stages["runtime"], "the runtime stage lacks %s" % sorted(packages - stages["runtime"])
    assert not packages - setup_packages(), "scripts/setup lacks %s" % sorted(packages - setup_packages())
    fonts = {name for name in stages["runtime"] if name.startswith("fonts-")}
    assert fonts == packages, "the runtime stage installs fonts fonts.conf does not use: %s" % sorted(
        fonts - packages)
