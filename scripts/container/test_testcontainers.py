"""The Python package's Testcontainers module (vprinter.testcontainers.VprinterContainer) on the image, driven by the
testcontainers package through podman's Docker-compatible socket (`podman system service`), as a CI job with Docker
or podman uses it: the container starts, is ready, and its client prints a job, reads it back and resets the jobs
(an API change from outside the container, with the module's token)."""
import os
import subprocess
import time

import docker
import pytest
from testcontainers.core.config import ConnectionMode, testcontainers_config

from vprinter.testcontainers import VprinterContainer
from vptest.documents import SAMPLE_PDF
from vptest.podman import PODMAN, RUN_FLAGS

IMAGE = os.environ.get("VP_IMAGE", "localhost/vprinter:test")
# Seconds podman's API socket may take to appear, and a job to end.
SOCKET_LIMIT = 30
JOB_LIMIT = 120


@pytest.fixture(scope="module")
def docker_socket(tmp_path_factory):
    """podman's Docker-compatible API on a socket of its own, with the podman flags this machine needs;
    DOCKER_HOST names it for testcontainers. Ryuk (Testcontainers' reaper, an image pulled from a registry) is off:
    no registry is reachable here, and the module's containers are stopped by the `with` block."""
    socket = tmp_path_factory.mktemp("podman") / "docker.sock"
    service = subprocess.Popen([*PODMAN, "system", "service", "--time=0", "unix://%s" % socket],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + SOCKET_LIMIT
    while not socket.exists():
        assert service.poll() is None, "podman system service exited: %s" % service.stderr.read()
        assert time.monotonic() < deadline, "podman system service made no socket in %d s" % SOCKET_LIMIT
        time.sleep(0.1)
    saved = {name: os.environ.get(name) for name in ("DOCKER_HOST", "TESTCONTAINERS_RYUK_DISABLED")}
    os.environ.update(DOCKER_HOST="unix://%s" % socket, TESTCONTAINERS_RYUK_DISABLED="true")
    # This machine has a /.dockerenv, so Testcontainers takes itself to run inside a container and would reach the
    # container through its network's gateway, which it finds in a field podman's API does not list (HostConfig of
    # the container list). The engine runs on this machine: its published ports are reached as on any host
    # (TESTCONTAINERS_CONNECTION_MODE=docker_host, read when testcontainers is imported, so set here directly).
    saved_mode = testcontainers_config.connection_mode_override
    testcontainers_config.connection_mode_override = ConnectionMode.docker_host
    yield socket
    testcontainers_config.connection_mode_override = saved_mode
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    service.terminate()
    service.wait(timeout=30)


def run_ulimits():
    """The --ulimit flags podman needs here (VP_PODMAN_RUN_FLAGS), as the Docker SDK takes them."""
    limits = []
    for flag, value in zip(RUN_FLAGS, RUN_FLAGS[1:]):
        if flag == "--ulimit":
            name, bounds = value.split("=")
            soft, hard = bounds.split(":")
            limits.append(docker.types.Ulimit(name=name, soft=int(soft), hard=int(hard)))
    return limits


def test_the_testcontainers_module_starts_the_image_and_prints_a_job(docker_socket):
    container = VprinterContainer(IMAGE, profile="color-inkjet", options={"render-dpi": 72}, ulimits=run_ulimits())
    with container as printer:
        client = printer.get_client()
        assert printer.get_printer_uri() == client.uri
        assert client.printer_record()["printer-name"] == "vprinter color-inkjet"
        job_id = client.print_file(SAMPLE_PDF, job_name="from testcontainers")
        [record] = client.wait(1, timeout=JOB_LIMIT)
        assert (record["job-id"], record["job-name"], record["job-state"]) == (job_id, "from testcontainers",
                                                                              "completed")
        assert record["impressions"], record
        # A change through the API from outside the container: the module's token is what lets it through.
        client.reset()
        assert client.jobs() == []
    # The container is gone after the block.
    with pytest.raises(docker.errors.NotFound):
        docker.from_env().containers.get(container.get_wrapped_container().id)
