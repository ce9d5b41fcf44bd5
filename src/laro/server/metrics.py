"""What operators watch: ``GET /healthz`` (the process is up and its store answers) and ``GET /metrics`` in the
Prometheus text format, through the standard client library (``prometheus_client``), one registry per app.

Figures: ``laro_tables{status="open"|"running"}`` (read from the hub when scraped), ``laro_connections``
(WebSockets open), ``laro_actions_total`` (actions stored, by people and bots), ``laro_action_seconds`` (a
histogram: a change, from checking it to telling everyone, the store's commit included) and
``laro_store_errors_total``; with several processes on one store, ``laro_lease_changes_total{change="won"|"lost"|
"released"|"handed_over"}`` (leases of tables this process took, lost to another process, handed over when
stopping, or handed over to the others because this process drove more than its fair share); and
``laro_pushes_total{outcome="sent"|"gone"|"failed"}`` (push notifications a push service accepted, answered as
gone, the subscription dropped, or that failed).

>>> metrics = Metrics(lambda: {"open": 2, "running": 1})
>>> metrics.actions.inc()
>>> text = metrics.render().decode()
>>> 'laro_tables{status="open"} 2.0' in text, "laro_actions_total 1.0" in text
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

__all__ = ["CONTENT_TYPE_LATEST", "Metrics"]


class _Tables(Collector):
    def __init__(self, count: Callable[[], dict[str, int]]) -> None:
        self.count = count

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("laro_tables", "Tables in memory, by status", labels=["status"])
        for status, number in sorted(self.count().items()):
            family.add_metric([status], number)
        yield family


class Metrics:
    """The server's metrics; ``count_tables()`` says how many tables there are of each status."""

    def __init__(self, count_tables: Callable[[], dict[str, int]]) -> None:
        self.registry = CollectorRegistry()
        self.registry.register(_Tables(count_tables))
        self.connections = Gauge("laro_connections", "WebSocket connections open", registry=self.registry)
        self.actions = Counter("laro_actions", "Actions stored, by people and bots", registry=self.registry)
        self.action_seconds = Histogram(
            "laro_action_seconds",
            "Seconds a change takes, from checking it to telling everyone (the store's commit included)",
            buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
            registry=self.registry,
        )
        self.store_errors = Counter("laro_store_errors", "Changes the store refused or failed", registry=self.registry)
        self.lease_changes = Counter(
            "laro_lease_changes",
            "Table leases this process won, lost to another process, released when stopping, or handed over to share",
            ["change"],
            registry=self.registry,
        )
        for change in ("won", "lost", "released", "handed_over"):
            self.lease_changes.labels(change)  # each shows from the start, at 0
        self.pushes = Counter(
            "laro_pushes",
            "Push notifications posted: accepted by the push service, answered gone (dropped), or failed",
            ["outcome"],
            registry=self.registry,
        )
        for outcome in ("sent", "gone", "failed"):
            self.pushes.labels(outcome)

    def render(self) -> bytes:
        return generate_latest(self.registry)
