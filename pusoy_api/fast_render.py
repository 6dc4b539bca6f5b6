"""Render what a DRF serializer's ``.data`` would, without its per-call cost.

``Serializer(instance).data`` deep-copies every declared field of the serializer and of
each nested one on every call, and that copying, not the values, is most of the time it
takes to render a player's view of the table (the answer to every move and `GET state`).
A `Renderer` binds the serializer's fields once and then only walks them: each value is
still read by the field's own ``get_attribute`` and turned into JSON by the field's own
``to_representation`` (a few plain types by the same conversion inline), so the answer is
the serializer's, field for field and in its order, and the serializer stays the one
source of the OpenAPI schema. tests/api/test_fast_render.py compares the two on played
games.

Fields are shared between calls, so only serializers whose fields keep no per-call state
may be rendered this way (the standard read-only fields do not).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db.models import Manager
from rest_framework import serializers
from rest_framework.fields import SkipField
from rest_framework.relations import PKOnlyObject

Convert = Callable[[Any], Any]
Plan = list[tuple[str, serializers.Field, Convert]]


class Renderer:
    def __init__(self, serializer_class: type[serializers.Serializer]) -> None:
        self.serializer_class = serializer_class
        self._plan: Plan | None = None

    def __call__(self, instance: Any) -> dict[str, Any]:
        if self._plan is None:  # bound on first use: the app registry is ready by then
            self._plan = _plan(self.serializer_class())
        return _render(self._plan, instance)


def _plan(serializer: serializers.Serializer) -> Plan:
    return [(str(f.field_name), f, _convert(f)) for f in serializer._readable_fields]


def _convert(field: serializers.Field) -> Convert:
    if isinstance(field, serializers.ListSerializer):
        assert isinstance(field.child, serializers.Serializer)
        item = _plan(field.child)
        return lambda value: [
            _render(item, one) for one in (value.all() if isinstance(value, Manager) else value)
        ]
    if isinstance(field, serializers.Serializer):
        nested = _plan(field)
        return lambda value: _render(nested, value)
    if type(field) is serializers.IntegerField:
        return int
    if type(field) is serializers.CharField:
        return str
    if isinstance(field, serializers.ListField):
        child = _convert(field.child)
        return lambda value: [None if one is None else child(one) for one in value]
    return field.to_representation


def _render(plan: Plan, instance: Any) -> dict[str, Any]:
    """As ``Serializer.to_representation``: a None attribute is None, not converted."""
    answer: dict[str, Any] = {}
    for name, field, convert in plan:
        try:
            attribute = field.get_attribute(instance)
        except SkipField:
            continue
        check = attribute.pk if isinstance(attribute, PKOnlyObject) else attribute
        answer[name] = None if check is None else convert(attribute)
    return answer
