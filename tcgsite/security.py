"""The Content-Security-Policy sent with every response, the admin's included."""

from django.core.exceptions import DisallowedHost
from django.utils.deprecation import MiddlewareMixin

# Scripts and styles come from the site's own files only: no inline <script>, style="",
# <style>, event-handler attributes, hx-on or eval (htmx's allowEval is off in base.html).
POLICY = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "img-src": "'self' data:",
    "connect-src": "'self'",
    "frame-ancestors": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
    "object-src": "'none'",
}


def content_security_policy(request) -> str:
    directives = dict(POLICY)
    try:
        host = request.get_host()
    except DisallowedHost:  # the 400 answering a stranger's Host needs no sockets
        host = None
    if host:
        # The site's own websockets (live play, chat), spelled out for browsers whose 'self'
        # does not cover ws: and wss:.
        directives["connect-src"] += f" ws://{host} wss://{host}"
    return "; ".join(f"{name} {sources}" for name, sources in directives.items())


class ContentSecurityPolicyMiddleware(MiddlewareMixin):
    def process_response(self, request, response):
        response.headers.setdefault("Content-Security-Policy", content_security_policy(request))
        return response
