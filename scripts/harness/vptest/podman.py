"""podman as the image tests run it (scripts/lib/container-image.sh chooses the flags this machine needs and passes
them in the environment): VP_PODMAN (the command with its flags) and VP_PODMAN_RUN_FLAGS (ulimits)."""
import os
import shlex
import subprocess

PODMAN = shlex.split(os.environ.get("VP_PODMAN", "podman"))
RUN_FLAGS = shlex.split(os.environ.get("VP_PODMAN_RUN_FLAGS", ""))


def podman(*arguments, check=True, timeout=120):
    """Runs podman; returns the finished process (stdout and stderr as text)."""
    done = subprocess.run([*PODMAN, *arguments], capture_output=True, text=True, timeout=timeout)
    if check and done.returncode != 0:
        raise AssertionError("podman %s: status %d: %s" % (" ".join(arguments), done.returncode,
                                                           done.stderr.strip()[-2000:]))
    return done
