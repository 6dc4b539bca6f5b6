from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Event feed"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from notifications import selectors
        from pusoy_api.realtime import longpoll

        # A player's waiters are re-checked by the last event id of their feed.
        longpoll.register_probe(
            "player", lambda player_id: selectors.last_event_id(player_id=player_id)
        )
