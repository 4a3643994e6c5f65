"""The runtime stage prints what this machine prints (docs/snapshots.md): the test command's own binaries on the
Containerfile's runtime stage (target ``prebuilt``, built by scripts/image-test) render the font corpus
(vptest.font_corpus: fonts not embedded, embedded, Japanese, PostScript, PWG, JPEG) with the same pixels, side for
side, as the same binaries here, and with the same font substitutions."""
import os

from vptest import font_corpus
from vptest.podman import PODMAN, RUN_FLAGS, podman

IMAGE = os.environ.get("VP_IMAGE", "localhost/vprinter:prebuilt")


def in_image(*mounts):
    """The command that runs ``vprinter`` in a fresh container of the image, without network, with ``mounts``
    (folders of this machine) at the same paths."""
    volumes = [argument for folder in mounts for argument in ("-v", "%s:%s" % (folder, folder))]
    return [*PODMAN, "run", "--rm", "--network", "none", "--no-healthcheck", "--user", "root", *RUN_FLAGS, *volumes,
            IMAGE]


def test_the_binaries_load_every_library_in_the_runtime_stage():
    done = podman("run", "--rm", "--network", "none", *RUN_FLAGS, "--entrypoint", "ldd", IMAGE,
                  "/usr/local/bin/vprinter", "/usr/local/bin/vprinter-render")
    assert "not found" not in done.stdout, done.stdout


def test_the_runtime_stage_prints_the_corpus_with_the_pixels_and_fonts_of_this_machine(tmp_path):
    corpus = tmp_path / "corpus"
    font_corpus.write(corpus)
    for name in os.listdir(corpus):
        os.chmod(corpus / name, 0o644)
    here = font_corpus.render([os.environ["VPRINTER"]], corpus, tmp_path / "here")
    image_out = tmp_path / "image"
    image_out.mkdir()
    there = font_corpus.render(in_image(corpus, image_out), corpus, image_out)
    assert there == here, "the font substitutions differ:\nimage: %s\nhere:  %s" % (there, here)
    assert not any("the machine's fonts" in text for text in there.values()), there
    differing = font_corpus.differences(os.environ["VPRINTER"], image_out, tmp_path / "here")
    assert not differing, "sides the image prints differently:\n" + "\n".join(differing)
