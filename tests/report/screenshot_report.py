"""Open the Snakemake report in headless Chromium, click through it, and save screenshots.

Not part of the test suite (it needs a browser): the issue's check that the report opens in
a browser. Usage, after a workflow run:

    snakemake --report results/report.html
    apt-get install chromium && pip install playwright
    python tests/report/screenshot_report.py results/report.html results/report_screens

Writes home.png and one PNG per report entry (category, then the entry opened), and exits
non-zero when the page shows no result category or a category lists no entry.
"""

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

BROWSER = "/usr/bin/chromium"


def main(report, out_dir):
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    url = Path(report).resolve().as_uri()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(url)
        page.wait_for_selector("text=RESULTS", timeout=30000)
        page.screenshot(path=out / "home.png")
        categories = [c for c in page.locator("text=RESULTS >> xpath=following::a").all_inner_texts() if c.strip()]
        if not categories:
            print("no result category in the report", file=sys.stderr)
            return 1
        failed, shots = [], 0
        for name in categories:
            page.goto(url)
            page.wait_for_selector("text=RESULTS")
            page.get_by_text(name, exact=True).first.click()
            page.wait_for_timeout(500)
            rows = page.locator("tr", has=page.locator("a[iconname=eye]"))
            if rows.count() == 0:
                failed.append(name)
                continue
            for i in range(rows.count()):
                row = rows.nth(i)
                label = " ".join(row.locator("td").all_inner_texts()[:2])
                row.locator("a[iconname=eye]").first.click()
                page.wait_for_timeout(1500)
                page.screenshot(path=out / f"{_slug(name)}__{_slug(label)}.png")
                shots += 1
        browser.close()
    print(f"{len(categories)} categories ({', '.join(categories)}), {shots} entries opened; screenshots in {out}")
    if failed:
        print(f"categories without entries: {failed}", file=sys.stderr)
        return 1
    return 0


def _slug(name):
    return "".join(ch if ch.isalnum() else "_" for ch in name).strip("_").lower()


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
