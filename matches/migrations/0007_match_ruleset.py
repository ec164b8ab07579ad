"""Matches get a ruleset and its options; existing matches and tallies are Arlington's.

A hand gets the yes/no facts its ruleset asks (Rummy: "rummy"); a result's bonus may be any
non-negative amount (what Rummy's winner collects); Rummy seats up to six.
"""


from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0006_invitations'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='handresult',
            name='result_bonus_known',
        ),
        migrations.RemoveConstraint(
            model_name='match',
            name='match_two_to_five_seats',
        ),
        migrations.RemoveConstraint(
            model_name='seat',
            name='seat_position_range',
        ),
        migrations.RemoveConstraint(
            model_name='tally',
            name='one_tally_per_player_and_season',
        ),
        migrations.RemoveConstraint(
            model_name='tally',
            name='one_tally_per_player_without_season',
        ),
        migrations.AddField(
            model_name='hand',
            name='flags',
            field=models.JSONField(blank=True, db_default={}, default=dict, help_text='The yes/no facts the match\'s ruleset asks of a hand, e.g. {"rummy": true}.'),
        ),
        migrations.AddField(
            model_name='match',
            name='options',
            field=models.JSONField(blank=True, db_default={}, default=dict, help_text='The ruleset\'s options, all of them, e.g. {"target": 100, "ace": "low"}.'),
        ),
        migrations.AddField(
            model_name='match',
            name='ruleset',
            field=models.CharField(choices=[('arlington', 'Arlington'), ('rummy', 'Rummy')], db_default='arlington', default='arlington', max_length=20),
        ),
        migrations.AddField(
            model_name='tally',
            name='ruleset',
            field=models.CharField(choices=[('arlington', 'Arlington'), ('rummy', 'Rummy')], db_default='arlington', default='arlington', max_length=20),
        ),
        migrations.AddConstraint(
            model_name='handresult',
            constraint=models.CheckConstraint(condition=models.Q(('bonus__gte', 0)), name='result_bonus_not_negative'),
        ),
        migrations.AddConstraint(
            model_name='match',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('ruleset', 'arlington'), ('seat_count__gte', 2), ('seat_count__lte', 5)), models.Q(('ruleset', 'rummy'), ('seat_count__gte', 2), ('seat_count__lte', 6)), _connector='OR'), name='match_seat_count_for_ruleset'),
        ),
        migrations.AddConstraint(
            model_name='seat',
            constraint=models.CheckConstraint(condition=models.Q(('position__lt', 6)), name='seat_position_range'),
        ),
        migrations.AddConstraint(
            model_name='tally',
            constraint=models.UniqueConstraint(condition=models.Q(('season__isnull', False)), fields=('club', 'season', 'ruleset', 'player'), name='one_tally_per_player_season_and_ruleset'),
        ),
        migrations.AddConstraint(
            model_name='tally',
            constraint=models.UniqueConstraint(condition=models.Q(('season__isnull', True)), fields=('club', 'ruleset', 'player'), name='one_tally_per_player_and_ruleset_without_season'),
        ),
    ]
