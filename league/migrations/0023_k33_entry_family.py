"""Issue 33: "entry" means hand entry only. AuditEntry -> GameAudit (a game's
trail, beside EventAudit), EntryKey -> SaveKey (a save's idempotency key),
StageEntry -> StageSeed (a seed the cut froze); their tables follow with
every row, id and key kept. The constraints keep their database names.
tests/league/test_migrate_populated.py migrates a populated database
across this."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0022_k33_event_word'),
    ]

    operations = [
        migrations.RenameModel(old_name='AuditEntry', new_name='GameAudit'),
        migrations.RenameModel(old_name='EntryKey', new_name='SaveKey'),
        migrations.RenameModel(old_name='StageEntry', new_name='StageSeed'),
        migrations.AlterModelOptions(name='gameaudit', options={'ordering': ['-at', '-pk']}),
        migrations.AlterField(
            model_name='savekey',
            name='game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='save_keys', to='league.game'),
        ),
        migrations.AlterField(
            model_name='stageseed',
            name='stage',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='seeds', to='league.stage'),
        ),
        migrations.AlterField(
            model_name='stageseed',
            name='registration',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='stage_seeds', to='league.registration'),
        ),
    ]
