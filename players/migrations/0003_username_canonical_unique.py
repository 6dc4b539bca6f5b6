from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("players", "0002_username_canonical"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="username_canonical",
            field=models.CharField(editable=False, max_length=300),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("username_canonical",), name="player_username_canonical_unique"
            ),
        ),
    ]
