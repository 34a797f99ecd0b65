from django.db import migrations, models


class Migration(migrations.Migration):
    """Two people may share a name: the unique constraint on Player.name goes,
    an index stays for the lookups by name. No row changes."""

    dependencies = [
        ("league", "0019_audit_actions_roles_and_signup"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="name",
            field=models.CharField(db_index=True, max_length=100),
        ),
    ]
