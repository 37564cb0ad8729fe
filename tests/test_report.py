"""`attncert report`: the page has one table per family, the errata, the bounds and the plots; in a real
headless browser (Debian's chromium, when installed) the page loads and every image appears."""

from __future__ import annotations

import html.parser
import io
import json
import shutil
import subprocess

import pytest


class _Tags(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.imgs, self.ids = {}, [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "img":
            self.imgs.append(a.get("src"))
        if "id" in a:
            self.ids.append(a["id"])


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    from attncert.cli import run

    out = tmp_path_factory.mktemp("report")
    err = io.StringIO()
    assert run(["report", "ks_theorems", "--out", str(out)], io.StringIO(), err) == 0, err.getvalue()
    return out


def test_report_structure(page):
    p = _Tags()
    p.feed((page / "index.html").read_text())
    assert {"summary", "paper-ks", "ks_theorems", "errata", "bounds", "plots"} <= set(p.ids)
    assert p.tags["table"] >= 4 and p.imgs
    for src in p.imgs:
        assert (page / src).is_file()
    text = (page / "index.html").read_text()
    assert "REFUTED (erratum)" in text and "<script" not in text


@pytest.mark.skipif(shutil.which("chromium") is None, reason="Debian's chromium is not installed")
def test_report_in_headless_chromium(page):
    (page / "harness.html").write_text(
        "<!DOCTYPE html><html><body><iframe id='f' src='index.html'></iframe><script>"
        "window.addEventListener('load',()=>{const d=document.getElementById('f').contentDocument;"
        "const r={images:[...d.images].map(i=>[i.getAttribute('src'),i.complete&&i.naturalWidth>0]),"
        "tables:d.querySelectorAll('table').length,ids:[...d.querySelectorAll('[id]')].map(e=>e.id)};"
        "document.body.setAttribute('data-result',JSON.stringify(r));});</script></body></html>")
    for _attempt in range(3):   # under heavy load chromium can dump the DOM before the load handler ran
        r = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                            "--virtual-time-budget=20000", "--dump-dom", f"file://{page}/harness.html"],
                           capture_output=True, text=True, timeout=120)
        if 'data-result="' in r.stdout:
            break
    assert 'data-result="' in r.stdout, (r.stdout[-500:], r.stderr[-500:])
    start = r.stdout.index('data-result="') + len('data-result="')
    res = json.loads(html.unescape(r.stdout[start:r.stdout.index('"', start)]))
    assert res["images"] and all(ok for _, ok in res["images"]), res["images"]
    assert res["tables"] >= 4 and {"summary", "errata", "bounds", "plots"} <= set(res["ids"])
