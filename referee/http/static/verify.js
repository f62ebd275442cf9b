// The /verify page: reads a record (a file, a paste, or the address's #record=<base64url
// JSON>, which a client can link to), checks it with fairness.js and shows each chance event
// as confirmed or not. Nothing leaves the browser.
(function () {
  "use strict";
  const F = window.RefereeFairness;
  const $ = (id) => document.getElementById(id);

  function cell(row, text, className) {
    const td = document.createElement("td");
    td.textContent = text;
    if (className) td.className = className;
    row.appendChild(td);
  }

  function show(result) {
    const body = $("checks").querySelector("tbody");
    body.replaceChildren();
    for (const c of result.checks) {
      const row = document.createElement("tr");
      row.dataset.ok = c.unseen ? "unseen" : String(c.ok);
      cell(row, c.answer === 0 ? "creation" : `move ${c.answer}`);
      cell(row, `${c.index + 1}: ${c.type}`);
      cell(row, String(c.step));
      cell(row, String(c.draw));
      if (c.unseen) {
        cell(row, "– another player's draw: its position is public, its cards only he saw",
             "unseen");
      } else {
        cell(row, c.ok ? "✔ confirmed" : `✘ ${c.problem}`, c.ok ? "ok" : "bad");
      }
      body.appendChild(row);
    }
    $("checks").hidden = result.checks.length === 0;
    const confirmed = result.checks.filter((c) => c.ok).length;
    const unseen = result.checks.filter((c) => c.unseen).length;
    const checked = result.checks.length - unseen;
    const commitment = result.commitment === true ? "the seed matches its commitment"
      : result.commitment === false ? "the seed does NOT match its commitment"
        : "the commitment could not be checked";
    const mixed = result.contributions
      ? `, with ${result.contributions} contributed seed${result.contributions > 1 ? "s" : ""} `
        + "mixed in" : "";
    const summary = $("summary");
    summary.dataset.status = result.problems.length === 0 ? "confirmed" : "failed";
    summary.dataset.confirmed = String(confirmed);
    summary.dataset.checks = String(checked);
    summary.dataset.unseen = String(unseen);
    summary.replaceChildren();
    const head = document.createElement("p");
    head.textContent = `${result.problems.length === 0 ? "✔ All confirmed" : "✘ Not confirmed"}: `
      + `${commitment}${mixed}; ${confirmed} of ${checked} chance events are what `
      + `${result.contributions ? "they give" : "the seed gives"}`
      + (unseen ? `; ${unseen} draws by other players are not shown to you.` : ".");
    summary.appendChild(head);
    if (result.problems.length) {
      const list = document.createElement("ul");
      for (const problem of result.problems) {
        const item = document.createElement("li");
        item.textContent = problem;
        list.appendChild(item);
      }
      summary.appendChild(list);
    }
  }

  async function check() {
    let record;
    try {
      record = JSON.parse($("record").value);
    } catch (error) {
      show({ commitment: null, checks: [], problems: [`the record is not JSON: ${error.message}`] });
      return;
    }
    if (!window.crypto || !window.crypto.subtle) {
      show({ commitment: null, checks: [], problems: [
        "this browser offers no Web Crypto here: open the page over HTTPS (or from localhost)"] });
      return;
    }
    $("summary").dataset.status = "checking";
    show(await F.verifyRecord(record));
  }

  $("check").addEventListener("click", check);
  $("file").addEventListener("change", async () => {
    const file = $("file").files[0];
    if (!file) return;
    $("record").value = await file.text();
    await check();
  });

  // A record linked in the address (#record=...), when the page opens and whenever another
  // record link is followed in the same tab (only the fragment changes: no reload).
  function readLinked() {
    const linked = /^#record=([A-Za-z0-9_-]+)$/.exec(window.location.hash);
    if (!linked) return;
    const base64 = linked[1].replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(base64), (ch) => ch.charCodeAt(0));
    $("record").value = new TextDecoder().decode(bytes);
    check();
  }
  window.addEventListener("hashchange", readLinked);
  readLinked();
})();
