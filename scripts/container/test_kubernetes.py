"""deploy/kubernetes/ run by `podman kube play` with the image: the Deployment's pod answers /readyz and prints a
job onto its volume; and three pods made from the fleet's StatefulSet (podman plays no StatefulSet: each pod is its
template with the name the StatefulSet would give it), each serving its slice of a 3,000-printer config, answer
Get-Printer-Attributes for printers of every slice, and one pod's API lists all three slices (--peers).

podman here needs what container-test found for `podman run` (VP_PODMAN_RUN_FLAGS): kube play takes no ulimit
flags, so the same limits go to it as containers.conf's default_ulimits (CONTAINERS_CONF)."""
import copy
import json
import os
import pathlib
import subprocess
import uuid

import pytest
import vprinter
import yaml
from vprinter import ipp

from vptest.documents import SAMPLE_PDF
from vptest.paths import REPO
from vptest.podman import PODMAN, RUN_FLAGS, podman
from vptest.waiting import wait_until

IMAGE = os.environ.get("VP_IMAGE", "localhost/vprinter:test")
MANIFESTS = REPO / "deploy" / "kubernetes"
# Seconds a pod may take to answer /readyz (a 1,000-printer slice starts in about a second), and a job to end.
READY_LIMIT = 120
JOB_LIMIT = 120
FLEET_PRINTERS = 3000
SLICES = 3
# Printers asked of each slice.
SAMPLED = 5


def documents(path):
    return [document for document in yaml.safe_load_all(path.read_text()) if document]


@pytest.fixture
def kube(tmp_path):
    """play(documents) runs Kubernetes documents with `podman kube play` (on `network` when given, with static
    `addresses`), and returns each pod's address; every pod, volume and network made is removed afterwards."""
    conf = tmp_path / "containers.conf"
    limits = [value for flag, value in zip(RUN_FLAGS, RUN_FLAGS[1:]) if flag == "--ulimit"]
    conf.write_text("[containers]\ndefault_ulimits = %s\n" % json.dumps(limits))
    played, networks, pods = [], [], []

    def kube_podman(*arguments, check=True):
        done = subprocess.run([*PODMAN, *arguments], capture_output=True, text=True, timeout=300,
                              env=dict(os.environ, CONTAINERS_CONF=str(conf)))
        if check and done.returncode != 0:
            raise AssertionError("podman %s: %s" % (" ".join(arguments[:2]), (done.stdout + done.stderr)[-3000:]))
        return done

    def play(docs, network=None, addresses=()):
        path = tmp_path / ("play-%s.yaml" % uuid.uuid4().hex[:8])
        path.write_text(yaml.safe_dump_all(docs))
        played.append(path)
        options = (["--network", network] if network else []) + [argument for address in addresses
                                                                for argument in ("--ip", address)]
        # podman names a Deployment's (one) pod NAME-pod-0.
        named = {doc["metadata"]["name"]: doc["metadata"]["name"] + ("-pod-0" if doc["kind"] == "Deployment" else "")
                 for doc in docs if doc["kind"] in ("Pod", "Deployment")}
        pods.extend(named.values())
        kube_podman("kube", "play", *options, str(path))
        found = {}
        for name, pod in named.items():
            infra = podman("pod", "inspect", "--format", "{{.InfraContainerID}}", pod).stdout.strip()
            found[name] = podman(
                "inspect", "--format", "{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}", infra).stdout.strip()
        return found

    def network(name, subnet):
        podman("network", "create", "--subnet", subnet, name)
        networks.append(name)
        return name

    play.network = network
    yield play
    for path in played:
        kube_podman("kube", "down", str(path), check=False)
    for pod in pods:
        podman("pod", "rm", "-f", pod, check=False)
    for doc in [doc for path in played for doc in documents(path)]:
        if doc["kind"] == "PersistentVolumeClaim":
            podman("volume", "rm", "-f", doc["metadata"]["name"], check=False)
    for name in networks:
        podman("network", "rm", "-f", name, check=False)


def with_image(document):
    document = copy.deepcopy(document)
    for container in document["spec"]["template"]["spec"]["containers"]:
        container["image"] = IMAGE
    return document


def wait_ready(address, container):
    """A client of the pod at ``address`` once it answers /readyz; fails with its container's log."""
    client = vprinter.Client("http://%s:8631" % address)
    if not wait_until(lambda: client.readyz()[0], READY_LIMIT, 0.5, ignore=(OSError,)):
        done = podman("logs", container, check=False)
        raise AssertionError("the pod at %s was not ready within %d s; %s's log:\n%s" % (
            address, READY_LIMIT, container, (done.stdout + done.stderr)[-3000:]))
    return client


def test_podman_kube_play_runs_the_deployment_and_it_prints_onto_its_volume(kube):
    docs = [with_image(doc) if doc["kind"] == "Deployment" else doc for doc in documents(MANIFESTS / "printer.yaml")]
    # A volume name of this test's own, so that nothing of another run is found in it.
    claim = "vprinter-output-%s" % uuid.uuid4().hex[:8]
    for doc in docs:
        if doc["kind"] == "PersistentVolumeClaim":
            doc["metadata"]["name"] = claim
        if doc["kind"] == "Deployment":
            doc["spec"]["template"]["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"] = claim
    addresses = kube(docs)
    client = wait_ready(addresses["vprinter"], "vprinter-pod-0-vprinter")
    job_id = client.print_file(SAMPLE_PDF, job_name="kube play")
    [record] = client.wait(1, timeout=JOB_LIMIT)
    assert (record["job-id"], record["job-state"]) == (job_id, "completed")
    # The record and the page are in the claim's volume.
    mountpoint = podman("volume", "inspect", "--format", "{{.Mountpoint}}", claim).stdout.strip()
    folder = pathlib.Path(mountpoint) / "jobs" / str(job_id)
    assert (folder / "job.json").is_file() and (folder / "page-0001.png").is_file()


def test_three_pods_serve_their_slices_of_a_3000_printer_fleet_and_one_lists_them_all(kube):
    fleet = documents(MANIFESTS / "fleet.yaml")
    statefulset = next(doc for doc in fleet if doc["kind"] == "StatefulSet")
    assert statefulset["spec"]["replicas"] == SLICES
    names = ["printer-%04d" % number for number in range(FLEET_PRINTERS)]
    profiles = ["duplex-laser", "color-inkjet", "office-mfp", "label-printer"]
    config = {"printers": [{"profile": profiles[number % len(profiles)], "name": name}
                           for number, name in enumerate(names)]}
    configmap = next(doc for doc in fleet if doc["kind"] == "ConfigMap")
    configmap["data"]["fleet.json"] = json.dumps(config)
    # Static addresses stand for the headless Service's name, which resolves to every pod in a cluster.
    network = kube.network("vptest-fleet-%s" % uuid.uuid4().hex[:6], "10.91.0.0/24")
    addresses = ["10.91.0.%d" % (10 + index) for index in range(SLICES)]
    pods = []
    for index in range(SLICES):
        pod_name = "%s-%d" % (statefulset["metadata"]["name"], index)
        spec = copy.deepcopy(statefulset["spec"]["template"]["spec"])
        [container] = spec["containers"]
        container["image"] = IMAGE
        # podman 4.3 publishes a containerPort on the same port of this machine, where the three pods would
        # collide; they are reached at their own addresses instead (and the probes, by number).
        del container["ports"]
        for probe in ("livenessProbe", "readinessProbe"):
            container[probe]["httpGet"]["port"] = 8631
        for variable in container["env"]:
            if variable["name"] == "VPRINTER_PEERS":
                variable["value"] = ",".join("%s:8631" % address for address in addresses)
        claim = "output-%s-%s" % (pod_name, uuid.uuid4().hex[:6])
        spec["volumes"].append({"name": "output", "persistentVolumeClaim": {"claimName": claim}})
        pods.append({"apiVersion": "v1", "kind": "Pod",
                     "metadata": {"name": pod_name, "labels": statefulset["spec"]["template"]["metadata"]["labels"]},
                     "spec": spec})
        pods.append({"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": claim},
                     "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}})
    found = kube([configmap, *pods], network=network, addresses=addresses)
    pod_names = ["%s-%d" % (statefulset["metadata"]["name"], index) for index in range(SLICES)]
    clients = [wait_ready(found[pod], pod + "-vprinter") for pod in pod_names]
    for index, client in enumerate(clients):
        mine = names[index::SLICES]
        own = [entry["printer-name"] for entry in client.call("GET", "/api/v1/printers?peers=none", timeout=60)]
        assert own == mine, "%s serves %d printers: %s ... %s" % (pod_names[index], len(own), own[:3], own[-3:])
        for name in mine[:: len(mine) // SAMPLED][:SAMPLED]:
            uri = "ipp://%s:8631/ipp/print/%s" % (found[pod_names[index]], name)
            answer = ipp.send(uri, ipp.request(ipp.GET_PRINTER_ATTRIBUTES, uri))
            assert answer.status == 0 and answer.get("printer-name") == name, (uri, answer)
    listed = clients[1].call("GET", "/api/v1/printers", timeout=120)
    assert sorted(entry["printer-name"] for entry in listed) == sorted(names)
