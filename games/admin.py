"""Games, seats, deals and moves in the Django admin. Moves are the audit log: read-only."""

from django.contrib import admin

from .models import Deal, Game, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    fields = ("position", "player", "ai_level", "score", "joined_at")
    readonly_fields = ("joined_at",)


class DealInline(admin.TabularInline):
    model = Deal
    extra = 0
    fields = ("number", "commitment", "seq", "turn", "winner", "points", "finished_at")
    readonly_fields = fields
    show_change_link = True
    can_delete = False


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "status", "num_seats", "current_deal_number", "created_by", "created_at")
    list_filter = ("status",)
    search_fields = ("id", "created_by__username")
    readonly_fields = ("id", "rules", "version", "created_at", "updated_at")
    inlines = [SeatInline, DealInline]


class MoveInline(admin.TabularInline):
    model = Move
    extra = 0
    fields = ("seq", "seat", "action", "cards", "combination", "actor", "created_at", "chain")
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("game", "number", "seq", "turn", "winner", "finished_at")
    search_fields = ("game__id",)
    readonly_fields = [f.name for f in Deal._meta.fields]
    inlines = [MoveInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("deal", "seq", "seat", "action", "cards", "actor", "created_at")
    list_filter = ("action",)
    search_fields = ("deal__game__id",)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
