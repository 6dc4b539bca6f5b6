"""Limit/offset pagination that refuses what it cannot serve instead of guessing.

DRF's own class ignores a malformed `limit` and passes any size of integer to the
database (a 26-digit `limit` was a 500: bigint out of range). Here both parameters are
validated like any other input: out of range or not a number is 400 `invalid_input`.
"""

from __future__ import annotations

from typing import Any

from rest_framework.pagination import LimitOffsetPagination

from pusoy_api.fields import QueryIntegerField, QuerySerializer

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
MAX_OFFSET = 2**31 - 1


class PageSerializer(QuerySerializer):
    limit = QueryIntegerField(min_value=1, max_value=MAX_LIMIT, default=DEFAULT_LIMIT)
    offset = QueryIntegerField(min_value=0, max_value=MAX_OFFSET, default=0)


class StrictLimitOffsetPagination(LimitOffsetPagination):
    default_limit = DEFAULT_LIMIT
    max_limit = MAX_LIMIT

    def paginate_queryset(self, queryset, request, view=None):
        page = PageSerializer(data=request.query_params)
        page.is_valid(raise_exception=True)
        self._page = page.validated_data
        return super().paginate_queryset(queryset, request, view)

    def get_limit(self, request: Any) -> int:
        return self._page["limit"]

    def get_offset(self, request: Any) -> int:
        return self._page["offset"]

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        bounds = {
            self.limit_query_param: {"minimum": 1, "maximum": MAX_LIMIT, "default": DEFAULT_LIMIT},
            self.offset_query_param: {"minimum": 0, "maximum": MAX_OFFSET, "default": 0},
        }
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            parameter["schema"].update(bounds[parameter["name"]])
        return parameters
