from django.urls import path

from . import apis

urlpatterns = [
    path("auth/register", apis.RegisterApi.as_view(), name="auth-register"),
    path("auth/token", apis.TokenApi.as_view(), name="auth-token"),
    path("auth/logout", apis.LogoutApi.as_view(), name="auth-logout"),
    path("players/me", apis.MeApi.as_view(), name="players-me"),
    path("players/<uuid:player_id>", apis.PlayerDetailApi.as_view(), name="players-detail"),
    path(
        "players/<uuid:player_id>/ratings", apis.PlayerRatingsApi.as_view(), name="players-ratings"
    ),
    path("leaderboard", apis.LeaderboardApi.as_view(), name="leaderboard"),
]
