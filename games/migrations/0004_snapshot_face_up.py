"""Deal snapshots name the face-up card (the engine's views show it to every seat and
the bots use it); snapshots written before carried it only in ``Deal.face_up_card``."""

from django.db import migrations


def add_face_up(apps, schema_editor):
    Deal = apps.get_model("games", "Deal")
    for deal in Deal.objects.exclude(face_up_card="").iterator():
        if "face_up" not in deal.snapshot:
            deal.snapshot["face_up"] = deal.face_up_card
            deal.save(update_fields=["snapshot"])


class Migration(migrations.Migration):
    dependencies = [("games", "0003_async_play")]

    operations = [migrations.RunPython(add_face_up, migrations.RunPython.noop)]
