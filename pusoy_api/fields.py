"""Input fields that take exactly what the API schema says, no more.

DRF's fields are forgiving: a JSON body's `"seat": "2"` or `2.0` is read as 2, `0` is
read as the string "0", and a query's `mine=yes` or `mine=1` as true. A client built from
the schema sends none of these; accepting them anyway makes the schema a lie (a request
it calls invalid is served) and lets type mistakes in clients go unnoticed. These fields
refuse, with 400 `invalid_input`, whatever the schema does not allow.
"""

from __future__ import annotations

import re
from typing import Any

from django.core.validators import RegexValidator
from django.http import QueryDict
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

_QUERY_INTEGER = re.compile(r"-?[0-9]+")


class QuerySerializer(serializers.Serializer):
    """Reads a request's query string. DRF reads a QueryDict as an HTML form, where an
    empty value (`?status=`) counts as not given; a query is not a form, so the values
    are read as a plain mapping: `status=` is an empty status, and refused."""

    def __init__(self, instance: Any = None, data: Any = serializers.empty, **kwargs: Any) -> None:
        if isinstance(data, QueryDict):
            data = data.dict()
        super().__init__(instance, data, **kwargs)


class StrictCharField(serializers.CharField):
    """A JSON string (a number is not one)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


USERNAME_PATTERN = r"^[\w.@+-]+$"


@extend_schema_field(
    {"type": "string", "minLength": 1, "maxLength": 150, "pattern": USERNAME_PATTERN}
)
class UsernameRefField(StrictCharField):
    """A player named by username (any spelling of the name). Exactly what a username can
    be, in the schema too, so a string no player can have (blank, spaces, a NUL) is a 400
    that a client built from the schema never sends; an unknown name is a 422 later."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=150, trim_whitespace=False, **kwargs)
        self.validators.append(RegexValidator(USERNAME_PATTERN[:-1] + r"\Z"))


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer (not a string of digits, a float or a boolean)."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """A JSON true or false (not 1, "yes" or "true")."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class QueryIntegerField(serializers.IntegerField):
    """A query parameter written as an integer: digits, an optional minus sign."""

    def to_internal_value(self, data: Any) -> int:
        if not isinstance(data, str) or not _QUERY_INTEGER.fullmatch(data):
            self.fail("invalid")
        return super().to_internal_value(data)


@extend_schema_field({"type": "boolean"})
class QueryBooleanField(serializers.BooleanField):
    """A query parameter written `true` or `false`, as the schema's boolean says."""

    def to_internal_value(self, data: Any) -> bool:
        if data not in ("true", "false"):
            self.fail("invalid", input=data)
        return data == "true"
