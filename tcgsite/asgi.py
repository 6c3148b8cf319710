import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tcgsite.settings")
# Django is set up before anything imports models (the routing's consumers and auth do).
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter  # noqa: E402

from tcgsite.embedded import start_embedded_beat  # noqa: E402
from tcgsite.jobs import background_start  # noqa: E402
from tcgsite.routing import websocket_application, websocket_urlpatterns  # noqa: E402
from tcgsite.serving import interpreter_tune_for_serving  # noqa: E402

application = ProtocolTypeRouter(
    {"http": django_asgi_app, "websocket": websocket_application(websocket_urlpatterns)}
)

start_embedded_beat()
background_start()
interpreter_tune_for_serving()
