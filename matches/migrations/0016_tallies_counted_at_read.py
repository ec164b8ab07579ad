"""Standings are counted from the seats when a table is read: the tallies go.

Going back recreates the tallies and recounts them from the finished seats, as the services
kept them before.
"""

from django.db import migrations
from django.db.models import Count, Q, Sum


def recount(apps, schema_editor):
    Seat = apps.get_model("matches", "Seat")
    Tally = apps.get_model("matches", "Tally")
    db = schema_editor.connection.alias
    lines = (
        Seat.objects.using(db)
        .filter(match__status="finished")
        .order_by()
        .values("match__club_id", "match__season_id", "match__ruleset", "player_id")
        .annotate(
            counted=Count("pk"),
            outright=Count("pk", filter=Q(victory_points=1)),
            shared=Count("pk", filter=Q(winner=True, victory_points__lt=1)),
            shares=Sum("victory_points"),
            hands=Sum("match__hands_played"),
            outs=Sum("went_out"),
            sum_of_totals=Sum("total"),
        )
    )
    Tally.objects.using(db).bulk_create(
        Tally(
            club_id=line["match__club_id"],
            season_id=line["match__season_id"],
            ruleset=line["match__ruleset"],
            player_id=line["player_id"],
            matches_played=line["counted"],
            wins=line["outright"],
            shared_wins=line["shared"],
            victory_points=line["shares"],
            hands_played=line["hands"],
            went_out=line["outs"],
            points=line["sum_of_totals"],
        )
        for line in lines
    )


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0015_invitation_player"),
    ]

    operations = [
        migrations.RunPython(migrations.RunPython.noop, recount),
        migrations.DeleteModel(name="Tally"),
    ]
