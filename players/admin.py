from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from .models import Player


@admin.register(Player)
class PlayerAdmin(UserAdmin):
    list_display = ("username", "games_played", "games_won", "deals_won", "points", "is_staff")
    fieldsets = (
        *(UserAdmin.fieldsets or ()),
        ("Stats", {"fields": ("games_played", "games_won", "deals_played", "deals_won", "points")}),
    )
