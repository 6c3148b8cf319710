from django.db import migrations

TASK = "tournaments.sprint_calendar"


def schedule(apps, schema_editor):
    CrontabSchedule = apps.get_model("django_celery_beat", "CrontabSchedule")
    PeriodicTask = apps.get_model("django_celery_beat", "PeriodicTask")
    # 23:55 UTC: the last weekday's Sprint tournaments have ended before its medals are given.
    five_to_midnight, _ = CrontabSchedule.objects.get_or_create(
        minute="55",
        hour="23",
        day_of_week="*",
        day_of_month="*",
        month_of_year="*",
        timezone="UTC",
    )
    PeriodicTask.objects.get_or_create(
        name="Give the month's Sprint Winner Medals on its last weekday",
        defaults={"task": TASK, "crontab": five_to_midnight},
    )


def unschedule(apps, schema_editor):
    apps.get_model("django_celery_beat", "PeriodicTask").objects.filter(task=TASK).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0002_schedule_sweep"),
        ("django_celery_beat", "0019_alter_periodictasks_options"),
    ]

    operations = [migrations.RunPython(schedule, unschedule)]
