from django.apps import AppConfig


class WebclientConfig(AppConfig):
    name = "webclient"
    verbose_name = "Web client"
