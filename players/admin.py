from django.contrib import admin
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.admin import UserAdmin
from django.core.exceptions import ValidationError
from django.utils.translation import ngettext

from pusoy_api.domain_errors import DomainError, ErrorCode

from .models import Player


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "games_played", "games_won", "deals_won", "points", "is_staff")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Stats", {"fields": ("games_played", "games_won", "deals_played", "deals_won", "points")}),
    )


class AdminLoginForm(AdminAuthenticationForm):
    """The admin's log-in form, which also says when a name is in log-in backoff. The
    backend refuses such a log-in by raising the API's 429 error out of `authenticate()`
    (players/backends.py); the stock form would let that through as a 500."""

    def clean(self):
        try:
            return super().clean()
        except DomainError as exc:
            if exc.code is not ErrorCode.THROTTLED:
                raise
            seconds = exc.details["retry_after"]
            raise ValidationError(
                ngettext(
                    "Too many failed log-ins for this username. Try again in %(n)d second.",
                    "Too many failed log-ins for this username. Try again in %(n)d seconds.",
                    seconds,
                ),
                code="throttled",
                params={"n": seconds},
            ) from exc


admin.site.login_form = AdminLoginForm
