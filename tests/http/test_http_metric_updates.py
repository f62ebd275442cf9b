"""The functions that update the referee's metrics on every request (`referee.http.metrics`:
`adder`, `Observer`) leave each metric exactly as prometheus-client's own `inc` and `observe`
would: the same samples, sample for sample."""

from __future__ import annotations

import pytest
from prometheus_client import CollectorRegistry, Counter, Histogram

from referee.http import metrics

BUCKETS = metrics.LATENCY._upper_bounds[:-1]


def _samples(registry: CollectorRegistry) -> list[tuple[str, dict, float]]:
    return sorted((s.name, tuple(sorted(s.labels.items())), s.value) for family in registry.collect()
                  for s in family.samples if not s.name.endswith("_created"))


def _pair(kind, *args, **kwargs):
    """The same metric twice, each in a registry of its own: one updated by prometheus-client's
    methods, the other by the referee's functions."""
    registries = CollectorRegistry(), CollectorRegistry()
    return registries, [kind(*args, registry=r, **kwargs) for r in registries]


def test_an_adder_counts_as_inc_does_with_labels_and_without():
    (ours, theirs), (mine, reference) = _pair(Counter, "c", "A counter.", ["route"])
    (ours2, theirs2), (plain, plain_reference) = _pair(Counter, "d", "Another.")
    adders = {route: metrics.adder(mine.labels(route)) for route in ("a", "b")}
    add_plain = metrics.adder(plain)
    for k in range(7):
        route = "ab"[k % 3 == 0]
        adders[route]()
        reference.labels(route).inc()
        add_plain()
        plain_reference.inc()
    assert _samples(ours) == _samples(theirs) and _samples(ours2) == _samples(theirs2)
    assert ("c_total", (("route", "a"),), 4.0) in _samples(ours)
    assert ("c_total", (("route", "b"),), 3.0) in _samples(ours)
    assert ("d_total", (), 7.0) in _samples(ours2)


def test_an_adder_of_a_labelled_parent_refuses_as_inc_does():
    counter = Counter("e", "Labelled.", ["route"], registry=CollectorRegistry())
    with pytest.raises(ValueError, match="missing label values"):
        metrics.adder(counter)()


@pytest.mark.parametrize("amount", [0.0, 1e-9, *BUCKETS, *(b * 1.0001 for b in BUCKETS),
                                    *(b * 0.9999 for b in BUCKETS), 5.0, 1e9])
def test_an_observer_fills_the_bucket_observe_fills(amount):
    (ours, theirs), (mine, reference) = _pair(
        Histogram, "h", "A histogram.", ["route"], buckets=BUCKETS)
    metrics.Observer(mine.labels("r")).observe(amount)
    reference.labels("r").observe(amount)
    assert _samples(ours) == _samples(theirs)


def test_an_observer_of_a_labelled_parent_refuses_as_observe_does():
    histogram = Histogram("g", "Labelled.", ["route"], buckets=BUCKETS,
                          registry=CollectorRegistry())
    with pytest.raises(ValueError, match="missing label values"):
        metrics.Observer(histogram).observe(0.1)
