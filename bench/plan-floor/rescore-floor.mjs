// Floor of one re-scoring (issue 31, target 2): the best two of a Work's 10 cluster Compls (a row of a
// Float64Array laid Work by Work, as c1ByWork) and the five stores of a score, for Works met in increasing order
// with a given stride (as the pass meets the Works it re-scores); the Compls drift like a filling chart (each row
// close to the last, the order of its clusters changing now and then). Usage: node bench/plan-floor/rescore-floor.mjs [stride]
const n = 10000, C = 10, stride = Number(process.argv[2] ?? 4);
let seed = 99;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 4294967296);
const c1 = new Float64Array(n * C);
for (let j = 0; j < n; j++) for (let c = 0; c < C; c++) c1[j * C + c] = 1000 + 100 * c + 50 * rnd();
const k1 = new Float64Array(n), w1 = new Int32Array(n), w2 = new Int32Array(n), bound = new Float64Array(n), tgt = new Int32Array(n);
function pass(offset) {
  let scored = 0;
  for (let j = offset % stride; j < n; j += stride) {
    const from = j * C;
    let b = -1, bc = 0, s = -1, sc = 0;
    for (let c = 0; c < C; c++) {
      const cc = c1[from + c];
      if (b < 0 || cc < bc) { s = b; sc = bc; b = c; bc = cc; } else if (s < 0 || cc < sc) { s = c; sc = cc; }
    }
    k1[j] = -(sc - bc); tgt[j] = b; w1[j] = b; w2[j] = s; bound[j] = sc;
    scored++;
  }
  return scored;
}
const PASSES = 20000;
for (let r = 0; r < 2000; r++) pass(r);
const t0 = process.cpuUsage().user; let scored = 0;
for (let r = 0; r < PASSES; r++) { c1[(r * 7919) % (n * C)] += 3; scored += pass(r); }
const ns = (process.cpuUsage().user - t0) * 1000 / scored;
console.log(`best two of ${C} Compls + 5 stores: ${ns.toFixed(1)} ns per re-scoring (${scored} re-scorings, stride ${stride})`);
