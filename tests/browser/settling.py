"""Waiting until a page has settled, by its state rather than by a quiet spell.

Playwright's "networkidle" waits for half a second without a request after the last one, on
every page: half a minute of a walk through the site. A page of the site has settled once it
has loaded, htmx has no request, swap or settle under way (the fragments a page loads as it is
shown, such as the next page of a list that intersects the window), every request the page
made has finished, and its sockets have opened, those other than the presence socket with the
state their server sends first (a lobby's chat and User List, the playmat, the Trade Screen).
"""

import time

# Before the page's own scripts: which sockets have opened, and which have had a message.
WATCH_SOCKETS = """
window.__sockets = {opened: new WeakSet(), answered: new WeakSet()};
for (const [event, sets] of [
  ["htmx:wsOpen", ["opened"]],
  ["htmx:wsAfterMessage", ["opened", "answered"]],
  ["htmx:wsClose", ["opened", "answered"]],
  ["htmx:wsError", ["opened", "answered"]],
]) {
  document.addEventListener(event, (e) => {
    const socket = e.target.closest && e.target.closest("[ws-connect]");
    if (socket) sets.forEach((set) => window.__sockets[set].add(socket));
  }, true);
}
"""

# What the page is still doing, looked at after two animation frames: the first lets the
# intersection observers see the page, the second lets what they start begin.
STILL_DOING = """async () => {
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const doing = [];
  if (document.readyState !== "complete") doing.push("loading");
  for (const busy of document.querySelectorAll(".htmx-request, .htmx-swapping, .htmx-settling")) {
    doing.push(`htmx on <${busy.tagName.toLowerCase()} id=${busy.id}>`);
  }
  const sockets = window.__sockets;
  for (const socket of sockets ? document.querySelectorAll("[ws-connect]") : []) {
    const address = socket.getAttribute("ws-connect");
    if (!sockets.opened.has(socket)) doing.push(`opening ${address}`);
    else if (!address.startsWith("/ws/presence/") && !sockets.answered.has(socket)) {
      doing.push(`waiting for the state from ${address}`);
    }
  }
  return doing;
}"""


class Settling:
    """Follows a page's requests; ``wait()`` returns once the page has settled."""

    def __init__(self, page):
        self.page = page
        self.requests = set()
        page.add_init_script(WATCH_SOCKETS)
        page.on("request", lambda request: self.requests.add(request))
        page.on("requestfinished", lambda request: self.requests.discard(request))
        page.on("requestfailed", lambda request: self.requests.discard(request))

    def wait(self, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while True:
            doing = self.page.evaluate(STILL_DOING)
            doing += [f"{request.method} {request.url}" for request in self.requests]
            if not doing:
                return
            assert time.monotonic() < deadline, f"{self.page.url} did not settle: {doing}"
