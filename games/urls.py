from django.urls import path

from . import apis

urlpatterns = [
    path("games", apis.GameListCreateApi.as_view(), name="games"),
    path("games/<uuid:game_id>", apis.GameDetailApi.as_view(), name="games-detail"),
    path("games/<uuid:game_id>/join", apis.GameJoinApi.as_view(), name="games-join"),
    path("games/<uuid:game_id>/state", apis.GameStateApi.as_view(), name="games-state"),
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
