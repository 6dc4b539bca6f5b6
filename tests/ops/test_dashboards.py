"""The Grafana dashboard and the alert rules read metrics that exist: every `pusoy_*`
name they use is in the /metrics output, so a renamed metric breaks this test, not a
dashboard nobody looks at until the night it matters."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from django.test import Client

from tests.ops.metrics_helpers import names, scrape

ROOT = Path(__file__).resolve().parents[2]
DASHBOARD = ROOT / "ops" / "grafana" / "pusoy.json"
ALERTS = ROOT / "ops" / "prometheus" / "alerts.yml"
METRIC = re.compile(r"\bpusoy_[a-z0-9_]+")


def _dashboard_exprs() -> list[str]:
    dashboard = json.loads(DASHBOARD.read_text())
    return [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]]


def _alert_rules() -> list[dict]:
    rules = yaml.safe_load(ALERTS.read_text())
    return [rule for group in rules["groups"] for rule in group["rules"]]


def test_the_dashboard_uses_a_prometheus_datasource_variable():
    dashboard = json.loads(DASHBOARD.read_text())
    variables = {v["name"]: v for v in dashboard["templating"]["list"]}
    assert variables["datasource"]["type"] == "datasource"
    assert variables["datasource"]["query"] == "prometheus"
    for panel in dashboard["panels"]:
        assert panel["datasource"]["uid"] == "${datasource}", panel["title"]
        assert panel["targets"], panel["title"]


def test_the_alert_rules_parse_and_are_complete():
    rules = _alert_rules()
    assert rules
    for rule in rules:
        assert {"alert", "expr", "labels", "annotations"} <= set(rule), rule
        assert rule["annotations"].get("summary"), rule["alert"]


def test_every_metric_the_dashboard_and_the_alerts_use_exists():
    exposed = names(scrape(Client()))
    used = {
        name
        for expr in [*_dashboard_exprs(), *(rule["expr"] for rule in _alert_rules())]
        for name in METRIC.findall(expr)
    }
    assert used, "no pusoy_ metric found in the dashboard or the alerts"
    assert used - exposed == set()


def test_every_metric_of_the_service_has_a_panel():
    exposed_families = {name for name in names(scrape(Client())) if name.startswith("pusoy_")}
    used = {name for expr in _dashboard_exprs() for name in METRIC.findall(expr)}

    def shown(family: str) -> bool:
        return any(name == family or name.startswith(family + "_") for name in used)

    # The base names (a histogram's _bucket/_sum/_count or a counter's _total all show it).
    bases = {re.sub(r"_(total|bucket|sum|count)$", "", name) for name in exposed_families}
    assert {base for base in bases if not shown(base)} == set()
