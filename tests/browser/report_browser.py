"""The report in a real browser (issue 21 item 4): headless Chromium through Selenium and chromium-driver.

  report_browser.py SITE [--screenshots DIR] [--all-pages]

Checks, on the site `gibench report` wrote:
  - every link and image of every page resolves to a file of the site (statically, all pages);
  - each page type (index, paper, leaderboard, method, problem) loads without console errors, and the densest
    leaderboard too (every page with --all-pages);
  - on a leaderboard page the two interactive plots have drawn their traces, hovering is wired (plotly's hover
    layer is there), a family checkbox removes that family's traces from the plot and its rows from the tables,
    and "best of each family only" leaves one trace per family;
  - a screenshot of each page type is not blank (its pixels are not one colour).
Exit 0 when all hold, 1 with one line per failure otherwise. One browser session for everything.
"""

import argparse
import glob
import io
import os
import sys
from html.parser import HTMLParser
from urllib.parse import unquote, urlsplit

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

FAILURES = []


def fail(msg):
    FAILURES.append(msg)
    print("FAIL: " + msg)


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.targets = []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for key in ("href", "src"):
            if key in a and a[key]:
                self.targets.append(a[key])


def check_links(site):
    pages = sorted(glob.glob(os.path.join(site, "**", "*.html"), recursive=True))
    n = 0
    for page in pages:
        parser = Links()
        with open(page, encoding="utf-8") as f:
            parser.feed(f.read())
        for t in parser.targets:
            u = urlsplit(t)
            if u.scheme or u.netloc:
                fail("%s links outside the site: %s" % (os.path.relpath(page, site), t))
                continue
            if not u.path:  # "#anchor" on the same page
                continue
            path = os.path.normpath(os.path.join(os.path.dirname(page), unquote(u.path)))
            n += 1
            if not os.path.isfile(path):
                fail("%s: broken link %s" % (os.path.relpath(page, site), t))
            elif u.fragment and path.endswith(".html"):
                with open(path, encoding="utf-8") as f:
                    if ('id="%s"' % u.fragment) not in f.read():
                        fail("%s: link %s names no element of that page" % (os.path.relpath(page, site), t))
    return pages, n


def browser():
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1400,1000",
              "--allow-file-access-from-files"):
        opts.add_argument(a)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=opts)


def load(driver, site, rel):
    driver.get("file://" + os.path.abspath(os.path.join(site, rel)))
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return document.readyState") == "complete")
    errors = [e for e in driver.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]
    for e in errors:
        fail("%s: console error: %s" % (rel, e.get("message", "")[:300]))


def not_blank(driver, rel, shots):
    from PIL import Image, ImageStat
    png = driver.get_screenshot_as_png()
    img = Image.open(io.BytesIO(png)).convert("L")
    img = img.crop((0, 60, img.width, img.height))  # below the header bar, which every page has
    lo, hi = img.getextrema()
    spread = ImageStat.Stat(img).stddev[0]
    if hi - lo < 64 or spread < 5:
        fail("%s: the screenshot is blank (grey levels %d..%d, stddev %.1f)" % (rel, lo, hi, spread))
    if shots:
        os.makedirs(shots, exist_ok=True)
        with open(os.path.join(shots, rel.replace("/", "_").replace(".html", ".png")), "wb") as f:
            f.write(png)


def traces(driver, div):
    return driver.execute_script(
        "return Array.prototype.map.call(document.querySelectorAll('#%s .scatterlayer .trace'),"
        " function (t) { return t.__data__ && t.__data__[0] && t.__data__[0].trace ? t.__data__[0].trace.meta : null; });" % div)


def check_leaderboard(driver, rel):
    try:
        WebDriverWait(driver, 20).until(lambda d: len(traces(d, "wp")) > 0 and len(traces(d, "conv")) > 0)
    except TimeoutException:
        fail("%s: the interactive plots drew no trace within 20 s" % rel)
        return
    data = driver.execute_script("return JSON.parse(document.getElementById('plot-data').textContent);")
    family_of = {m["id"]: m["family"] for m in data["methods"]}
    with_points = {m["id"] for m in data["methods"] if any(v is not None for v in m["err"].get(data["metric"], []))}
    before = [t for t in traces(driver, "wp") if t != "front"]
    if set(before) != with_points:
        fail("%s: the work-precision plot draws %d methods, the data has %d with points" % (rel, len(set(before)), len(with_points)))
    if not driver.find_elements(By.CSS_SELECTOR, "#wp .hoverlayer"):
        fail("%s: no hover layer on the work-precision plot" % rel)
    if not driver.find_elements(By.CSS_SELECTOR, "#wp .xaxislayer-above .xtick") or \
       driver.execute_script("return document.getElementById('wp').layout.xaxis.type") != "log":
        fail("%s: the work-precision plot has no log x axis" % rel)
    boxes = driver.find_elements(By.CSS_SELECTOR, "#family-filter input.family")
    fams = [b.get_attribute("value") for b in boxes]
    # The family with the most methods on the plot: unticking it must remove exactly its traces and table rows.
    target = max(fams, key=lambda f: (sum(1 for m in before if family_of[m] == f), f))
    rows_before = len([r for r in driver.find_elements(By.CSS_SELECTOR, "table.leaderboard tbody tr") if r.is_displayed()])
    boxes[fams.index(target)].click()
    after = [t for t in traces(driver, "wp") if t != "front"]
    expect = [m for m in before if family_of[m] != target]
    if sorted(after) != sorted(expect):
        fail("%s: unticking family %s left %d traces, expected %d" % (rel, target, len(after), len(expect)))
    rows_after = len([r for r in driver.find_elements(By.CSS_SELECTOR, "table.leaderboard tbody tr") if r.is_displayed()])
    hidden = len(driver.find_elements(By.CSS_SELECTOR, 'table.leaderboard tbody tr[data-family="%s"]' % target))
    if rows_after != rows_before - hidden or hidden == 0:
        fail("%s: unticking family %s showed %d table rows of %d (its rows: %d)" % (rel, target, rows_after, rows_before, hidden))
    boxes[fams.index(target)].click()
    driver.find_element(By.ID, "best-only").click()
    best = [t for t in traces(driver, "wp") if t != "front"]
    fam_with_points = {family_of[m] for m in before}
    if len(best) != len(fam_with_points) or {family_of[m] for m in best} != fam_with_points:
        fail("%s: best of each family shows %d traces for %d families" % (rel, len(best), len(fam_with_points)))
    driver.find_element(By.ID, "best-only").click()
    # Another error metric redraws both plots with its values.
    options = [o.get_attribute("value") for o in driver.find_elements(By.CSS_SELECTOR, "#metric option")]
    other = next((o for o in options if o != data["metric"]), None)
    if other:
        driver.execute_script("var s = document.getElementById('metric'); s.value = arguments[0];"
                              "s.dispatchEvent(new Event('change'));", other)
        title = driver.execute_script("return document.getElementById('conv').layout.yaxis.title.text")
        if title != other:
            fail("%s: choosing metric %s left the convergence axis at %s" % (rel, other, title))
        driver.execute_script("var s = document.getElementById('metric'); s.value = arguments[0];"
                              "s.dispatchEvent(new Event('change'));", data["metric"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("site")
    ap.add_argument("--screenshots")
    ap.add_argument("--all-pages", action="store_true")
    args = ap.parse_args()
    site = args.site
    pages, n = check_links(site)
    rels = [os.path.relpath(p, site) for p in pages]
    print("links: %d pages, %d links and images checked" % (len(pages), n))
    by_type = {}
    for r in rels:
        by_type.setdefault(os.path.dirname(r) or "index", []).append(r)
    for t in ("index", "papers", "leaderboards", "methods", "problems"):
        if t not in by_type:
            fail("the site has no %s page" % t)
    # One page of each type, and the leaderboard with the most methods (the densest plots and tables); every page with
    # --all-pages. Each leaderboard page parses plotly.js (8.6 MB): all eight cost 20 s of the CI budget.
    boards = by_type.get("leaderboards", [])
    densest = max(boards, key=lambda r: (os.path.getsize(os.path.join(site, r)), r)) if boards else None
    visit = rels if args.all_pages else sorted({v[0] for v in by_type.values()} | ({densest} if densest else set()))
    driver = browser()
    try:
        first_of_type = {v[0] for v in by_type.values()}
        for rel in visit:
            load(driver, site, rel)
            if rel.startswith("leaderboards/"):
                check_leaderboard(driver, rel)
                load_errors = [e for e in driver.get_log("browser") if e.get("level") in ("SEVERE", "ERROR")]
                for e in load_errors:
                    fail("%s: console error while filtering: %s" % (rel, e.get("message", "")[:300]))
            if rel in first_of_type:
                not_blank(driver, rel, args.screenshots)
        print("browser: %d pages loaded" % len(visit))
    finally:
        driver.quit()
    if FAILURES:
        print("%d failure(s)" % len(FAILURES))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
