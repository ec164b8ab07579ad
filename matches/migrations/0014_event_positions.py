"""Events take their place in the club's feed by position, numbered in commit order per club.

An event written before keeps its id as its position, so that a cursor kept from the feed
(an id, until now) still means the same place; a club's counter starts at its largest id.
"""

from django.db import migrations, models
from django.db.models import Max


def number_existing_events(apps, schema_editor):
    Club = apps.get_model("matches", "Club")
    Event = apps.get_model("matches", "Event")
    Event.objects.update(position=models.F("id"))
    for club_id, largest in Event.objects.values_list("club").annotate(Max("id")):
        Club.objects.filter(pk=club_id).update(event_position=largest)


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0013_hand_drafts"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="event_position",
            field=models.PositiveBigIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name="event",
            name="position",
            field=models.PositiveBigIntegerField(null=True),
        ),
        migrations.RunPython(number_existing_events, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="event",
            name="position",
            field=models.PositiveBigIntegerField(
                help_text="The event's place in its club's feed: the order of commits."
            ),
        ),
        migrations.RemoveIndex(model_name="event", name="event_club_id"),
        migrations.AddConstraint(
            model_name="event",
            constraint=models.UniqueConstraint(
                fields=("club", "position"), name="event_club_position"
            ),
        ),
    ]
