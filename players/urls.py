from django.urls import path

from . import account_apis, apis

urlpatterns = [
    path("auth/register", apis.RegisterApi.as_view(), name="auth-register"),
    path("auth/token", apis.TokenApi.as_view(), name="auth-token"),
    path("auth/logout", apis.LogoutApi.as_view(), name="auth-logout"),
    path("auth/guest", account_apis.GuestApi.as_view(), name="auth-guest"),
    path("auth/claim", account_apis.ClaimApi.as_view(), name="auth-claim"),
    path("auth/password", account_apis.PasswordApi.as_view(), name="auth-password"),
    path("auth/sessions", account_apis.SessionsApi.as_view(), name="auth-sessions"),
    path(
        "auth/sessions/<uuid:session_id>",
        account_apis.SessionDetailApi.as_view(),
        name="auth-sessions-detail",
    ),
    path("auth/logout-others", account_apis.LogoutOthersApi.as_view(), name="auth-logout-others"),
    path("players/me", apis.MeApi.as_view(), name="players-me"),
    path("players/<uuid:player_id>", apis.PlayerDetailApi.as_view(), name="players-detail"),
    path("leaderboard", apis.LeaderboardApi.as_view(), name="leaderboard"),
]
