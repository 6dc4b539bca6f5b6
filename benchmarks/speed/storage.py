"""What a finished game costs to keep: ``python -m benchmarks.speed.storage [--games N]``.

Plays N four-human matches of 3 deals (random legal moves through the services, as
clients would make them) into a fresh PostgreSQL database (``pusoy_bench_storage``,
dropped afterwards), prints rows and bytes per game for each table (table + indexes + TOAST, from
``pg_total_relation_size``) as left by play (the deal row is rewritten on every move, so
its files hold space that later updates reuse) and after ``VACUUM FULL`` (the live data
a finished game keeps). Numbers only.
"""

from __future__ import annotations

import argparse
import os
import random
import sys

import psycopg

from benchmarks.load.api import PG, admin, machine, scalar

DB = "pusoy_bench_storage"
TABLES = (
    "games_game",
    "games_seat",
    "games_deal",
    "games_move",
    "ratings_rating",
    "ratings_ratingchange",
    "players_player",
)


def sizes(conn: psycopg.Connection, table: str) -> tuple[int, int]:
    rows = scalar(conn, f"SELECT count(*) FROM {table}")
    size = scalar(conn, "SELECT pg_total_relation_size(%s)", [table])
    return rows, size


def play(games: int) -> None:
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games import services
    from games.models import Deal, Game
    from players.models import Player
    from pusoy.engine import DealState, format_cards

    rng = random.Random(1)
    players = [Player.objects.create_user(f"p{i}", password=None) for i in range(8)]
    for g in range(games):
        seated = rng.sample(players, 4)
        game = services.game_create(
            creator=seated[0],
            rules="philippine",
            seats=[services.SeatSpec("human", "")] * 4,
            target_deals=3,
        )
        for p in seated[1:]:
            services.game_join(game_id=game.pk, player=p)
        by_seat = {s.position: s.player for s in game.seats.all()}
        while (game := Game.objects.get(pk=game.pk)).status == "active":
            deal = Deal.objects.get(game=game, number=game.current_deal_number)
            move = rng.choice(DealState.from_dict(deal.snapshot).legal_moves())
            assert deal.turn is not None  # an active game's current deal has a seat to move
            player = by_seat[deal.turn]
            assert player is not None  # every seat here is a human's
            services.move_submit(
                game_id=game.pk,
                player=player,
                action=move.action,
                cards=format_cards(move.cards) or None,
            )
        if (g + 1) % 10 == 0:
            print(f"{g + 1}/{games} games", file=sys.stderr, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    print(f"machine: {machine()}")
    admin(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
    admin(f"CREATE DATABASE {DB}")
    try:
        os.environ.update(
            DATABASE_URL=f"postgres://{PG['user']}@{PG['host']}:{PG['port']}/{DB}",
            DJANGO_SETTINGS_MODULE="pusoy_api.settings.base",
            DEV_MODE="1",
            EMBEDDED_TASKS="eager",
            LOG_LEVEL="WARNING",
        )
        os.environ.pop("CELERY_BROKER_URL", None)
        play(args.games)
        with psycopg.connect(dbname=DB, autocommit=True, **PG) as conn:
            games = scalar(conn, "SELECT count(*) FROM games_game")
            moves = scalar(conn, "SELECT count(*) FROM games_move")
            print(
                f"\n{games} finished 4-player matches of 3 deals,"
                f" {moves / games:.0f} moves per game"
            )
            conn.execute("VACUUM ANALYZE")
            as_played = {t: sizes(conn, t) for t in TABLES}
            conn.execute("VACUUM FULL ANALYZE")
            compact = {t: sizes(conn, t) for t in TABLES}
            print(f"{'table':24} {'rows/game':>10} {'bytes/game':>11} {'after VACUUM FULL':>18}")
            for t in TABLES:
                rows = as_played[t][0]
                print(
                    f"{t:24} {rows / games:10.1f} {as_played[t][1] / games:11.0f}"
                    f" {compact[t][1] / games:18.0f}"
                )
            total = sum(v[1] for v in as_played.values()) / games
            total_compact = sum(v[1] for v in compact.values()) / games
            print(f"{'all of these':24} {'':>10} {total:11.0f} {total_compact:18.0f}")
    finally:
        admin(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")


if __name__ == "__main__":
    main()
