"""Two deals of one player ending at once: the rating row lock makes the second update
start from the first's result. The rating step is held open until both transactions have
had the chance to reach it, so without the lock both would rate from the same starting
point and one update would be lost."""

from __future__ import annotations

import contextlib
import threading

import pytest
from django.db import connection, transaction

import ratings.services as rating_services
from ratings.models import Rating, RatingChange
from ratings.services import Entrant, ratings_apply_deal
from tests.factories import PlayerFactory, game_with_seats

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_simultaneous_deals_of_one_player_both_count(monkeypatch):
    ana = PlayerFactory()
    games = [game_with_seats([ana, "random"]) for _ in range(2)]
    # Rows that exist already: creating one would itself make the second writer wait.
    Rating.objects.create(player=ana)
    Rating.objects.create(bot_level="random")
    both_rating = threading.Barrier(2, timeout=1.0)
    real_rate = rating_services.rate

    def rate_when_both_arrive(skills, ranks):
        with contextlib.suppress(threading.BrokenBarrierError):
            both_rating.wait()  # passes only if the two transactions rate at once
        return real_rate(skills, ranks)

    monkeypatch.setattr(rating_services, "rate", rate_when_both_arrive)

    def finish(game):
        try:
            with transaction.atomic():
                ratings_apply_deal(
                    game_id=game.pk,
                    deal_number=1,
                    entrants=[Entrant(player_id=ana.pk), Entrant(bot_level="random")],
                    ranks=[1, 2],
                )
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(g,)) for g in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

    rating = Rating.objects.get(player=ana)
    first, second = RatingChange.objects.filter(rating=rating).order_by("id")
    assert rating.deals == 2
    assert second.mu_before == pytest.approx(first.mu)
    assert rating.mu == pytest.approx(second.mu)
    assert rating.mu > first.mu
