from django.urls import path

from . import views

urlpatterns = [
    path("", views.index, name="webclient"),
    path("app/api.js", views.api_module, name="webclient-api"),
    path("favicon.ico", views.favicon, name="favicon"),
]
