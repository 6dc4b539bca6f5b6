# Adds Player.username_canonical and fills it for existing players; 0003 makes it
# unique. Two migrations, so the data change and the constraint are separate
# transactions.

import logging
import unicodedata

from django.db import migrations, models

import players.models

logger = logging.getLogger("players.migrations")


def _canonical(name):
    # Frozen copy of players.usernames.username_canonical: a migration must not change
    # meaning when the app's code does.
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def fill_canonical(apps, schema_editor):
    """Fill the canonical name of every player. Before it existed, two spellings of one
    name could both sign up (`evex` and `ＥVEx`): the earlier sign-up keeps the name and
    each later one is renamed `<name>-2`, `-3`, ... so the unique constraint of 0003 can
    hold. Their tokens keep working; the rename is logged for support."""
    Player = apps.get_model("players", "Player")
    taken_canonical = set()
    taken_username = set(Player.objects.values_list("username", flat=True))
    # A new name must not be the canonical twin of anyone's, processed yet or not.
    avoid_canonical = {_canonical(name) for name in taken_username}
    changed = []
    for player in Player.objects.order_by("date_joined", "id").only("id", "username"):
        canonical = _canonical(player.username)
        if canonical in taken_canonical:
            original = player.username
            n = 2
            while True:
                suffix = f"-{n}"
                candidate = original[: 150 - len(suffix)] + suffix
                if candidate not in taken_username and _canonical(candidate) not in avoid_canonical:
                    break
                n += 1
            player.username = candidate
            taken_username.add(candidate)
            canonical = _canonical(candidate)
            avoid_canonical.add(canonical)
            logger.warning(
                "player %s renamed %r -> %r: the name was taken by an earlier sign-up",
                player.id, original, candidate,
            )
        taken_canonical.add(canonical)
        player.username_canonical = canonical
        changed.append(player)
    Player.objects.bulk_update(changed, ["username", "username_canonical"], batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0001_initial"),
    ]

    operations = [
        migrations.AlterModelManagers(
            name="player",
            managers=[
                ("objects", players.models.PlayerManager()),
            ],
        ),
        migrations.AddField(
            model_name="player",
            name="username_canonical",
            field=models.CharField(editable=False, max_length=300, null=True),
        ),
        migrations.RunPython(fill_canonical, migrations.RunPython.noop, elidable=True),
    ]
