from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0021_live_event_keys_per_user'),
    ]

    operations = [
        migrations.AddField(
            model_name='handdraftpart',
            name='declined',
            field=models.JSONField(blank=True, help_text='The last version offered beside this part that a phone declined, keeping the part as written: {"version", "by", "device"} (the part\'s version kept, which the withdrawal moved on by one); null when none.', null=True),
        ),
    ]
