"""Reading /metrics in tests: the value of one sample, parsed from the text format."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families


def scrape(client) -> str:
    response = client.get("/metrics")
    assert response.status_code == 200, response.content
    return response.content.decode()


def value(text: str, name: str, **labels: str) -> float:
    """The sample `name` with exactly these labels (0 when it is not there yet)."""
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and sample.labels == labels:
                return sample.value
    return 0.0


def names(text: str) -> set[str]:
    """Every sample name the output can hold, whether or not a sample was recorded yet
    (a labelled counter without samples shows only its HELP and TYPE)."""
    suffixes = {"counter": ("_total",), "histogram": ("_bucket", "_sum", "_count")}
    found = set()
    for family in text_string_to_metric_families(text):
        found.add(family.name)
        found.update(family.name + s for s in suffixes.get(family.type, ()))
    return found
