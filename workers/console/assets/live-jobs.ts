/**
 * Part of console.js: live job status without page reloads (a form being filled or an upload in progress
 * must survive a job finishing), and "Load older" that appends the next page of a job list.
 */
export const LIVE_JOBS_JS = `
  const TERMINAL = new Set(["succeeded", "failed", "expired"]);
  const fetchPage = async (url) => {
    const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
    return res.ok ? new DOMParser().parseFromString(await res.text(), "text/html") : null;
  };
  // A job that ended: its item (now with a video, an error or a link) and the page's [data-refresh] parts
  // (the Avatar grid) are swapped for the server's rendering of them; nothing else on the page is touched.
  const swapEnded = async (ids) => {
    const doc = await fetchPage(location.href);
    if (!doc) return;
    for (const id of ids) {
      const fresh = doc.querySelector('[data-job-id="' + CSS.escape(id) + '"]');
      const el = document.querySelector('[data-job-id="' + CSS.escape(id) + '"]');
      if (fresh && el) el.replaceWith(document.importNode(fresh, true));
    }
    for (const el of document.querySelectorAll("[data-refresh]")) {
      const fresh = doc.querySelector('[data-refresh="' + CSS.escape(el.getAttribute("data-refresh")) + '"]');
      if (fresh) el.replaceWith(document.importNode(fresh, true));
    }
  };
  for (const list of document.querySelectorAll("[data-poll]")) {
    const url = list.getAttribute("data-poll");
    const tick = async () => {
      const items = [...list.querySelectorAll("[data-job-id]")];
      if (!items.some((el) => !TERMINAL.has(el.getAttribute("data-status")))) return;
      try {
        const res = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
        if (res.ok) {
          const { jobs } = await res.json();
          const byId = new Map(jobs.map((j) => [j.id, j]));
          const ended = [];
          for (const el of items) {
            const job = byId.get(el.getAttribute("data-job-id"));
            if (!job) continue;
            const before = el.getAttribute("data-status");
            const status = el.querySelector(".status");
            if (status && status.textContent !== job.status) { status.textContent = job.status; status.className = "status " + job.status; }
            const stage = el.querySelector(".stage");
            if (stage && job.stage && stage.textContent !== job.stage) stage.textContent = job.stage;
            el.setAttribute("data-status", job.status);
            if (before !== job.status && TERMINAL.has(job.status)) ended.push(job.id);
          }
          if (ended.length > 0) await swapEnded(ended);
        }
      } catch { /* offline for a moment: try again at the next tick */ }
      setTimeout(tick, 2000);
    };
    setTimeout(tick, 2000);
  }
  for (const link of document.querySelectorAll("[data-load-older]")) {
    link.addEventListener("click", async (e) => {
      e.preventDefault();
      const list = link.closest("section")?.querySelector("[data-poll]");
      const doc = list && (await fetchPage(link.getAttribute("href")).catch(() => null));
      if (!doc) { location.href = link.href; return; }
      const older = doc.querySelector('[data-poll="' + CSS.escape(list.getAttribute("data-poll")) + '"]');
      for (const item of older ? [...older.children] : []) list.append(document.importNode(item, true));
      const next = doc.querySelector("[data-load-older]");
      if (next) link.setAttribute("href", next.getAttribute("href"));
      else link.parentElement.remove();
    });
  }
`;
