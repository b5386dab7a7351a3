// Row-major mapping: the k-th node in increasing node index (z slowest, then y, x fastest) takes the k-th
// block of C consecutive ranks — what an MPI launcher does when nobody thinks about mapping.
import { ranksInNodeOrder, type TaskMapper } from '../mapper.js';

export const rowMajor: TaskMapper = {
  name: 'row-major',
  help: 'ranks fill the nodes in increasing node index (x fastest, then y, then z), C ranks a node',
  map: (job) => ranksInNodeOrder(job.nodes, job.coresPerNode),
};
