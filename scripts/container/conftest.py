"""Fixtures of the container image tests (scripts/container-test builds the image and sets the environment):
containers of the image started with podman, each removed after its test (its log kept in the artifacts,
$VP_ARTIFACTS/container/). The rest comes from the harness (scripts/harness/vptest) and the vprinter package.

Environment: VP_IMAGE (the image), VP_PODMAN (the podman command with the flags this machine needs),
VP_PODMAN_RUN_FLAGS (ulimits), VP_CONTAINER_KEEP (keep failed tests' containers).
"""
import os
import uuid

import pytest
import vprinter

from vptest import artifacts
from vptest.names import free_port
from vptest.podman import RUN_FLAGS, podman
from vptest.waiting import wait_until

IMAGE = os.environ.get("VP_IMAGE", "localhost/vprinter:test")
# Seconds a container may take to answer /readyz, and how often it is asked.
READY_TIMEOUT = 60
READY_INTERVAL = 0.2
# The image's user (Containerfile).
IMAGE_UID = 10001


class Container:
    """One running container of the image: ``client`` talks to it through the published or host port."""

    def __init__(self, name, port, output):
        self.name = name
        self.port = port
        self.output = output
        self.client = vprinter.Client("ipp://localhost:%d/ipp/print" % port)

    def logs(self):
        done = podman("logs", self.name, check=False)
        return done.stdout + done.stderr

    def wait_ready(self):
        def ready():
            if podman("inspect", "--format", "{{.State.Running}}", self.name, check=False).stdout.strip() == "false":
                raise AssertionError("container %s exited:\n%s" % (self.name, self.logs()))
            return self.client.readyz()[0]
        if not wait_until(ready, READY_TIMEOUT, READY_INTERVAL, ignore=(OSError,)):
            raise AssertionError("container %s was not ready within %d s:\n%s" % (self.name, READY_TIMEOUT,
                                                                                   self.logs()))


@pytest.fixture
def start_container(request, tmp_path):
    """Starts containers of the image: start_container(env={...}, host_network=False, extra=[...], user=None).
    The output folder is a fresh host folder bind-mounted at /output, owned by the container's user."""
    started = []

    def start(env=None, host_network=False, extra=(), user=None):
        name = "vprinter-test-%s" % uuid.uuid4().hex[:10]
        output = tmp_path / ("output-%d" % len(started))
        output.mkdir()
        uid = int(user.split(":")[0]) if user else IMAGE_UID
        os.chown(output, uid, uid)
        arguments = ["run", "-d", "--name", name, *RUN_FLAGS, "-v", "%s:/output" % output]
        environment = dict(env or {})
        port = free_port()
        if host_network:
            arguments += ["--network", "host"]
            environment["VPRINTER_PORT"] = str(port)
        else:
            arguments += ["-p", "127.0.0.1:%d:8631" % port]
        for key, value in environment.items():
            arguments += ["-e", "%s=%s" % (key, value)]
        if user:
            arguments += ["--user", user]
        arguments += [*extra, IMAGE]
        podman(*arguments)
        container = Container(name, port, output)
        started.append(container)
        container.wait_ready()
        return container

    yield start
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    for container in started:
        artifacts.write("%s-%s.log" % (request.node.name, container.name), container.logs())
        if failed and os.environ.get("VP_CONTAINER_KEEP"):
            continue
        podman("rm", "-f", "-t", "5", container.name, check=False)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Keeps each phase's report on the test (``rep_call``): start_container keeps a failed test's containers."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, "rep_" + report.when, report)
