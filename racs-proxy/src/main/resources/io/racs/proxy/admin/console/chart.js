// A repository's latency over time as a small inline SVG (no library): the p50 and p99 of the calls
// of each sample interval, on a logarithmic scale of milliseconds, over the last WINDOW_MILLIS with
// the newest sample at the right edge. The chart is an image to assistive technology; its label
// says the newest values in words.
const SVG = "http://www.w3.org/2000/svg";
const WIDTH = 180, HEIGHT = 40, PAD = 2;
// The time the server's history spans (LatencyHistory: 90 samples 2 s apart).
const WINDOW_MILLIS = 180000;

function el(name, attributes) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attributes)) e.setAttribute(k, v);
  return e;
}

function ms(seconds) {
  return seconds === null || seconds === undefined ? "no calls" : `≤ ${Math.round(seconds * 1e4) / 10} ms`;
}

// The points of one series as a polyline's "x,y" list; a sample with no calls leaves a gap.
function lines(points, key, x, y) {
  const runs = [];
  let run = [];
  points.forEach((p, i) => {
    const v = p[key];
    if (v === null || v === undefined) {
      if (run.length) runs.push(run);
      run = [];
    } else {
      run.push(`${x(i).toFixed(1)},${y(v).toFixed(1)}`);
    }
  });
  if (run.length) runs.push(run);
  return runs;
}

/** An <svg> of `points` ({millis, calls, p50Seconds, p99Seconds}, oldest first) for `name`. */
export function latencyChart(name, points) {
  const svg = el("svg", {
    width: WIDTH, height: HEIGHT, viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", class: "latency",
  });
  const last = points.length ? points[points.length - 1] : null;
  const label = last === null
    ? `${name}: no latency samples yet`
    : `${name} latency, ${points.length} samples: latest p50 ${ms(last.p50Seconds)},` +
      ` p99 ${ms(last.p99Seconds)}`;
  svg.setAttribute("aria-label", label);
  const title = el("title", {});
  title.textContent = label;
  svg.appendChild(title);
  svg.appendChild(el("rect", { x: 0, y: 0, width: WIDTH, height: HEIGHT, class: "frame" }));
  const finite = points.flatMap((p) => [p.p50Seconds, p.p99Seconds])
    .filter((v) => v !== null && v !== undefined && Number.isFinite(v) && v > 0);
  if (!finite.length) return svg;
  const lo = Math.log10(Math.min(...finite)) - 0.1, hi = Math.log10(Math.max(...finite)) + 0.1;
  const span = Math.max(hi - lo, 0.5);
  const newest = points[points.length - 1].millis;
  const x = (i) =>
    WIDTH - PAD - (Math.min(newest - points[i].millis, WINDOW_MILLIS) * (WIDTH - 2 * PAD)) / WINDOW_MILLIS;
  const y = (v) => {
    const clamped = Number.isFinite(v) ? v : Math.pow(10, hi);
    return HEIGHT - PAD - ((Math.log10(clamped) - lo) / span) * (HEIGHT - 2 * PAD);
  };
  for (const [key, cls] of [["p99Seconds", "p99"], ["p50Seconds", "p50"]]) {
    for (const run of lines(points, key, x, y)) {
      if (run.length === 1) run.push(run[0]);
      svg.appendChild(el("polyline", { points: run.join(" "), class: cls }));
    }
  }
  return svg;
}
