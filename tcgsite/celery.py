import os

from celery import Celery, current_app

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")

app = Celery("tcgsite")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def task_named(name: str):
    """The task ``name``, to run in this process (the embedded default's eager tasks). The
    apps' task modules are imported first, as a worker does at start-up, only while it is not
    registered yet: the import runs Django's system checks every time, tens of milliseconds,
    which every computer turn and every tournament result used to pay."""
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()
    return current_app.tasks[name]
