"""What the Containerfile and scripts/setup install, read from the files themselves: the Debian packages of each
stage's ``apt-get install`` and of setup's PACKAGES list, and the apt providers of Package.swift's system-library
targets."""
import re

from vptest.paths import REPO

CONTAINERFILE = REPO / "Containerfile"
# The Containerfile's last stage: the image users run.
IMAGE_STAGE = "image"


def instructions(text):
    """The Containerfile's instructions, continuation lines joined and comments left out, as (keyword, rest)."""
    joined = re.sub(r"\\\n", " ", "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#")))
    found = []
    for line in joined.splitlines():
        if line.strip():
            keyword, _, rest = line.strip().partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def stage_packages(path=CONTAINERFILE):
    """{stage name: set of packages its ``apt-get install`` lines name}; a stage without a name is ``""``."""
    stages = {}
    name = None
    for keyword, rest in instructions(path.read_text()):
        if keyword == "FROM":
            words = rest.split()
            name = words[2] if len(words) >= 3 and words[1].upper() == "AS" else ""
            stages[name] = set()
        elif keyword == "RUN" and name is not None:
            for command in rest.split("&&"):
                words = command.split()
                if "install" in words and any(word.endswith("apt-get") for word in words):
                    after = words[words.index("install") + 1:]
                    stages[name] |= {word for word in after if not word.startswith("-") and "=" not in word}
    return stages


def setup_packages(path=REPO / "scripts" / "setup"):
    """The packages of scripts/setup's PACKAGES and CONTAINER_PACKAGES arrays (comments left out); of a need given
    as alternatives ('a|b', the first the system offers), every alternative."""
    text = path.read_text()
    packages = set()
    # A list over several lines ends with a line that is ")" alone (comments in it hold parentheses); a one-line list
    # at its ")".
    arrays = re.findall(r"^readonly (?:PACKAGES|CONTAINER_PACKAGES)=\(\n(.*?)\n\)$", text, re.S | re.M)
    arrays += re.findall(r"^readonly (?:PACKAGES|CONTAINER_PACKAGES)=\(([^\n]+)\)$", text, re.M)
    for array in arrays:
        for line in array.splitlines():
            for need in line.split("#", 1)[0].split():
                packages |= set(need.strip("'\"").split("|"))
    return packages


def package_swift_providers(path=REPO / "Package.swift"):
    """The Debian packages Package.swift's system-library targets name as their apt providers."""
    return {name for group in re.findall(r"\.apt\(\[([^\]]*)\]\)", path.read_text())
            for name in re.findall(r'"([^"]+)"', group)}
