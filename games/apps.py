from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        import logging
        import uuid

        from django.conf import settings

        from games import selectors
        from pusoy import compiled
        from pusoy_api.realtime import longpoll

        longpoll.register_probe(
            "game", lambda game_id: selectors.latest_seq(game_id=uuid.UUID(game_id))
        )

        logger = logging.getLogger("pusoy_api")
        logger.info("bots' search: %s", compiled.STATUS)
        # Say plainly at start which mode this process runs in: a first-try setup on
        # SQLite with in-process AI behaves differently under load than Postgres + workers.
        if not settings.USING_POSTGRES:
            logger.info(
                "database: %s (set DATABASE_URL for PostgreSQL)",
                settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1],
            )
        if settings.CELERY_TASK_ALWAYS_EAGER:
            logger.info(
                "no broker: AI moves and the turn sweep run in the web process (%s; set "
                "CELERY_BROKER_URL to use Celery workers and beat)",
                settings.EMBEDDED_TASKS,
            )
