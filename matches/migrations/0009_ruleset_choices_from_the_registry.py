"""A match's ruleset is any game of the registry (scoring.rulesets), read when asked.

The choices were a copy of the registry; each game's table size was a database constraint
naming the games, so a game registered later could not be stored. The table size of each
game is the service's check; the database keeps the range every game fits in.
"""

import matches.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0008_live_hands'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='match',
            name='match_seat_count_for_ruleset',
        ),
        migrations.AlterField(
            model_name='match',
            name='ruleset',
            field=models.CharField(choices=matches.models.ruleset_choices, db_default='arlington', default='arlington', max_length=20),
        ),
        migrations.AlterField(
            model_name='tally',
            name='ruleset',
            field=models.CharField(choices=matches.models.ruleset_choices, db_default='arlington', default='arlington', max_length=20),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.CheckConstraint(condition=models.Q(('seat_count__gte', 2), ('seat_count__lte', 6)), name='match_seat_count_range'),
        ),
    ]
