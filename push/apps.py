from django.apps import AppConfig


class PushConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "push"

    def ready(self) -> None:
        # Which platforms have credentials is told once, when a process starts.
        from push.providers import registry

        registry.log_platforms()
