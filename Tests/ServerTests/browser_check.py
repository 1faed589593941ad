"""Drives `screenlab serve` in Debian's Chromium through Playwright, as a user would, and prints
what it saw as one JSON object (the XCTest in BrowserTests.swift checks it).

usage: python3 browser_check.py URL RUN_A RUN_B SCREENSHOT_FOLDER CHROMIUM_PATH

Steps: the runs table (both runs listed; filter; tick both; Compare), a run page (click the
first confusion cell with entries; its screens load), the threshold picker (move the first
class's slider; P/R change; Save; the answer names the new weights file). A screenshot of each
page goes to SCREENSHOT_FOLDER.
"""
import json
import sys

from playwright.sync_api import sync_playwright

url, run_a, run_b, shots, chromium = sys.argv[1:6]
seen = {}

with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))

    # The runs table: both runs, the filter hides one, ticking both enables Compare.
    page.goto(url)
    seen["runs_listed"] = page.eval_on_selector_all("#runs tbody tr", "rows => rows.map(r => r.dataset.runId)")
    # Filter by an id the other does not contain: two runs started in the same second by one
    # process get ID and ID-2, and the filter matches parts of ids.
    filtered = run_b if run_a in run_b else run_a
    seen["filtered_by"] = filtered
    page.fill("#filter", filtered)
    seen["visible_after_filter"] = page.eval_on_selector_all("#runs tbody tr:not([hidden])", "rows => rows.map(r => r.dataset.runId)")
    page.fill("#filter", "")
    page.screenshot(path=f"{shots}/runs.png", full_page=True)
    page.check(f"input.pick[value='{run_a}']")
    page.check(f"input.pick[value='{run_b}']")
    seen["compare_enabled"] = page.is_enabled("#compare")
    page.click("#compare")
    page.wait_for_selector("#compared")
    seen["compared"] = page.get_attribute("#compared", "data-runs")
    seen["compare_has_table"] = page.locator("table").count() > 0
    page.screenshot(path=f"{shots}/compare.png", full_page=True)

    # A run page: the first confusion cell with entries opens its screens.
    page.goto(f"{url}runs/{run_a}?split=test")
    cell = page.locator("#confusion td.cell a").first
    seen["cell"] = {
        "truth": cell.evaluate("a => a.parentElement.dataset.truth"),
        "predicted": cell.evaluate("a => a.parentElement.dataset.predicted"),
        "count": int(cell.evaluate("a => a.parentElement.dataset.count")),
    }
    page.screenshot(path=f"{shots}/run.png", full_page=True)
    cell.click()
    page.wait_for_selector("#examples-summary")
    seen["examples_entries"] = int(page.get_attribute("#examples-summary", "data-entries"))
    page.wait_for_function("() => [...document.querySelectorAll('.screens img')].every(i => i.complete && i.naturalWidth > 0)")
    seen["examples_images"] = page.locator(".screens img").count()
    page.screenshot(path=f"{shots}/examples.png", full_page=True)

    # The picker: move the first class's point; its figures change; Save.
    page.goto(f"{url}runs/{run_a}/thresholds")
    page.wait_for_selector("#picker[data-ready=true]")
    card = page.locator(".card:not(.none)").first
    name = card.get_attribute("data-class")
    before = {k: card.get_attribute(f"data-{k}") for k in ["confidence", "precision", "recall", "kept"]}
    slider = card.locator("input[type=range]")
    slider.evaluate("s => { s.value = s.max; s.dispatchEvent(new Event('input')); }")
    after = {k: card.get_attribute(f"data-{k}") for k in ["confidence", "precision", "recall", "kept", "shown-precision"]}
    seen["picker"] = {"class": name, "before": before, "after": after}
    page.screenshot(path=f"{shots}/thresholds.png", full_page=True)
    page.click("#save")
    page.wait_for_selector("#save-result.saved, #save-result.error")
    seen["saved_weights"] = page.get_attribute("#save-result", "data-weights")
    seen["saved_text"] = page.inner_text("#save-result")
    seen["page_errors"] = errors
    browser.close()

print(json.dumps(seen))
