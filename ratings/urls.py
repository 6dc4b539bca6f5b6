from django.urls import path

from . import apis

urlpatterns = [
    path("ai-levels", apis.AiLevelsApi.as_view(), name="ai-levels"),
    path(
        "players/<uuid:player_id>/ratings", apis.PlayerRatingsApi.as_view(), name="players-ratings"
    ),
]
