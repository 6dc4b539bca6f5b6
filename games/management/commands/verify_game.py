"""`manage.py verify_game GAME_ID...` (or `--all`): rebuild each deal from its moves and
check the snapshot, the hash chain and the seed commitment. Exit 0 only when all is sound."""

from __future__ import annotations

import uuid

from django.core.management.base import BaseCommand, CommandError

from games.audit import game_audit
from games.models import Game


class Command(BaseCommand):
    help = "Audit stored games: replay every deal, check snapshots, hash chains and seeds."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=uuid.UUID)
        parser.add_argument(
            "--all", dest="every", action="store_true", help="every game (e.g. after a restore)"
        )

    def handle(self, *args, game_ids, every, **options):
        if every:
            game_ids = list(Game.objects.order_by("created_at").values_list("pk", flat=True))
        elif not game_ids:
            raise CommandError("name games to verify, or --all")
        failed = False
        for game_id in game_ids:
            game = Game.objects.filter(pk=game_id).first()
            if game is None:
                self.stdout.write(f"{game_id}: not found")
                failed = True
                continue
            audits = game_audit(game)
            for audit in audits:
                verdict = "ok" if audit.ok else "; ".join(audit.problems)
                self.stdout.write(f"{game_id} deal {audit.number}: {verdict}")
            failed |= not all(a.ok for a in audits)
        if failed:
            raise CommandError("verification failed")
        self.stdout.write(f"{len(game_ids)} game{'' if len(game_ids) == 1 else 's'} verified")
