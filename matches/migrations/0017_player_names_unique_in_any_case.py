"""A club's player names are unique whatever their case: "Ann" and "ann" are one name.

At a table two players named "Ann" and "ann" cannot be told apart on a score sheet, a tab or a
standings line. Names that differ only in case and already exist are kept apart first: the
player created later gets a number after the name ("ann (2)"), which an owner can change.
Going back drops the rule and leaves the names as they are.
"""

from django.db import migrations, models
from django.db.models.functions import Lower

LONGEST = 100  # Player.name's max_length


def number_the_later_twins(apps, schema_editor):
    Player = apps.get_model("matches", "Player")
    db = schema_editor.connection.alias
    players = list(Player.objects.using(db).order_by("club_id", "id").only("club_id", "name"))
    names = {(p.club_id, p.name.lower()) for p in players}  # a new name takes none of these
    kept: set[tuple[int, str]] = set()
    for player in players:
        key = (player.club_id, player.name.lower())
        if key not in kept:
            kept.add(key)
            continue
        n = 2
        while True:
            suffix = f" ({n})"
            name = player.name[: LONGEST - len(suffix)] + suffix
            if (player.club_id, name.lower()) not in names:
                break
            n += 1
        names.add((player.club_id, name.lower()))
        kept.add((player.club_id, name.lower()))
        Player.objects.using(db).filter(pk=player.pk).update(name=name)


class Migration(migrations.Migration):
    dependencies = [("matches", "0016_tallies_counted_at_read")]

    operations = [
        migrations.RunPython(number_the_later_twins, migrations.RunPython.noop, elidable=True),
        migrations.RemoveConstraint(model_name="player", name="player_name_unique_in_club"),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                Lower("name"), "club", name="player_name_unique_in_club_any_case"
            ),
        ),
    ]
