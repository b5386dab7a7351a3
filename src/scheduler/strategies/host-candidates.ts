// Which hosts the estimate-based heuristics (H1–H9, XSufferage) score a Work on (Berman et al. 1999, appendix C).
// Appendix C takes every argmin over ALL hosts H(j,k). A host already "full" (work planned to start past the
// horizon t(i+1) + Δ, §5.5) is still a real option there: the Work would start later on it. The fill loop
// stops once every host is full either way; what differs is whether a full host can still be a Work's best
// or second-best host, and so receive it.
//  - all        every up host is a candidate (appendix C; the default);
//  - with-room  only hosts that are not full yet. Cheaper, but when the hosts with room all sit in one
//               cluster every cluster-level sufferage is 0 and the sufferage family degenerates to taking
//               Works by id (docs/fig11-analysis.md §2.2).
import type { StrategyChoice, StrategyFamily } from './family.js';

export const HOST_CANDIDATES = [
  { name: 'all', help: 'score every host, full ones included, as appendix C does (the default)' },
  { name: 'with-room', help: 'score only hosts not yet planned past the horizon' },
] as const satisfies readonly StrategyChoice[];
export type HostCandidates = (typeof HOST_CANDIDATES)[number]['name'];

export const hostCandidatesFamily: StrategyFamily = {
  option: 'hostCandidates',
  section: '5.6.3',
  help: 'which hosts a heuristic scores a Work on',
  choices: HOST_CANDIDATES,
  parameters: [],
};
