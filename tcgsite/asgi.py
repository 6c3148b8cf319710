import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from tcgsite.embedded import start_embedded_beat  # noqa: E402

application = ProtocolTypeRouter({"http": django_asgi_app})

start_embedded_beat()
