/**
 * Live job status without page reloads (a form being filled or an upload in progress must survive a job
 * finishing), and "Load older" that appends the next page of a job list (job-list.tsx marks both).
 */

/** What GET /console/api/… (status-api.ts) answers for a polled list: the fields read here. */
interface JobStatus {
  id: string;
  status: string;
  stage?: string | null;
}

const TERMINAL = new Set(["succeeded", "failed", "expired"]);
const POLL_MS = 2000;

const byAttribute = (name: string, value: string) => `[${name}="${CSS.escape(value)}"]`;

async function fetchPage(url: string): Promise<Document | null> {
  const res = await fetch(url, { credentials: "same-origin", headers: { Accept: "text/html" } });
  return res.ok ? new DOMParser().parseFromString(await res.text(), "text/html") : null;
}

/**
 * Jobs that ended: their items (now with a video, an error or a link) and the page's [data-refresh] parts
 * (the Avatar grid) are swapped for the server's rendering of them; nothing else on the page is touched.
 */
async function swapEnded(ids: string[]): Promise<void> {
  const doc = await fetchPage(location.href);
  if (!doc) return;
  for (const id of ids) {
    const fresh = doc.querySelector(byAttribute("data-job-id", id));
    const el = document.querySelector(byAttribute("data-job-id", id));
    if (fresh && el) el.replaceWith(document.importNode(fresh, true));
  }
  for (const el of document.querySelectorAll("[data-refresh]")) {
    const fresh = doc.querySelector(byAttribute("data-refresh", el.getAttribute("data-refresh") ?? ""));
    if (fresh) el.replaceWith(document.importNode(fresh, true));
  }
}

/** One status line of an item brought up to date; true when the job has just ended. */
function update(el: Element, job: JobStatus): boolean {
  const before = el.getAttribute("data-status");
  const status = el.querySelector(".status");
  if (status && status.textContent !== job.status) {
    status.textContent = job.status;
    status.className = `status ${job.status}`;
  }
  const stage = el.querySelector(".stage");
  if (stage && job.stage && stage.textContent !== job.stage) stage.textContent = job.stage;
  el.setAttribute("data-status", job.status);
  return before !== job.status && TERMINAL.has(job.status);
}

function poll(list: Element): void {
  const url = list.getAttribute("data-poll") ?? "";
  const tick = async () => {
    const items = [...list.querySelectorAll("[data-job-id]")];
    if (!items.some((el) => !TERMINAL.has(el.getAttribute("data-status") ?? ""))) return;
    try {
      const res = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (res.ok) {
        const { jobs } = (await res.json()) as { jobs: JobStatus[] };
        const byId = new Map(jobs.map((j) => [j.id, j]));
        const ended: string[] = [];
        for (const el of items) {
          const job = byId.get(el.getAttribute("data-job-id") ?? "");
          if (job && update(el, job)) ended.push(job.id);
        }
        if (ended.length > 0) await swapEnded(ended);
      }
    } catch {
      // offline for a moment: try again at the next tick
    }
    setTimeout(tick, POLL_MS);
  };
  setTimeout(tick, POLL_MS);
}

function loadOlder(link: HTMLAnchorElement): void {
  link.addEventListener("click", async (e) => {
    e.preventDefault();
    const list = link.closest("section")?.querySelector("[data-poll]");
    const doc = list && (await fetchPage(link.getAttribute("href") ?? "").catch(() => null));
    if (!list || !doc) {
      location.href = link.href;
      return;
    }
    const older = doc.querySelector(byAttribute("data-poll", list.getAttribute("data-poll") ?? ""));
    for (const item of older ? [...older.children] : []) list.append(document.importNode(item, true));
    const next = doc.querySelector("[data-load-older]");
    if (next) link.setAttribute("href", next.getAttribute("href") ?? "");
    else link.parentElement?.remove();
  });
}

export function liveJobs(): void {
  for (const list of document.querySelectorAll("[data-poll]")) poll(list);
  for (const link of document.querySelectorAll<HTMLAnchorElement>("[data-load-older]")) loadOlder(link);
}
