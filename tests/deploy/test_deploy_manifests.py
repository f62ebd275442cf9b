"""The Kubernetes manifests parse and wire together: readiness on /readyz, liveness on
/healthz, metrics scraped, keys from a Secret,
a Service and an autoscaler aimed at the Deployment."""

from __future__ import annotations

from pathlib import Path

import yaml

from bench.table_memory import manifest_memory_mb

MANIFEST = Path(__file__).resolve().parents[2] / "deploy" / "referee.yaml"


def documents() -> dict[str, dict]:
    return {d["kind"]: d for d in yaml.safe_load_all(MANIFEST.read_text()) if d}


def test_the_deployment_probes_readiness_and_liveness_apart_and_reads_keys_from_a_secret():
    deployment = documents()["Deployment"]
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    keys = next(e for e in container["env"] if e["name"] == "REFEREE_STATE_KEYS")
    assert "secretKeyRef" in keys["valueFrom"]
    signing = next(e for e in container["env"] if e["name"] == "REFEREE_RESULT_KEYS")
    assert signing["valueFrom"]["secretKeyRef"]["optional"] is True
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


def test_prometheus_scrapes_the_metrics_port_and_the_workers_share_a_writable_metrics_dir():
    template = documents()["Deployment"]["spec"]["template"]
    annotations = template["metadata"]["annotations"]
    container = template["spec"]["containers"][0]
    port = next(p["containerPort"] for p in container["ports"] if p["name"] == "http")
    assert annotations["prometheus.io/scrape"] == "true"
    assert annotations["prometheus.io/path"] == "/metrics"
    assert annotations["prometheus.io/port"] == str(port)
    env = {e["name"]: e.get("value") for e in container["env"]}
    mounts = [m["mountPath"] for m in container["volumeMounts"]]
    assert any(env["PROMETHEUS_MULTIPROC_DIR"].startswith(m + "/") for m in mounts)


def test_the_memory_limit_holds_two_workers_at_the_bound_of_their_tables():
    # bench/table_memory.py measures a pod whose callers ask hints of many option sets: 750
    # MB of PSS at the memos' bound (2026-12-06), against 512Mi before; the limit keeps a
    # quarter more than that, and the request the start's 150 MB.
    assert manifest_memory_mb("limits") >= 1.25 * 750
    assert manifest_memory_mb("requests") >= 150
