"""Issue 33: one word for one concept, "event". The models Tournament and
TournamentAudit become Event and EventAudit; their tables follow
(league_tournament -> league_event, league_tournamentaudit ->
league_eventaudit) with every row, id and key kept, and a series' event is
``series.event``. tests/league/test_migrate_populated.py migrates a
populated database across this."""

from django.db import migrations, models
import django.db.models.deletion


class Migration(migrations.Migration):

    dependencies = [
        ('league', '0021_results_changes'),
    ]

    operations = [
        migrations.RenameModel(old_name='Tournament', new_name='Event'),
        migrations.RenameModel(old_name='TournamentAudit', new_name='EventAudit'),
        migrations.AlterField(
            model_name='event',
            name='series',
            field=models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='event', to='league.series'),
        ),
    ]
