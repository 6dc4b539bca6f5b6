# Stored idempotent answers become the rendered bytes (JSON text), replayed as they were.

import json

from django.db import migrations, models


def bodies_to_text(apps, schema_editor):
    IdempotentRequest = apps.get_model("games", "IdempotentRequest")
    for row in IdempotentRequest.objects.all().iterator():
        row.response_content = json.dumps(row.response_body, separators=(",", ":"))
        row.save(update_fields=["response_content"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='idempotentrequest',
            name='response_content',
            field=models.TextField(default=''),
        ),
        migrations.RunPython(bodies_to_text, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='idempotentrequest',
            name='response_body',
        ),
        migrations.AlterField(
            model_name='idempotentrequest',
            name='created_at',
            field=models.DateTimeField(auto_now_add=True, db_index=True),
        ),
        migrations.AlterField(
            model_name='idempotentrequest',
            name='response_status',
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]
