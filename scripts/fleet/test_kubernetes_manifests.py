"""deploy/kubernetes/: every manifest validates against the Kubernetes API's schemas (kubernetes-validate, strict:
no field the API does not know), and says to vprinter what its docs say: the fleet's config is a valid --config of
shipped profiles, its slices are as many as the StatefulSet's replicas, its peers are the headless Service, every
VPRINTER_* variable names an option, and the probes ask /livez and /readyz. The Helm chart (deploy/helm/vprinter),
linted and rendered by helm, gives the same documents, and follows its values."""
import copy
import json
import pathlib
import re
import shutil
import subprocess
import sys

import kubernetes_validate
import kubernetes_validate.utils
import jsonschema
import pytest
import yaml

from vptest.paths import DOCS, REPO
from vptest.printer import run_vprinter

MANIFESTS = sorted((REPO / "deploy" / "kubernetes").glob("*.yaml"))
CHART = REPO / "deploy" / "helm" / "vprinter"
# helm comes with the test environment (scripts/requirements-test.txt), in its bin folder.
HELM = str(pathlib.Path(sys.executable).parent / "helm") if (pathlib.Path(sys.executable).parent / "helm").exists() \
    else shutil.which("helm")
KUBERNETES = kubernetes_validate.utils.latest_version()
CONFIG_SCHEMA = json.loads((DOCS / "config.schema.json").read_text())
# Variables the manifests set that name no option of vprinter's: the pod's own facts, for the others to use.
POD_FACTS = set()
# kubernetes-validate 1.28 resolves the schemas' references the way jsonschema 4.10 warns about, once per reference.
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def vprinter_options():
    """The long options `vprinter --help` lists."""
    status, text, _ = run_vprinter("--help")
    assert status == 0
    return set(re.findall(r"--([a-z][a-z-]+)", text))


def documents(path):
    return [document for document in yaml.safe_load_all(path.read_text()) if document]


def by_kind(path, kind):
    [found] = [document for document in documents(path) if document["kind"] == kind]
    return found


def environment(workload):
    [container] = workload["spec"]["template"]["spec"]["containers"]
    return {variable["name"]: variable for variable in container["env"]}, container


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda path: path.name)
def test_every_manifest_validates_against_the_kubernetes_schemas(path):
    assert documents(path), path
    for document in documents(path):
        kubernetes_validate.validate(document, KUBERNETES, strict=True)


def test_the_validator_refuses_a_field_kubernetes_does_not_know():
    deployment = copy.deepcopy(by_kind(REPO / "deploy" / "kubernetes" / "printer.yaml", "Deployment"))
    deployment["spec"]["template"]["spec"]["containers"][0]["probe"] = {"path": "/livez"}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES, strict=True)


@pytest.mark.parametrize("path", MANIFESTS, ids=lambda path: path.name)
def test_every_workload_sets_options_vprinter_has_and_probes_its_health(path):
    options = vprinter_options()
    for workload in documents(path):
        if workload["kind"] not in ("Deployment", "StatefulSet"):
            continue
        variables, container = environment(workload)
        for name in variables:
            if name in POD_FACTS:
                continue
            assert name.startswith("VPRINTER_"), name
            assert name[len("VPRINTER_"):].lower().replace("_", "-") in options, name
        assert container["livenessProbe"]["httpGet"]["path"] == "/livez"
        assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
        assert workload["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True
        assert {mount["mountPath"] for mount in container["volumeMounts"]} >= {"/output"}


def test_the_fleets_slices_are_its_replicas_and_its_peers_the_headless_service():
    path = REPO / "deploy" / "kubernetes" / "fleet.yaml"
    config = json.loads(by_kind(path, "ConfigMap")["data"]["fleet.json"])
    jsonschema.Draft7Validator(CONFIG_SCHEMA).validate(config)
    shipped = {profile.stem for profile in (REPO / "profiles").glob("*.json")}
    assert {printer["profile"] for printer in config["printers"]} <= shipped
    statefulset = by_kind(path, "StatefulSet")
    variables, _ = environment(statefulset)
    shard = re.fullmatch(r"hostname/(\d+)", variables["VPRINTER_SHARD"]["value"])
    assert shard and int(shard.group(1)) == statefulset["spec"]["replicas"]
    service = by_kind(path, "Service")
    assert service["spec"]["clusterIP"] == "None" and service["spec"]["publishNotReadyAddresses"] is True
    assert statefulset["spec"]["serviceName"] == service["metadata"]["name"]
    assert variables["VPRINTER_PEERS"]["value"] == "%s:%d" % (service["metadata"]["name"],
                                                              service["spec"]["ports"][0]["port"])
    assert variables["VPRINTER_CONFIG"]["value"].startswith("/config/")


def helm(*arguments):
    assert HELM, "no helm: scripts/setup installs it into the test environment"
    done = subprocess.run([HELM, *arguments], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


def rendered(*settings):
    return [document for document in yaml.safe_load_all(helm("template", "vprinter", str(CHART), *settings))
            if document]


def test_the_helm_chart_lints_and_renders_the_manifests():
    helm("lint", "--strict", str(CHART))
    assert rendered() == documents(REPO / "deploy" / "kubernetes" / "printer.yaml")
    assert rendered("--set", "mode=fleet") == documents(REPO / "deploy" / "kubernetes" / "fleet.yaml")


def test_the_helm_charts_values_reach_the_documents():
    fleet = rendered("--set", "mode=fleet", "--set", "fleet.replicas=5", "--set", "image=registry.example/vp:2",
                     "--set", "fleet.name=west")
    for document in fleet:
        kubernetes_validate.validate(document, KUBERNETES, strict=True)
    statefulset = next(document for document in fleet if document["kind"] == "StatefulSet")
    variables, container = environment(statefulset)
    assert statefulset["spec"]["replicas"] == 5 and variables["VPRINTER_SHARD"]["value"] == "hostname/5"
    assert variables["VPRINTER_PEERS"]["value"] == "west:8631" and statefulset["spec"]["serviceName"] == "west"
    assert container["image"] == "registry.example/vp:2"
    printer = rendered("--set", "printer.profile=color-inkjet")
    variables, _ = environment(next(document for document in printer if document["kind"] == "Deployment"))
    assert variables["VPRINTER_PROFILE"]["value"] == "color-inkjet"
