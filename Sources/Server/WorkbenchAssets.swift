/// The workbench's style sheet and script, built into the binary so `screenlab serve` runs from
/// any folder. Hand-written, no build step: the script sorts and filters tables, refreshes
/// running runs, and runs the threshold picker; every number it shows is also in a `data-*`
/// attribute for the browser tests.
enum WorkbenchAssets {
    static let css = #"""
    :root { --ink:#1d2430; --muted:#667085; --line:#e4e7ec; --accent:#2f6fde; --ok:#1f9d55; --err:#d64545; --bg:#fafbfc; }
    * { box-sizing: border-box; }
    body { margin:0; font:14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color:var(--ink); background:var(--bg); }
    nav.top { display:flex; gap:18px; align-items:center; padding:10px 24px; background:#16202e; }
    nav.top a { color:#d6e2f5; text-decoration:none; } nav.top a.brand { color:#fff; font-weight:600; }
    main, body > h1, body > h2, body > table, body > p, body > div, body > ul { margin-left:24px; margin-right:24px; }
    main { padding:8px 0 40px; max-width:1400px; }
    h1 small, h3 small { color:var(--muted); font-weight:normal; font-size:60%; }
    a { color:var(--accent); }
    table { border-collapse:collapse; background:#fff; }
    th, td { border-bottom:1px solid var(--line); padding:5px 9px; text-align:left; vertical-align:top; }
    th { background:#f2f4f7; font-weight:600; white-space:nowrap; }
    td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; }
    table.sortable th[data-key] { cursor:pointer; } table.sortable th.sorted-asc::after { content:" ▲"; } table.sortable th.sorted-desc::after { content:" ▼"; }
    .toolbar { display:flex; gap:10px; align-items:center; flex-wrap:wrap; margin:10px 0; }
    .toolbar input[type=search] { width:320px; padding:5px 8px; } .spacer { flex:1; }
    button, a.button { padding:5px 12px; border:1px solid #c9d1dd; border-radius:5px; background:#fff; cursor:pointer; color:var(--ink); text-decoration:none; font-size:13px; }
    button.primary { background:var(--accent); color:#fff; border-color:var(--accent); } button:disabled { opacity:.5; cursor:default; }
    .status { padding:1px 7px; border-radius:9px; font-size:12px; background:#eef1f5; }
    .status.running { background:#e3efff; color:#1849a9; } .status.finished { background:#e3f6ea; color:#146c3a; }
    .status.failed { background:#fde8e8; color:#a32020; } .status.interrupted { background:#fff4de; color:#8a5a00; }
    .muted { color:var(--muted); } .error { color:var(--err); font-size:15px; }
    table.facts th { text-align:right; background:none; color:var(--muted); font-weight:normal; }
    .grid { display:flex; flex-wrap:wrap; gap:10px; } .grid figure { margin:0; background:#fff; border:1px solid var(--line); }
    .grid svg { width:460px; height:auto; display:block; }
    .scroll { overflow-x:auto; }
    table.confusion td.cell { text-align:center; min-width:38px; }
    table.confusion td.cell.ok { background:rgba(31,157,85,calc(var(--share,0)*0.6)); }
    table.confusion td.cell.err { background:rgba(214,69,69,calc(var(--share,0)*0.9 + 0.06)); }
    table.confusion th.rot { height:110px; vertical-align:bottom; } table.confusion th.rot span { writing-mode:vertical-rl; transform:rotate(180deg); }
    pre.config { background:#fff; border:1px solid var(--line); padding:10px; max-height:420px; overflow:auto; }
    .screens { display:flex; flex-wrap:wrap; gap:12px; } .screens figure { margin:0; background:#fff; border:1px solid var(--line); padding:6px; }
    .screens img { height:520px; display:block; } .screens figcaption { color:var(--muted); font-size:12px; }
    .cards { display:grid; grid-template-columns:repeat(auto-fill, minmax(330px, 1fr)); gap:12px; }
    .card { background:#fff; border:1px solid var(--line); border-radius:6px; padding:10px; }
    .card h3 { margin:0 0 4px; font-size:15px; } .card svg { width:100%; height:auto; cursor:crosshair; }
    .card input[type=range] { width:100%; } .card table { width:100%; font-size:12.5px; } .card td, .card th { padding:2px 5px; }
    .card.none { opacity:.6; }
    """#

    static let script = #"""
    "use strict";
    const $ = (s, root = document) => root.querySelector(s), $$ = (s, root = document) => [...root.querySelectorAll(s)];
    const fmt = (v, d = 3) => (v === null || v === undefined || !isFinite(v)) ? "—" : Number(v).toFixed(d);

    // Sortable tables: a click on a header sorts by that column's data-value (numbers numerically, empty last).
    for (const table of $$("table.sortable")) {
      for (const th of $$("th[data-key]", table)) {
        th.addEventListener("click", () => {
          const key = th.dataset.key, descending = !th.classList.contains("sorted-desc");
          $$("th", table).forEach(h => h.classList.remove("sorted-asc", "sorted-desc"));
          th.classList.add(descending ? "sorted-desc" : "sorted-asc");
          const body = table.tBodies[0], rows = [...body.rows];
          const value = r => { const c = r.querySelector(`td[data-key="${key}"]`); return c ? c.dataset.value : ""; };
          rows.sort((a, b) => {
            const x = value(a), y = value(b);
            if (x === "" || y === "") return x === y ? 0 : x === "" ? 1 : -1;
            const nx = Number(x), ny = Number(y);
            const order = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
            return descending ? -order : order;
          });
          rows.forEach(r => body.appendChild(r));
        });
      }
    }

    // The runs table: filter, tick to compare, refresh running runs.
    const runs = $("#runs");
    if (runs) {
      const filter = $("#filter"), status = $("#status-filter"), compare = $("#compare");
      const apply = () => {
        const text = filter.value.trim().toLowerCase(), wanted = status.value;
        for (const row of runs.tBodies[0].rows) {
          const matches = (!text || row.dataset.runId.toLowerCase().includes(text) || row.dataset.experiment.toLowerCase().includes(text))
            && (!wanted || row.dataset.status === wanted);
          row.hidden = !matches;
        }
      };
      filter.addEventListener("input", apply); status.addEventListener("change", apply);
      const ticked = () => $$("input.pick:checked", runs).map(b => b.value);
      runs.addEventListener("change", () => { const n = ticked().length; compare.disabled = n < 2 || n > 8; compare.textContent = `Compare ticked runs (${n})`; });
      compare.addEventListener("click", () => { location.href = "/compare?runs=" + ticked().map(encodeURIComponent).join(","); });
      const refresh = async () => {
        if (!$$("tr[data-status=running]", runs).length) return;
        try {
          const rows = await (await fetch("/api/runs")).json();
          for (const r of rows) {
            const tr = runs.querySelector(`tr[data-run-id="${CSS.escape(r.id)}"]`);
            if (!tr) continue;
            tr.dataset.status = r.status;
            const set = (key, value, text) => { const c = tr.querySelector(`td[data-key="${key}"]`); if (c) { c.dataset.value = value ?? ""; c.innerHTML = text; } };
            set("status", r.status, `<span class="status ${r.status}">${r.status}</span>`);
            set("epochs", r.epochs_done, r.epochs_done + (r.epochs_planned ? " / " + r.epochs_planned : ""));
            set("val_map50", r.val_map50, fmt(r.val_map50)); set("test_map50", r.test_map50, fmt(r.test_map50));
            set("test_weighted_map50", r.test_weighted_map50, fmt(r.test_weighted_map50)); set("test_map_center", r.test_map_center, fmt(r.test_map_center));
            set("images_per_second", r.images_per_second, fmt(r.images_per_second, 1));
          }
        } catch (e) { /* the next tick tries again */ }
      };
      setInterval(refresh, 3000);
    }

    // The threshold picker.
    const picker = $("#picker");
    if (picker) {
      const run = picker.dataset.run, split = picker.dataset.split, shown = picker.dataset.shown;
      const query = `split=${encodeURIComponent(split)}` + (shown ? `&shown=${encodeURIComponent(shown)}` : "");
      const cards = [];
      const W = 300, H = 220, L = 36, B = 28, T = 8, R = 8;
      const x = r => L + r * (W - L - R), y = p => T + (1 - p) * (H - T - B);

      // A class's card; `points` rows: [conf, tp, fp, p, r, f1, (shown) tp, fp, p, r, f1], high → low confidence.
      function card(c) {
        const el = document.createElement("div");
        el.className = "card"; el.dataset.class = c.name;
        if (!c.points.length) {
          el.classList.add("none");
          el.innerHTML = `<h3>${escapeHTML(c.name)}</h3><p class="muted">${c.ground_truth ? "no detections" : "no boxes"} on ${escapeHTML(split)}: no threshold</p>`;
          return { el, c, index: -1, confidence: () => null, select() {} };
        }
        const path = c.points.map(q => `${x(q[4]).toFixed(1)},${y(q[3]).toFixed(1)}`).join(" ");
        const ticks = [0, .25, .5, .75, 1];
        el.innerHTML = `<h3>${escapeHTML(c.name)} <small class="muted">AP@0.5 ${fmt(c.ap50)} · ${c.ground_truth} boxes</small></h3>
          <svg viewBox="0 0 ${W} ${H}" role="img" aria-label="precision-recall curve of ${escapeHTML(c.name)}">
            ${ticks.map(t => `<line x1="${x(t)}" x2="${x(t)}" y1="${T}" y2="${H - B}" stroke="#eee"/><line x1="${L}" x2="${W - R}" y1="${y(t)}" y2="${y(t)}" stroke="#eee"/>
              <text x="${x(t)}" y="${H - B + 14}" font-size="10" text-anchor="middle">${t}</text><text x="${L - 4}" y="${y(t) + 3}" font-size="10" text-anchor="end">${t}</text>`).join("")}
            <text x="${(L + W) / 2}" y="${H - 2}" font-size="10" text-anchor="middle">recall</text>
            <text x="10" y="${(T + H - B) / 2}" font-size="10" text-anchor="middle" transform="rotate(-90 10 ${(T + H - B) / 2})">precision</text>
            <polyline points="${path}" fill="none" stroke="#2f6fde" stroke-width="1.6"/>
            <circle class="point" r="5" fill="#d64545" stroke="#fff" stroke-width="1.5"/>
          </svg>
          <input type="range" min="0" max="${c.points.length - 1}" step="1" aria-label="operating point of ${escapeHTML(c.name)}">
          <table><tr><th></th><th class="num">confidence</th><th class="num">precision</th><th class="num">recall</th><th class="num">F1</th><th class="num">kept</th></tr>
            <tr class="pick"><th>${escapeHTML(split)}</th><td class="num conf"></td><td class="num p"></td><td class="num r"></td><td class="num f1"></td><td class="num kept"></td></tr>
            ${shown ? `<tr class="shown"><th>${escapeHTML(shown)}</th><td class="num"></td><td class="num p"></td><td class="num r"></td><td class="num f1"></td><td class="num kept"></td></tr>` : ""}
          </table>`;
        const slider = $("input", el), dot = $("circle.point", el), svg = $("svg", el);
        const state = { el, c, index: 0 };
        state.confidence = () => c.points[state.index][0];
        state.select = i => {
          state.index = Math.max(0, Math.min(c.points.length - 1, i));
          const q = c.points[state.index];
          slider.value = state.index;
          dot.setAttribute("cx", x(q[4])); dot.setAttribute("cy", y(q[3]));
          const row = $("tr.pick", el);
          $(".conf", row).textContent = fmt(q[0], 4); $(".p", row).textContent = fmt(q[3]); $(".r", row).textContent = fmt(q[4]);
          $(".f1", row).textContent = fmt(q[5]); $(".kept", row).textContent = q[1] + q[2];
          Object.assign(el.dataset, { confidence: q[0], precision: q[3], recall: q[4], f1: q[5], kept: q[1] + q[2] });
          if (shown && q.length > 6) {
            const s = $("tr.shown", el);
            $(".p", s).textContent = fmt(q[8]); $(".r", s).textContent = fmt(q[9]); $(".f1", s).textContent = fmt(q[10]); $(".kept", s).textContent = q[6] + q[7];
            Object.assign(el.dataset, { shownPrecision: q[8], shownRecall: q[9], shownF1: q[10], shownKept: q[6] + q[7] });
          }
        };
        state.selectConfidence = conf => {
          // "Keep score ≥ conf": the last point (high → low) whose confidence is still ≥ conf.
          let i = c.points.findIndex(q => q[0] < conf);
          i = i === -1 ? c.points.length - 1 : Math.max(0, i - 1);
          state.select(i);
        };
        slider.addEventListener("input", () => state.select(Number(slider.value)));
        svg.addEventListener("click", ev => {
          const box = svg.getBoundingClientRect(), px = (ev.clientX - box.left) * W / box.width, py = (ev.clientY - box.top) * H / box.height;
          let best = 0, distance = Infinity;
          c.points.forEach((q, i) => { const d = (x(q[4]) - px) ** 2 + (y(q[3]) - py) ** 2; if (d < distance) { distance = d; best = i; } });
          state.select(best);
        });
        return state;
      }

      function escapeHTML(s) { return String(s).replace(/[&<>"']/g, ch => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch])); }

      async function start() {
        const answer = await (await fetch(`/api/runs/${encodeURIComponent(run)}/curves?${query}`)).json();
        if (answer.error) { picker.textContent = answer.error; return; }
        picker.textContent = "";
        for (const c of answer.classes.filter(c => c.ground_truth > 0 || c.points.length)) {
          const state = card(c);
          cards.push(state); picker.appendChild(state.el);
          if (c.points.length) state.selectConfidence(c.current ?? c.max_f1 ?? c.points[0][0]);
        }
        picker.dataset.ready = "true";
      }

      // A strategy's exact points, added to the curves where thinning left them out.
      async function applyStrategy(name) {
        if (name === "current") {
          const answer = await (await fetch(`/api/runs/${encodeURIComponent(run)}/curves?${query}`)).json();
          for (const s of cards) { const c = answer.classes.find(k => k.name === s.c.name); if (c && c.current != null) s.selectConfidence(c.current); }
          return;
        }
        const target = name === "precision" ? `precision:${$("#precision-target").value}` : name === "recall" ? `recall:${$("#recall-target").value}` : "max-f1";
        const answer = await (await fetch(`/api/runs/${encodeURIComponent(run)}/strategy?strategy=${encodeURIComponent(target)}&${query}`)).json();
        if (answer.error) { $("#save-result").textContent = answer.error; return; }
        for (const s of cards) {
          const picked = answer.classes.find(k => k.name === s.c.name);
          if (!picked || !picked.point || !s.c.points.length) continue;
          const q = picked.point, points = s.c.points;
          let i = points.findIndex(p => p[0] <= q[0]);
          if (i === -1) i = points.length;
          if (!(points[i] && points[i][0] === q[0])) { points.splice(i, 0, q); $("input", s.el).max = points.length - 1; }
          s.select(i);
        }
        picker.dataset.strategy = target;
      }
      for (const b of $$("#strategies button[data-strategy]")) b.addEventListener("click", () => applyStrategy(b.dataset.strategy));

      $("#save").addEventListener("click", async () => {
        const confidences = {};
        for (const s of cards) confidences[s.c.name] = s.confidence();
        const out = $("#save-result");
        out.textContent = "Saving…";
        const response = await fetch(`/api/runs/${encodeURIComponent(run)}/thresholds`, {
          method: "POST", headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ split, confidences, strategy: picker.dataset.strategy || "manual" }) });
        const answer = await response.json();
        if (!response.ok) { out.textContent = "Not saved: " + answer.error; out.className = "error"; return; }
        out.className = "saved";
        out.innerHTML = `Saved <a href="${answer.weights_url}" download>the weights</a> (<code>${escapeHTML(answer.weights)}</code>) and `
          + `<a href="${answer.thresholds_url}" download>thresholds.yaml</a>.`;
        out.dataset.weights = answer.weights;
      });
      start();
    }
    """#
}
