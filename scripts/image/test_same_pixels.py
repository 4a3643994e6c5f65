"""The runtime stage prints what this machine prints (docs/snapshots.md): the test command's own binaries on the
Containerfile's runtime stage (target ``prebuilt``, built by scripts/image-test) render the font corpus
(vptest.font_corpus: fonts not embedded, embedded, Japanese, PostScript, PWG, JPEG) with the same pixels, side for
side, as the same binaries here, and with the same font substitutions."""
import os

from vptest.podman import RUN_FLAGS, assert_prints_as_here, podman

IMAGE = os.environ.get("VP_IMAGE", "localhost/vprinter:prebuilt")


def test_the_binaries_load_every_library_in_the_runtime_stage():
    done = podman("run", "--rm", "--network", "none", *RUN_FLAGS, "--entrypoint", "ldd", IMAGE,
                  "/usr/local/bin/vprinter", "/usr/local/bin/vprinter-render")
    assert "not found" not in done.stdout, done.stdout


def test_the_runtime_stage_prints_the_corpus_with_the_pixels_and_fonts_of_this_machine(tmp_path):
    assert_prints_as_here(IMAGE, os.environ["VPRINTER"], tmp_path)
