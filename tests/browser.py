"""A small headless-browser harness for the report test: Debian's chromium driven over the Chrome DevTools
Protocol, with a standard-library WebSocket client (no selenium, no playwright).

    with Browser() as b:
        page = b.load("file:///tmp/site/index.html")   # waits for the load event
        page["errors"]    # console errors, uncaught exceptions, failed resource loads
        page["links"]     # every a[href] and img/link/script src, resolved by the browser
        page["text"]      # the rendered text
        b.screenshot("index.png")
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import tempfile
import time
import urllib.request

PROBE = """(() => {
  const links = [...document.querySelectorAll('a[href]')].map(a => a.href)
    .concat([...document.querySelectorAll('img[src],script[src]')].map(e => e.src))
    .concat([...document.querySelectorAll('link[href]')].map(e => e.href));
  const images = [...document.images].map(i => [i.src, i.complete && i.naturalWidth > 0]);
  const maths = [...document.querySelectorAll('math')];
  const mathOk = maths.every(m => m.getBoundingClientRect().width > 0);
  const ids = [...document.querySelectorAll('[id]')].map(e => e.id);
  return JSON.stringify({links, images, ids, math: maths.length, mathOk, text: document.body.innerText,
                         title: document.title, height: document.documentElement.scrollHeight});
})()"""


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


class _WebSocket:
    def __init__(self, url: str, timeout: float = 60.0):
        assert url.startswith("ws://")
        hostport, path = url[5:].split("/", 1)
        host, port = hostport.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {hostport}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                           f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("websocket handshake: connection closed")
            head += chunk
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise ConnectionError(f"websocket handshake refused: {head[:80]!r}")
        self.buf = head.split(b"\r\n\r\n", 1)[1]

    def _read(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("websocket closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def send(self, text: str) -> None:
        data = text.encode()
        n = len(data)
        head = bytes([0x81])
        if n < 126:
            head += bytes([0x80 | n])
        elif n < 1 << 16:
            head += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            head += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def recv(self) -> str:
        parts = []
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            data = self._read(n)
            if mask:
                data = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
            op = b0 & 0x0F
            if op == 0x8:
                raise ConnectionError("websocket closed by the browser")
            if op in (0x9, 0xA):
                continue
            parts.append(data)
            if b0 & 0x80:
                return b"".join(parts).decode()

    def close(self) -> None:
        self.sock.close()


class Browser:
    def __init__(self, width: int = 1200, height: int = 900):
        exe = chromium()
        if exe is None:
            raise RuntimeError("chromium is not installed (Debian package: chromium)")
        self.dir = tempfile.mkdtemp(prefix="attncert-chromium-")
        self.proc = subprocess.Popen([exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                      "--allow-file-access-from-files", "--remote-debugging-port=0",
                                      f"--user-data-dir={self.dir}", f"--window-size={width},{height}", "about:blank"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.dir, "DevToolsActivePort")
        deadline = time.monotonic() + 60
        while not (os.path.exists(port_file) and open(port_file).read().count("\n") >= 1):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.close()
                raise RuntimeError("chromium did not start its DevTools endpoint")
            time.sleep(0.1)
        port = int(open(port_file).read().split("\n")[0])
        targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list", timeout=30))
        page = next(t for t in targets if t.get("type") == "page")
        self.ws = _WebSocket(page["webSocketDebuggerUrl"])
        self.next_id = 0
        self.events: list[dict] = []
        for m in ("Page.enable", "Runtime.enable", "Log.enable"):
            self.call(m)
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)

    def call(self, method: str, **params) -> dict:
        self.next_id += 1
        mid = self.next_id
        self.ws.send(json.dumps({"id": mid, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == mid:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)

    def _wait_event(self, name: str, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while not any(e["method"] == name for e in self.events):
            if time.monotonic() > deadline:
                raise TimeoutError(f"no {name} within {timeout} s")
            msg = json.loads(self.ws.recv())
            if "method" in msg:
                self.events.append(msg)

    def load(self, url: str) -> dict:
        """Loads ``url``, waits for its load event, and returns what the page shows and what went wrong."""
        self.events = []
        res = self.call("Page.navigate", url=url)
        if res.get("errorText"):
            return {"errors": [f"navigation failed: {res['errorText']}"], "links": [], "images": [], "ids": [],
                    "text": "", "math": 0, "mathOk": True}
        self._wait_event("Page.loadEventFired")
        out = json.loads(self.call("Runtime.evaluate", expression=PROBE, returnByValue=True)["result"]["value"])
        errors = []
        for e in self.events:
            p = e.get("params", {})
            if e["method"] == "Runtime.exceptionThrown":
                errors.append("exception: " + p.get("exceptionDetails", {}).get("text", ""))
            elif e["method"] == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                errors.append("console.error: " + " ".join(str(a.get("value", "")) for a in p.get("args", [])))
            elif e["method"] == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                errors.append(f"log: {p['entry'].get('text', '')} {p['entry'].get('url', '')}".strip())
        out["errors"] = errors
        return out

    def screenshot(self, path: str, full_page: bool = False) -> None:
        params = {"format": "png"}
        if full_page:
            params["captureBeyondViewport"] = True
        data = base64.b64decode(self.call("Page.captureScreenshot", **params)["data"])
        tmp = path + ".tmp"
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)

    def close(self) -> None:
        try:
            self.ws.close()
        except Exception:  # noqa: BLE001 - closing down: the process is killed next
            pass
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
