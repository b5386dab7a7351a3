// Per-visit floor of the exact eager pass (MctEngine.updateCells; issue 31, target 2): what one plan of the plan benchmark
// cannot go below with the same visits, whatever the bookkeeping. See bench/plan-floor/README.md.
// Replays the pass's unavoidable arithmetic over arrays shaped like the plan bench's (10,000 Works, 10 clusters,
// fronts of ~10 hosts, ~9 host classes, Compls stored Work by Work) with nothing else: no rule call, no pool,
// no version/summary bookkeeping, every function inlined by hand. Usage:
//   node bench/plan-floor/eager-pass-floor.mjs PLACEMENTS VISITS RECOMPUTES STEPS RESCORES SECOND(0|1) [blocked]
// (counts of one plan, from an instrumented engine), prints ns per visit / recompute / scan step / rescore and the
// bound = visits*visit + recomputes*recompute + steps*step + rescores*rescore.
const [PL, VISITS, RECOMP, STEPS, RESCORES, SECOND] = process.argv.slice(2, 8).map(Number);
const BLOCKED = process.argv[8] === 'blocked';
const n = 10000, C = 10, FRONT = 10, K = 9, PROFILES = 400;
let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
const h1 = new Int32Array(n * C), h2 = new Int32Array(n * C);
const sendDur = new Float64Array(n * C), holdS = new Float64Array(n * C), availReady = new Float64Array(n * C);
const e1 = new Float64Array(n * C), e2 = new Float64Array(n * C), outDur = new Float64Array(n * C);
const c1 = new Float64Array(n * C), c2 = new Float64Array(n * C);
const k1 = new Float64Array(n), tgt = new Int32Array(n), w1 = new Int32Array(n), w2 = new Int32Array(n), bound = new Float64Array(n);
const profileOf = new Int32Array(n); for (let j = 0; j < n; j++) profileOf[j] = Math.floor(j * PROFILES / n);
const dur = new Float64Array(PROFILES * (K + 1)); for (let p = 0; p < PROFILES; p++) { let s = Infinity; for (let k = 0; k < K; k++) { dur[p * (K + 1) + k] = 200 + 400 * rnd(); s = Math.min(s, dur[p * (K + 1) + k]); } dur[p * (K + 1) + K] = s; }
const fHost = new Int32Array(FRONT), fFree = new Float64Array(FRONT), fCls = new Int32Array(FRONT);
for (let k = 0; k < FRONT; k++) { fHost[k] = k; fFree[k] = k * 30; fCls[k] = k % K; }
for (let x = 0; x < n * C; x++) { sendDur[x] = 10 * rnd(); availReady[x] = 0; outDur[x] = rnd(); holdS[x] = 1e9; h1[x] = 5000; h2[x] = 5001; c1[x] = 1000 * rnd(); }
const list = new Int32Array(n), active = new Uint8Array(n).fill(1), idOf = new Int32Array(n); for (let j = 0; j < n; j++) { list[j] = j; idOf[j] = j; }
// Which visits recompute and which rescore: random at the plan's ratios (branches as unpredictable as the real pass).
const FLAGS = 1 << 20; const recompute = new Uint8Array(FLAGS), rescore = new Uint8Array(FLAGS);
const pR = RECOMP / VISITS, pS = RESCORES / VISITS;
for (let x = 0; x < FLAGS; x++) {
  // blocked: runs of 64 visits alike (branches predictable, as a lower bound); else independent draws
  const u = BLOCKED ? ((Math.floor(x / 64) * 0.6180339887) % 1) : rnd();
  const u2 = BLOCKED ? ((Math.floor(x / 64) * 0.7548776662) % 1) : rnd();
  recompute[x] = u < pR ? 1 : 0; rescore[x] = u2 < pS ? 1 : 0; }
const stepsPerRecompute = STEPS / Math.max(1, RECOMP);
// front lengths such that the scan breaks after about stepsPerRecompute hosts: shortest + free[k] >= best end.
function pass(c, count, mode, offset) {
  // mode 0: visit only (kept test, best Work); 1: + recompute on flagged; 2: + rescore on flagged
  const base = c * n; const linkFreeS = 1; let best = -1, bestK1 = Infinity, still = 0;
  const len = FRONT; const frees0 = fFree[0]; const scanLimit = stepsPerRecompute;
  for (let p = 0; p < count; p++) {
    const j = list[p]; if (active[j] === 0) continue;
    const cell = base + j;
    const oldH1 = h1[cell], oldH2 = SECOND ? h2[cell] : -1;
    let kept = oldH1 !== 7 && oldH2 !== 7 && linkFreeS + sendDur[cell] <= holdS[cell];
    const flagIx = (offset + p) & (FLAGS - 1);
    if (mode >= 1 && recompute[flagIx] === 1) kept = false;
    let changed = false;
    if (!kept) {
      const readyS = Math.max(availReady[cell], linkFreeS + sendDur[cell]);
      const durs = profileOf[j] * (K + 1); const shortest = dur[durs + K];
      let be = Infinity, bk = -1, se = Infinity, sk = -1;
      for (let k = 0; k < len; k++) {
        if (k >= scanLimit && fFree[k] + shortest >= (SECOND ? se : be) - 1e9) break;
        const endS = Math.max(fFree[k], readyS) + dur[durs + fCls[k]];
        if (bk < 0 || endS < be) { se = be; sk = bk; be = endS; bk = k; } else if (sk < 0 || endS < se) { se = endS; sk = k; }
      }
      const bh = bk < 0 ? -1 : fHost[bk]; const complS = be + outDur[cell]; const bw = j * C + c;
      changed = oldH1 !== bh || e1[cell] !== be || c1[bw] !== complS;
      c1[bw] = complS; e1[cell] = be; h1[cell] = 5000 + bh;
      if (SECOND) { const sh = sk < 0 ? -1 : fHost[sk]; const c2S = se + outDur[cell]; changed ||= oldH2 !== sh || e2[cell] !== se || c2[bw] !== c2S; c2[bw] = c2S; e2[cell] = se; h2[cell] = 5001 + sh; }
      holdS[cell] = 1e9;
    }
    if (mode >= 2 && rescore[flagIx] === 1) {
      // best two clusters over the Work's row of Compls
      const from = j * C; let b = -1, bc = 0, s = -1, sc = 0;
      for (let q = 0; q < C; q++) { const cc = c1[from + q]; if (b < 0 || cc < bc) { s = b; sc = bc; b = q; bc = cc; } else if (s < 0 || cc < sc) { s = q; sc = cc; } }
      k1[j] = -(sc - bc); tgt[j] = b; w1[j] = b; w2[j] = s; bound[j] = sc;
    }
    list[still++] = j;
    const kk = k1[j];
    if (best < 0 || kk < bestK1 || (kk === bestK1 && idOf[j] < idOf[best])) { best = j; bestK1 = kk; }
  }
  return best;
}
function run(mode) {
  const perPass = VISITS / PL; let off = 0; let sink = 0;
  const t0 = process.cpuUsage().user;
  for (let r = 0; r < PL; r++) { sink += pass(r % C, Math.min(n, Math.round(perPass)), mode, off); off += 7919; }
  return [(process.cpuUsage().user - t0) * 1000 / VISITS, sink]; // ns per visit
}
for (let w = 0; w < 2; w++) { run(0); run(1); run(2); } // warm-up
const med = (f) => { const xs = [f(), f(), f()].sort((a, b) => a - b); return xs[1]; };
const v = med(() => run(0)[0]), vr = med(() => run(1)[0]), vrs = med(() => run(2)[0]);
const perRecompute = (vr - v) * VISITS / RECOMP, perRescore = (vrs - vr) * VISITS / RESCORES;
console.log(`visit ${v.toFixed(1)} ns; recompute (${stepsPerRecompute.toFixed(1)} scan steps) ${perRecompute.toFixed(1)} ns; rescore ${perRescore.toFixed(1)} ns`);
console.log(`floor without scoring: ${(vr * VISITS / 1e9).toFixed(3)} s = ${VISITS} visits x ${v.toFixed(1)} ns + ${RECOMP} recomputes x ${perRecompute.toFixed(1)} ns; with scoring (best two of ${C} Compls) ${(vrs * VISITS / 1e9).toFixed(3)} s`);
