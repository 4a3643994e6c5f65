"""podman as the image tests run it (scripts/lib/container-image.sh chooses the flags this machine needs and passes
them in the environment): VP_PODMAN (the command with its flags) and VP_PODMAN_RUN_FLAGS (ulimits)."""
import os
import shlex
import subprocess

from . import font_corpus

PODMAN = shlex.split(os.environ.get("VP_PODMAN", "podman"))
RUN_FLAGS = shlex.split(os.environ.get("VP_PODMAN_RUN_FLAGS", ""))


def podman(*arguments, check=True, timeout=120):
    """Runs podman; returns the finished process (stdout and stderr as text)."""
    done = subprocess.run([*PODMAN, *arguments], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError("podman %s: status %d: %s" % (" ".join(arguments), done.returncode,
                                                           done.stderr.strip()[-2000:]))
    return done


def vprinter_command(image, *folders):
    """The command that runs the image's ``vprinter`` in a fresh container, without network or health check, as
    root (so that it writes into this machine's folders), with ``folders`` of this machine at the same paths."""
    volumes = [argument for folder in folders for argument in ("-v", "%s:%s" % (folder, folder))]
    return [*PODMAN, "run", "--rm", "--network", "none", "--no-healthcheck", "--user", "root", *RUN_FLAGS, *volumes,
            image]


def assert_prints_as_here(image, binary, folder):
    """The font corpus (vptest.font_corpus), written into ``folder``, printed by the image and by ``binary`` on
    this machine: the same font substitutions, all by vprinter's own font configuration, and every side identical
    (PSNR inf)."""
    corpus, here_out, image_out = folder / "corpus", folder / "here", folder / "image"
    font_corpus.write(corpus)
    here = font_corpus.render([binary], corpus, here_out)
    image_out.mkdir()
    there = font_corpus.render(vprinter_command(image, corpus, image_out), corpus, image_out)
    assert there == here, "the font substitutions differ:\nimage: %s\nhere:  %s" % (there, here)
    assert not any("the machine's fonts" in text for text in there.values()), there
    differing = font_corpus.differences(binary, image_out, here_out)
    assert not differing, "sides the image prints differently:\n" + "\n".join(differing)
