# A stream ticket is bound to the token that took it (and deleted with it). Tickets live
# STREAM_TICKET_SECONDS (a minute): the ones outstanding when this runs are deleted rather
# than given a token, and a client holding one gets 401 `invalid_ticket` and takes a new
# one, as after any expiry.

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("notifications", "0001_initial"),
        ("knox", "0009_extend_authtoken_field"),
        migrations.swappable_dependency(settings.KNOX_TOKEN_MODEL),
    ]

    operations = [
        migrations.RunSQL("DELETE FROM notifications_streamticket", migrations.RunSQL.noop),
        migrations.AddField(
            model_name="streamticket",
            name="token",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="stream_tickets",
                to=settings.KNOX_TOKEN_MODEL,
            ),
        ),
    ]
