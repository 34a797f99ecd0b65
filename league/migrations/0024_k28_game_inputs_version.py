"""Issue 28: ``Game.inputs_version``, moved by every write of a game's hands
or penalties, so a save compares it under the game's lock instead of reading
every hand again."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0023_k33_entry_family'),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='inputs_version',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
    ]
