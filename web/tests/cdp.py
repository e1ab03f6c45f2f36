"""Headless Chromium over the DevTools protocol, for the Sudoku page's browser test
(browser_test.py) and measurements (measure.py). Python's standard library only.

Chromium runs with --remote-debugging-pipe: the protocol's JSON messages, each
ended by a NUL byte, go to it on its file descriptor 3 and come back on 4, so no
WebSocket client is needed. A local HTTP server serves the built site under
/site/ and records every path asked of it; the page's and its workers' requests,
console messages and exceptions are recorded from the protocol's events.
"""

import fcntl
import http.server
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-pipe",
    "--window-size=1280,900",
]


def chromium_path():
    """The Chromium to run: ALLDIFF_CHROMIUM, or chromium on PATH."""
    return os.environ.get("ALLDIFF_CHROMIUM") or shutil.which("chromium") or shutil.which(
        "chromium-browser"
    )


class Server:
    """Serves `folder` at http://127.0.0.1:PORT/site/, and records every path asked."""

    def __init__(self, folder):
        requested = self.requested = []

        class Handler(http.server.SimpleHTTPRequestHandler):
            extensions_map = {
                **http.server.SimpleHTTPRequestHandler.extensions_map,
                ".wasm": "application/wasm",
                ".js": "text/javascript",
            }

            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=folder, **kwargs)

            def translate_path(self, path):
                requested.append(path)
                if not path.startswith("/site/"):
                    return os.path.join(folder, "\0outside")  # a 404
                return super().translate_path(path[len("/site") :])

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = "http://127.0.0.1:%d/site/" % self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


class Browser:
    """One headless Chromium with one page; `call` sends a command to the page."""

    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="alldiff-web-chromium-")
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def fds():
            # Out of the way first, so that the two moves cannot clobber each other.
            a = fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [chromium] + FLAGS + ["--user-data-dir=" + self.profile, "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=fds,
            pass_fds=(3, 4),
        )
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._next = 0
        self._replies = {}
        self._cond = threading.Condition()
        self.events = queue.Queue()
        self.console_errors = []
        self.requests = []
        self.workers = []
        threading.Thread(target=self._read, daemon=True).start()
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        self.session = self.send(
            "Target.attachToTarget", {"targetId": target, "flatten": True}
        )["sessionId"]
        self._watch(self.session)
        self.call("Page.enable")
        self.call(
            "Target.setAutoAttach",
            {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True},
        )

    def _watch(self, session):
        for method in ("Runtime.enable", "Log.enable", "Network.enable"):
            self.send(method, {}, session)

    def _read(self):
        buffer = b""
        while True:
            try:
                chunk = os.read(self._from_chrome, 1 << 16)
            except OSError:
                chunk = b""
            if not chunk:
                with self._cond:
                    self._closed = True
                    self._cond.notify_all()
                return
            buffer += chunk
            while b"\0" in buffer:
                raw, buffer = buffer.split(b"\0", 1)
                message = json.loads(raw)
                if "id" in message:
                    with self._cond:
                        self._replies[message["id"]] = message
                        self._cond.notify_all()
                else:
                    self._event(message)

    def _event(self, message):
        method = message.get("method")
        params = message.get("params", {})
        if method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            text = details.get("exception", {}).get("description") or details.get("text")
            self.console_errors.append("exception: %s" % text)
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            args = [a.get("value", a.get("description", "")) for a in params.get("args", [])]
            self.console_errors.append("console.%s: %s" % (params["type"], args))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            self.console_errors.append("log: %s (%s)" % (params["entry"].get("text"), params["entry"].get("url", "")))
        elif method == "Network.requestWillBeSent":
            self.requests.append(params["request"]["url"])
        elif method == "Target.attachedToTarget":
            session = params["sessionId"]
            self.workers.append(params["targetInfo"].get("type"))
            # Workers: their console, exceptions and requests too. Sent from a
            # thread of its own: this one must go on reading the replies.
            threading.Thread(target=self._watch, args=(session,), daemon=True).start()
        self.events.put(message)

    def send(self, method, params=None, session=None, wait=True, timeout=120):
        with self._cond:
            self._next += 1
            ident = self._next
        message = {"id": ident, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        if not wait:
            return None
        deadline = time.monotonic() + timeout
        with self._cond:
            while ident not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0 or getattr(self, "_closed", False):
                    raise TimeoutError("no answer to %s" % method)
                self._cond.wait(left)
            reply = self._replies.pop(ident)
        if "error" in reply:
            raise RuntimeError("%s: %s" % (method, reply["error"]))
        return reply.get("result", {})

    def call(self, method, params=None, timeout=120):
        return self.send(method, params, self.session, timeout=timeout)

    def eval(self, expression, timeout=120):
        """The value of a JavaScript expression in the page (promises awaited)."""
        result = self.call(
            "Runtime.evaluate",
            {"expression": expression, "awaitPromise": True, "returnByValue": True},
            timeout=timeout,
        )
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise RuntimeError(
                "page script failed: %s"
                % details.get("exception", {}).get("description", details.get("text"))
            )
        return result["result"].get("value")

    def wait_for(self, expression, timeout=60):
        """Polls a JavaScript expression until it is truthy; its value."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                value = self.eval(expression)
            except RuntimeError:
                value = None  # the page is still loading
            if value:
                return value
            if time.monotonic() > deadline:
                raise TimeoutError("waited %s s for %s" % (timeout, expression))
            time.sleep(0.05)

    def navigate(self, url):
        self.call("Page.navigate", {"url": url})

    def close(self):
        try:
            self.send("Browser.close", wait=False)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        shutil.rmtree(self.profile, ignore_errors=True)
