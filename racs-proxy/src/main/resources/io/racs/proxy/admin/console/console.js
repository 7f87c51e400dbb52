// The console page: polls /console/api/state and renders it with DOM calls only (no innerHTML,
// so that bucket names, reasons and log lines are shown as text, never run as markup).
import { latencyChart } from "/console/assets/chart.js";

const POLL_MILLIS = 1000;

const $ = (id) => document.getElementById(id);

function cell(row, text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  row.appendChild(td);
  return td;
}

function millis(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  return seconds < 1 ? `≤ ${Math.round(seconds * 1000 * 10) / 10} ms` : `≤ ${seconds} s`;
}

function duration(seconds) {
  const d = Math.floor(seconds / 86400), h = Math.floor(seconds / 3600) % 24;
  const m = Math.floor(seconds / 60) % 60, s = seconds % 60;
  return (d ? `${d}d ` : "") + (d || h ? `${h}h ` : "") + `${m}m ${s}s`;
}

function dollars(text) {
  const v = Number(text);
  return v === 0 ? "$0" : v < 0.01 ? `$${v.toPrecision(2)}` : `$${v.toFixed(2)}`;
}

function bytes(n) {
  const units = ["B", "kB", "MB", "GB", "TB"];
  let i = 0;
  while (n >= 1000 && i < units.length - 1) {
    n /= 1000;
    i++;
  }
  return i === 0 ? `${n} B` : `${n.toFixed(1)} ${units[i]}`;
}

// The reshape as /health/ready's "reshape" member says it (MoveEstimate on the server).
function reshapeLines(r) {
  if (!r || r.state === "none") return [["Reshape", "none recorded"]];
  const out = [["Reshape", `${r.state}: ${r.from} -> ${r.to}${r.reason ? ` (${r.reason})` : ""}`]];
  if (r.state !== "running") return out;
  if (r.remaining === "unknown") {
    out.push(["Reshape remaining", "unknown (started before its totals were recorded)"]);
  } else {
    const moved = r.bytesMoved || 0;
    const total = moved + r.remaining.bytes;
    const percent = total > 0 ? Math.min(100, Math.floor((100 * moved) / total)) : 100;
    out.push(["Reshape progress", `${percent} % moved (${bytes(moved)} of ${bytes(total)})`]);
    out.push(["Reshape remaining", `${r.remaining.versions} versions, ${bytes(r.remaining.bytes)}`]);
  }
  out.push(["Reshape ETA", r.eta === "unknown" || r.eta === undefined ? "unknown"
    : `${duration(r.eta.seconds)} at ${bytes(r.eta.bytesPerSecond)}/s (${r.eta.rate})`]);
  if (r.problem) out.push(["Reshape problem", r.problem]);
  if (r.waiting) out.push(["Reshape waits for", r.waiting]);
  return out;
}

function renderArray(array) {
  $("geometry").textContent =
    `${array.dataShards}x${array.parityShards} (data x parity), write quorum ${array.writeQuorum}, ` +
    (array.ready ? "ready" : "NOT READY: fewer repositories take writes than the write quorum");
  const body = $("repositories").tBodies[0];
  body.replaceChildren();
  for (const r of array.repositories) {
    const row = document.createElement("tr");
    row.dataset.slot = r.slot;
    row.dataset.state = r.state;
    cell(row, r.slot, "num");
    cell(row, r.name);
    cell(row, r.state, `state state-${r.state}`);
    cell(row, r.reason || "");
    const has = r.requests !== undefined;
    cell(row, has ? r.requests : "–", "num");
    cell(row, has && r.requests > 0 ? `${(100 * r.errors / r.requests).toFixed(2)} %` : "–", "num");
    cell(row, has ? millis(r.p50Seconds) : "–", "num");
    cell(row, has ? millis(r.p99Seconds) : "–", "num");
    cell(row, has ? dollars(r.priceSoFar) : "–", "num price");
    const chart = row.insertCell();
    chart.className = "chart";
    if (has) chart.appendChild(latencyChart(r.name, r.latency));
    body.appendChild(row);
  }
}

function renderBuckets(buckets) {
  const body = $("bucket-table").tBodies[0];
  body.replaceChildren();
  for (const b of buckets) {
    const row = document.createElement("tr");
    cell(row, b.name);
    cell(row, b.created);
    cell(row, b.versioning);
    cell(row, b.encryption ? "default set" : "none");
    cell(row, b.lifecycle ? "rules" : "none");
    cell(row, b.cors ? "rules" : "none");
    body.appendChild(row);
  }
}

function renderWork(background) {
  const list = $("work-list");
  list.replaceChildren();
  const add = (term, value) => {
    const dt = document.createElement("dt");
    dt.textContent = term;
    const dd = document.createElement("dd");
    dd.textContent = value;
    list.append(dt, dd);
  };
  add("Lifecycle scan", background.lifecycle);
  add("Scrub", (background.scrubPaused ? "paused" : "not paused") +
    (background.scrubRunning ? ", running now" : ""));
  const s = background.lastScrub;
  if (s === null) {
    add("Last scrub", "none yet (none runs while scrubInterval is 0s)");
  } else {
    add("Last scrub", s.stopped ? "stopped before the end" : "complete");
    add("Objects scanned", s.objectsScanned);
    add("Shards rebuilt", s.shardsRebuilt);
    add("Records repaired", s.recordsRepaired);
    add("Unrecoverable objects", s.unrecoverable);
  }
  for (const [term, value] of reshapeLines(background.reshape)) add(term, value);
  $("prices-source").textContent = background.pricesSource;
}

let lastLines = [];

function renderLog() {
  const filter = $("log-filter").value.trim().toLowerCase();
  const shown = lastLines.filter((l) => !filter || l.toLowerCase().includes(filter));
  $("log-lines").textContent = shown.length ? shown.slice(-200).reverse().join("\n") : "(none)";
}

async function poll() {
  try {
    const response = await fetch("/console/api/state", { credentials: "same-origin" });
    if (response.status === 401) {
      window.location.assign("/console/");
      return;
    }
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const state = await response.json();
    $("version").textContent = state.version;
    $("uptime").textContent = duration(state.uptimeSeconds);
    renderArray(state.array);
    renderBuckets(state.buckets);
    renderWork(state.background);
    for (const button of document.querySelectorAll("#actions button, #users button")) {
      button.disabled = state.readOnly;
      button.title = state.readOnly ? "the console is read-only (server.consoleReadOnly)" : "";
    }
    lastLines = state.accessLog.enabled ? state.accessLog.lines : ["(the access log is off)"];
    renderLog();
    $("status").textContent = `updated ${new Date().toLocaleTimeString()}`;
    $("status").classList.remove("stale");
  } catch (e) {
    $("status").textContent = `cannot reach the proxy (${e.message}); retrying`;
    $("status").classList.add("stale");
  } finally {
    setTimeout(poll, POLL_MILLIS);
  }
}

// The stored users change rarely, and listing them reads every repository: not every second.
const USERS_POLL_MILLIS = 10000;
const USERS_NOTE = $("users-note").textContent;

async function pollUsers() {
  try {
    await pollUsersOnce();
  } finally {
    setTimeout(pollUsers, USERS_POLL_MILLIS);
  }
}

async function pollUsersOnce() {
  try {
    const response = await fetch("/console/api/users", { credentials: "same-origin" });
    if (response.status === 401) return; // poll() signs the page out
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const listed = await response.json();
    $("users-note").textContent = USERS_NOTE;
    const body = $("user-table").tBodies[0];
    body.replaceChildren();
    if (listed.error !== null || listed.users.length === 0) {
      const row = document.createElement("tr");
      cell(row, listed.error !== null ? listed.error : "(no stored users)").colSpan = 5;
      body.appendChild(row);
    }
    for (const u of listed.users) {
      const row = document.createElement("tr");
      cell(row, u.name);
      cell(row, u.accessKey);
      cell(row, u.policies.length ? u.policies.join(", ") : "(none)");
      cell(row, u.created);
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = "Remove";
      remove.setAttribute("aria-label", `Remove user ${u.name}`);
      remove.addEventListener("click", () => removeUser(u.name));
      row.insertCell().appendChild(remove);
      body.appendChild(row);
    }
  } catch (e) {
    $("users-note").textContent = `cannot list the users (${e.message}); retrying`;
  }
}

const CONFIRM = {
  "scrub-start": "Start a scrub of every object now? It reads the whole array at the scrub's rate.",
  "scrub-pause": "Pause the scrub? A running scrub stops before its next object; none is scheduled.",
  "scrub-resume": "Resume the scrub on its schedule?",
};

async function act(name) {
  if (!window.confirm(CONFIRM[name])) return;
  const response = await fetch(`/console/api/actions/${name}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "X-Racs-Console": "confirmed" },
  });
  $("action-result").textContent = (await response.text()).trim();
}

// The admin API's users, for the signed-in administrator: each change confirmed, then its answer
// shown (a new user's secret key only once, here).
async function userChange(method, path, body) {
  const response = await fetch(`/console/api/admin/users${path}`, {
    method,
    credentials: "same-origin",
    headers: { "X-Racs-Console": "confirmed", "Content-Type": "application/json" },
    body,
  });
  const text = (await response.text()).trim();
  let answer = text;
  try {
    answer = JSON.parse(text);
  } catch (e) {
    // a plain-text refusal (read-only, unconfirmed)
  }
  pollUsersOnce();
  return { ok: response.ok, status: response.status, answer };
}

function refusal(r) {
  return typeof r.answer === "object" ? `${r.answer.code}: ${r.answer.message}` : `${r.answer}`;
}

async function addUser(event) {
  event.preventDefault();
  const name = $("user-add-name").value.trim();
  if (!window.confirm(`Add the user ${name}? Its secret key is shown once, here.`)) return;
  const r = await userChange("POST", "", JSON.stringify({ name }));
  $("user-result").textContent = r.ok
    ? `added ${r.answer.name}: access key ${r.answer.accessKey}, secret key ${r.answer.secretKey} (shown once)`
    : `not added (${r.status}): ${refusal(r)}`;
}

async function removeUser(name) {
  if (!window.confirm(`Remove the user ${name}? Its key stops working on every proxy.`)) return;
  const r = await userChange("DELETE", `/${encodeURIComponent(name)}`);
  $("user-result").textContent = r.ok ? `removed ${name}` : `not removed (${r.status}): ${refusal(r)}`;
}

async function attachPolicy(event) {
  event.preventDefault();
  const name = $("user-attach-name").value.trim();
  const policy = $("user-attach-policy").value.trim();
  if (!window.confirm(`Attach the policy ${policy} to the user ${name}?`)) return;
  const r = await userChange(
    "PUT",
    `/${encodeURIComponent(name)}/policies/${encodeURIComponent(policy)}`,
    $("user-attach-document").value,
  );
  $("user-result").textContent = r.ok
    ? `attached ${policy} to ${name}`
    : `not attached (${r.status}): ${refusal(r)}`;
}

$("user-add").addEventListener("submit", addUser);
$("user-attach").addEventListener("submit", attachPolicy);

for (const button of document.querySelectorAll("#actions button")) {
  button.addEventListener("click", () => act(button.dataset.action));
}
$("log-filter").addEventListener("input", renderLog);
poll();
pollUsers();
