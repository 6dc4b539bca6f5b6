from django.apps import AppConfig


class PlayersConfig(AppConfig):
    name = "players"
    verbose_name = "Players"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save
        from knox.models import AuthToken

        from . import token_cache
        from .models import Player

        post_delete.connect(token_cache.token_deleted, sender=AuthToken)
        post_save.connect(token_cache.player_saved, sender=Player)
