from django.urls import path

from .apis import exits, invitations, lobby, play, records

urlpatterns = [
    path("games", lobby.GameListCreateApi.as_view(), name="games"),
    path("games/<uuid:game_id>", lobby.GameDetailApi.as_view(), name="games-detail"),
    path("games/<uuid:game_id>/join", lobby.GameJoinApi.as_view(), name="games-join"),
    path("games/<uuid:game_id>/leave", exits.GameLeaveApi.as_view(), name="games-leave"),
    path("games/<uuid:game_id>/cancel", exits.GameCancelApi.as_view(), name="games-cancel"),
    path("games/<uuid:game_id>/resign", exits.GameResignApi.as_view(), name="games-resign"),
    path("games/<uuid:game_id>/rematch", lobby.GameRematchApi.as_view(), name="games-rematch"),
    path(
        "games/<uuid:game_id>/invitations",
        invitations.GameInvitationsApi.as_view(),
        name="games-invitations",
    ),
    path("invitations", invitations.InvitationsApi.as_view(), name="invitations"),
    path(
        "invitations/<uuid:invitation_id>/accept",
        invitations.InvitationAcceptApi.as_view(),
        name="invitations-accept",
    ),
    path(
        "invitations/<uuid:invitation_id>/decline",
        invitations.InvitationDeclineApi.as_view(),
        name="invitations-decline",
    ),
    path("games/<uuid:game_id>/state", play.GameStateApi.as_view(), name="games-state"),
    path("games/<uuid:game_id>/hint", play.GameHintApi.as_view(), name="games-hint"),
    path("games/<uuid:game_id>/moves", play.MovesApi.as_view(), name="games-moves"),
    path(
        "games/<uuid:game_id>/deals/<int:number>/record",
        records.DealRecordApi.as_view(),
        name="games-deal-record",
    ),
    path(
        "games/<uuid:game_id>/deals/<int:number>/replay",
        records.DealReplayApi.as_view(),
        name="games-deal-replay",
    ),
    path("records/verify", records.RecordVerifyApi.as_view(), name="records-verify"),
]
