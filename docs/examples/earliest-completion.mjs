// A heuristic plug-in for gridsweep (docs/plugins.md): each Work in turn, in the order offered, goes to
// the host where it would complete earliest — Min-min without choosing which Work goes first.
//   gridsweep check-heuristic docs/examples/earliest-completion.mjs
//   gridsweep simulate --app apps/appendix-b.app --grid griddescs/appendix-a/appendix-a.grid --heuristic ./docs/examples/earliest-completion.mjs

export default {
  name: 'earliest-completion',
  code: 'EC',
  help: 'each Work in id order to the host where it completes earliest',
  plan({ chart, works }) {
    for (const work of works) {
      if (!chart.hasRoom()) return;
      let best = -1;
      let bestS = Infinity;
      for (let host = 0; host < chart.hosts.length; host++) {
        if (!chart.takesWork(host)) continue;
        const { complS } = chart.compl(work, host);
        if (complS < bestS) {
          best = host;
          bestS = complS;
        }
      }
      if (best < 0) return;
      chart.commit(work, best);
    }
  },
};
