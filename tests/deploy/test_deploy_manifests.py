"""The Kubernetes manifests parse and wire together: probes on /healthz, keys from a Secret,
a Service and an autoscaler aimed at the Deployment."""

from __future__ import annotations

from pathlib import Path

import yaml

MANIFEST = Path(__file__).resolve().parents[2] / "deploy" / "referee.yaml"


def documents() -> dict[str, dict]:
    return {d["kind"]: d for d in yaml.safe_load_all(MANIFEST.read_text()) if d}


def test_the_deployment_probes_healthz_and_reads_keys_from_a_secret():
    deployment = documents()["Deployment"]
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert container["readinessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    keys = next(e for e in container["env"] if e["name"] == "REFEREE_STATE_KEYS")
    assert "secretKeyRef" in keys["valueFrom"]
    assert deployment["spec"]["template"]["spec"]["securityContext"]["runAsNonRoot"] is True


def test_a_read_only_root_still_gives_gunicorn_a_writable_tmp():
    spec = documents()["Deployment"]["spec"]["template"]["spec"]
    container = spec["containers"][0]
    if container["securityContext"].get("readOnlyRootFilesystem"):
        mounts = {m["mountPath"]: m["name"] for m in container.get("volumeMounts", [])}
        volumes = {v["name"]: v for v in spec.get("volumes", [])}
        assert "/tmp" in mounts and "emptyDir" in volumes[mounts["/tmp"]]
        home = next(e["value"] for e in container["env"] if e["name"] == "HOME")
        assert home.startswith("/tmp")


def test_the_service_and_autoscaler_point_at_the_deployment():
    docs = documents()
    deployment, service, hpa = docs["Deployment"], docs["Service"], docs["HorizontalPodAutoscaler"]
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= labels.items()
    assert hpa["spec"]["scaleTargetRef"]["name"] == deployment["metadata"]["name"]
    assert hpa["spec"]["minReplicas"] >= 2
