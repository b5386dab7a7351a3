// Floor of one re-scoring by Extended Sufferage, Sufferage II or randomized Extended Sufferage (issue 31, target 2):
// the Work's kept ranking of its 10 cluster MCTs with one cluster's MCT changed (find it, find its new place
// from the end as cluster-ranking.ts's insert does, move the clusters in between), then the first jump of the
// ranked MCTs with the exact arithmetic of first-jump.ts (9 gaps, their sum in order, the mean, the deviations'
// squares in order, sqrt, the threshold, the first gap above it or the first positive one) and the score's
// three stores. Everything inlined by hand, over flat arrays laid out as the engine's (MCTs Work by Work, the
// ranking Work by Work), Works met in increasing order with a given stride as the pass meets those it
// re-scores. Where the changed cluster was and where it goes follow the frequencies counted in one plan of
// bench/plan.bench.ts (Extended Sufferage: per mille, old place × new place, below); the changes are drawn
// before the timed loop, which only reads them. `pairs` also times two Works' arithmetic interleaved (their
// dependency chains overlap): the lower of the two is the floor.
// Usage: node bench/plan-floor/ranking-floor.mjs [stride]
const n = 10000, C = 10, stride = Number(process.argv[2] ?? 4);
// PLACES[p][k]: of 1,000 re-scorings, how many found the changed cluster at place p of the kept ranking and
// put it at place k among the others (its MCT only grows in that plan, so k ≥ p).
const PLACES = [
  [110, 64, 59, 51, 45, 38, 34, 34, 33, 23], [0, 53, 20, 17, 12, 11, 10, 10, 8, 6], [0, 0, 38, 13, 10, 9, 9, 6, 6, 5],
  [0, 0, 0, 27, 11, 10, 8, 6, 6, 4], [0, 0, 0, 0, 25, 10, 7, 5, 6, 5], [0, 0, 0, 0, 0, 21, 10, 7, 5, 5],
  [0, 0, 0, 0, 0, 0, 17, 8, 6, 5], [0, 0, 0, 0, 0, 0, 0, 13, 7, 5], [0, 0, 0, 0, 0, 0, 0, 0, 12, 6], [0, 0, 0, 0, 0, 0, 0, 0, 0, 11],
];
const cumulative = [];
let total = 0;
for (let p = 0; p < C; p++) for (let k = 0; k < C; k++) if (PLACES[p][k] > 0) cumulative.push([(total += PLACES[p][k]), p, k]);
let seed = 77;
const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296;
function draw() {
  const x = rnd() * total;
  for (const [upTo, p, k] of cumulative) if (x < upTo) return [p, k];
  return [0, 0];
}
const mct0 = new Float64Array(n * C), order0 = new Int32Array(n * C);
for (let j = 0; j < n; j++) {
  const row = [];
  for (let c = 0; c < C; c++) row.push([(mct0[j * C + c] = 10000 + 40 * c + 300 * rnd()), c]);
  row.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (let t = 0; t < C; t++) order0[j * C + t] = row[t][1];
}
const PASSES = 400;
const perPass = Math.ceil(n / stride);
// The changes, drawn on a copy: the changed cluster and its new MCT, landing between its new neighbours.
const changedOf = new Int32Array(PASSES * perPass).fill(-1), newMct = new Float64Array(PASSES * perPass);
{
  const mct = mct0.slice(), order = order0.slice();
  for (let r = 0; r < PASSES; r++) {
    for (let j = r % stride, q = r * perPass; j < n; j += stride, q++) {
      const from = j * C;
      const [p, k] = draw();
      const c = order[from + p];
      const others = [];
      for (let t = 0; t < C; t++) if (t !== p) others.push(mct[from + order[from + t]]);
      const lo = Math.max(mct[from + c], k > 0 ? others[k - 1] : -Infinity);
      const hi = k < C - 1 ? others[k] : lo + 50;
      const v = lo + (hi - lo) * (0.1 + 0.8 * rnd());
      changedOf[q] = c;
      newMct[q] = mct[from + c] = v;
      const row = [];
      for (let t = 0; t < C; t++) row.push([mct[from + t], t]);
      row.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      for (let t = 0; t < C; t++) order[from + t] = row[t][1];
    }
  }
}
const mct = new Float64Array(n * C), order = new Int32Array(n * C);
const k1 = new Float64Array(n), k2 = new Float64Array(n), target = new Int32Array(n);
const gaps = new Float64Array(C), gapsB = new Float64Array(C);

/** Moves cluster c (its MCT now m) within Work row `from`'s ranking; returns nothing. Ties: lower cluster first. */
function move(from, c, m) {
  let p = 0;
  while (order[from + p] !== c) p++;
  let k = C - 1;
  while (k > 0) {
    const prev = order[from + (k - 1 >= p ? k : k - 1)];
    const pm = mct[from + prev];
    if (!(m < pm || (m === pm && c < prev))) break;
    k--;
  }
  if (k < p) for (let t = p; t > k; t--) order[from + t] = order[from + t - 1];
  else for (let t = p; t < k; t++) order[from + t] = order[from + t + 1];
  order[from + k] = c;
}

function single() {
  let scored = 0;
  for (let r = 0; r < PASSES; r++) {
    for (let j = r % stride, q = r * perPass; j < n; j += stride, q++) {
      const from = j * C, c = changedOf[q];
      mct[from + c] = newMct[q];
      move(from, c, newMct[q]);
      let prev = mct[from + order[from]], sum = 0, positive = 0;
      for (let t = 0; t + 1 < C; t++) {
        const next = mct[from + order[from + t + 1]];
        const g = next - prev;
        gaps[t] = g;
        sum += g;
        positive |= (g > 0) << t;
        prev = next;
      }
      const mean = sum / (C - 1);
      let sq = 0;
      for (let t = 0; t + 1 < C; t++) {
        const d = gaps[t] - mean;
        sq += d * d;
      }
      const threshold = mean + Math.sqrt(sq / (C - 1));
      let above = 0;
      for (let t = 0; t + 1 < C; t++) above |= (gaps[t] > threshold) << t;
      const marks = above !== 0 ? above : positive;
      const first = 31 - Math.clz32(marks & -marks);
      k1[j] = marks === 0 ? C : first + 1;
      k2[j] = marks === 0 ? 0 : -gaps[first];
      target[j] = order[from];
      scored++;
    }
  }
  return scored;
}

/** As single, two Works at a time: both moves, then both jumps with their chains interleaved. */
function pairs() {
  let scored = 0;
  for (let r = 0; r < PASSES; r++) {
    for (let j = r % stride, q = r * perPass; j < n; j += 2 * stride, q += 2) {
      const b = j + stride < n ? j + stride : j;
      const fa = j * C, fb = b * C;
      mct[fa + changedOf[q]] = newMct[q];
      move(fa, changedOf[q], newMct[q]);
      if (b !== j) {
        mct[fb + changedOf[q + 1]] = newMct[q + 1];
        move(fb, changedOf[q + 1], newMct[q + 1]);
      }
      let pa = mct[fa + order[fa]], pb = mct[fb + order[fb]], sa = 0, sb = 0, posA = 0, posB = 0;
      for (let t = 0; t + 1 < C; t++) {
        const na = mct[fa + order[fa + t + 1]], nb = mct[fb + order[fb + t + 1]];
        const ga = na - pa, gb = nb - pb;
        gaps[t] = ga;
        gapsB[t] = gb;
        sa += ga;
        sb += gb;
        posA |= (ga > 0) << t;
        posB |= (gb > 0) << t;
        pa = na;
        pb = nb;
      }
      const ma = sa / (C - 1), mb = sb / (C - 1);
      let qa = 0, qb = 0;
      for (let t = 0; t + 1 < C; t++) {
        const da = gaps[t] - ma, db = gapsB[t] - mb;
        qa += da * da;
        qb += db * db;
      }
      const ta = ma + Math.sqrt(qa / (C - 1)), tb = mb + Math.sqrt(qb / (C - 1));
      let oa = 0, ob = 0;
      for (let t = 0; t + 1 < C; t++) {
        oa |= (gaps[t] > ta) << t;
        ob |= (gapsB[t] > tb) << t;
      }
      let marks = oa !== 0 ? oa : posA;
      let first = 31 - Math.clz32(marks & -marks);
      k1[j] = marks === 0 ? C : first + 1;
      k2[j] = marks === 0 ? 0 : -gaps[first];
      target[j] = order[fa];
      marks = ob !== 0 ? ob : posB;
      first = 31 - Math.clz32(marks & -marks);
      k1[b] = marks === 0 ? C : first + 1;
      k2[b] = marks === 0 ? 0 : -gapsB[first];
      target[b] = order[fb];
      scored += b !== j ? 2 : 1;
    }
  }
  return scored;
}

function time(pass) {
  const ns = [];
  let check = 0;
  for (let rep = 0; rep < 7; rep++) {
    mct.set(mct0);
    order.set(order0);
    const t0 = process.cpuUsage().user;
    const scored = pass();
    const t = process.cpuUsage().user - t0;
    if (rep >= 2) ns.push((t * 1000) / scored);
    check = 0;
    for (let j = 0; j < n; j++) check += k1[j] - k2[j] + target[j];
  }
  ns.sort((a, b) => a - b);
  return [ns[ns.length >> 1], check];
}
const [one, checkOne] = time(single);
const [two, checkTwo] = time(pairs);
if (checkOne !== checkTwo) throw new Error(`the two passes disagree: ${checkOne} against ${checkTwo}`);
console.log(`re-ranking one cluster of ${C} + first jump + 3 stores: ${one.toFixed(1)} ns per re-scoring one at a time, ${two.toFixed(1)} ns two at a time (stride ${stride}, ${PASSES * perPass} re-scorings); floor ${Math.min(one, two).toFixed(1)} ns`);
