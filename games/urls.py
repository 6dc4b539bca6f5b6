from django.urls import path

from . import apis

urlpatterns = [
    path("games", apis.GameListCreateApi.as_view(), name="games"),
    path("games/<uuid:game_id>", apis.GameDetailApi.as_view(), name="games-detail"),
    path("games/<uuid:game_id>/join", apis.GameJoinApi.as_view(), name="games-join"),
    path("games/<uuid:game_id>/leave", apis.GameLeaveApi.as_view(), name="games-leave"),
    path("games/<uuid:game_id>/cancel", apis.GameCancelApi.as_view(), name="games-cancel"),
    path("games/<uuid:game_id>/resign", apis.GameResignApi.as_view(), name="games-resign"),
    path("games/<uuid:game_id>/rematch", apis.GameRematchApi.as_view(), name="games-rematch"),
    path(
        "games/<uuid:game_id>/invitations",
        apis.GameInvitationsApi.as_view(),
        name="games-invitations",
    ),
    path("invitations", apis.InvitationsApi.as_view(), name="invitations"),
    path(
        "invitations/<uuid:invitation_id>/accept",
        apis.InvitationAcceptApi.as_view(),
        name="invitations-accept",
    ),
    path(
        "invitations/<uuid:invitation_id>/decline",
        apis.InvitationDeclineApi.as_view(),
        name="invitations-decline",
    ),
    path("games/<uuid:game_id>/state", apis.GameStateApi.as_view(), name="games-state"),
    path("games/<uuid:game_id>/hint", apis.GameHintApi.as_view(), name="games-hint"),
    path("games/<uuid:game_id>/moves", apis.MovesApi.as_view(), name="games-moves"),
    path(
        "games/<uuid:game_id>/deals/<int:number>/record",
        apis.DealRecordApi.as_view(),
        name="games-deal-record",
    ),
    path(
        "games/<uuid:game_id>/deals/<int:number>/replay",
        apis.DealReplayApi.as_view(),
        name="games-deal-replay",
    ),
    path("records/verify", apis.RecordVerifyApi.as_view(), name="records-verify"),
]
