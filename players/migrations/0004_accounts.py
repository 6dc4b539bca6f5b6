# Guests, deleted accounts, and a session per token. Tokens issued before this never
# expired: each gets a session (its device unknown) and the idle expiry counted from now,
# so no one is logged out by the upgrade itself.

import django.db.models.deletion
import django.utils.timezone
import uuid
from django.conf import settings
from django.db import migrations, models


def sessions_for_existing_tokens(apps, schema_editor):
    from knox.settings import knox_settings

    AuthToken = apps.get_model(settings.KNOX_TOKEN_MODEL)
    Session = apps.get_model("players", "Session")
    now = django.utils.timezone.now()
    AuthToken.objects.filter(expiry__isnull=True).update(expiry=now + knox_settings.TOKEN_TTL)
    Session.objects.bulk_create(
        Session(token_id=digest, player_id=user_id, created_at=created, last_used_at=now)
        for digest, user_id, created in AuthToken.objects.values_list(
            "digest", "user_id", "created"
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("players", "0003_username_canonical_unique"),
        migrations.swappable_dependency(settings.KNOX_TOKEN_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="deleted_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="player",
            name="is_guest",
            field=models.BooleanField(default=False),
        ),
        migrations.CreateModel(
            name="Session",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                ("device", models.CharField(blank=True, default="", max_length=200)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("last_used_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="sessions",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "token",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="session",
                        to=settings.KNOX_TOKEN_MODEL,
                    ),
                ),
            ],
            options={
                "ordering": ["-last_used_at", "-created_at"],
                "indexes": [
                    models.Index(fields=["player", "-last_used_at"], name="session_player_recent")
                ],
            },
        ),
        migrations.RunPython(sessions_for_existing_tokens, migrations.RunPython.noop),
    ]
