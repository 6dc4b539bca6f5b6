from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    name = "notifications"
    verbose_name = "Event feed"
    default_auto_field = "django.db.models.BigAutoField"
