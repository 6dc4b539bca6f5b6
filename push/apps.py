from django.apps import AppConfig


class PushConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "push"

    def ready(self) -> None:
        # Which platforms have credentials is told once, when a process starts.
        from django.db.models.signals import post_save

        from push.models import Device
        from push.providers import registry
        from push.services import device_saved

        registry.log_platforms()
        post_save.connect(device_saved, sender=Device)
