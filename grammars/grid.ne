# Grid description lines (Berman et al. 1999, §7.2.1, appendix A). Start symbols: `header` for the first line,
# `event` for every other line. Leaves of the result are tokens (src/formats/line-lexer.ts).
@include "common.ne"

event -> number %COLON eventBody {% (d: any[]) => ({ time: d[0], ...d[2] }) %}

header -> "GridDescription" name {% (d: any[]) => ({ keyword: d[0], version: d[1] }) %}

eventBody ->
    "ADD_CLUSTER" name name number
      {% (d: any[]) => ({ kind: d[0], cluster: d[1], behavior: d[2], offset: d[3] }) %}
  | "ADD_HOST" name name name number number
      {% (d: any[]) => ({ kind: d[0], cluster: d[1], host: d[2], behavior: d[3], offset: d[4], arch: d[5] }) %}
  | "REMOVE_CLUSTER" name
      {% (d: any[]) => ({ kind: d[0], cluster: d[1] }) %}
  | "REMOVE_HOST" name
      {% (d: any[]) => ({ kind: d[0], host: d[1] }) %}
  | "CHANGE_HOST_BEHAVIOR" name name number
      {% (d: any[]) => ({ kind: d[0], host: d[1], behavior: d[2], offset: d[3] }) %}
  | "CHANGE_CLUSTER_BEHAVIOR" name name number
      {% (d: any[]) => ({ kind: d[0], cluster: d[1], behavior: d[2], offset: d[3] }) %}
  | batchCluster {% id %}
  | batchCluster name number
      {% (d: any[]) => ({ ...d[0], workload: d[1], workloadOffset: d[2] }) %}
  | batchCluster gangOption
      {% (d: any[]) => ({ ...d[0], ...d[1] }) %}
  | batchCluster name number gangOption
      {% (d: any[]) => ({ ...d[0], workload: d[1], workloadOffset: d[2], ...d[3] }) %}

# ADD_BATCH_CLUSTER cluster link-behaviour offset nodes cores-per-node policy allocator host-behaviour arch
#   [SWF-workload workload-offset] [gang:MPL]
# `gang:MPL` makes the cluster gang-scheduled (src/batch/gang-cluster.ts): up to MPL jobs share each core.
# `nodes` may name a machine instead (mesh:8x8x4, torus:4x4), and the allocator may carry parameters
# (linear:hilbert:best-fit, random:7): both are written with colons, as on the command line.
batchCluster -> "ADD_BATCH_CLUSTER" name name number machineSize number name allocatorSpec name number
      {% (d: any[]) => ({ kind: d[0], cluster: d[1], behavior: d[2], offset: d[3], ...d[4], coresPerNode: d[5], policy: d[6], allocator: d[7], hostBehavior: d[8], arch: d[9] }) %}

machineSize -> number {% (d: any[]) => ({ nodes: d[0] }) %}
  | name %COLON name {% (d: any[]) => ({ machine: [d[0], d[2]] }) %}

allocatorSpec -> name {% (d: any[]) => [d[0]] %}
  | allocatorSpec %COLON word {% (d: any[]) => [...d[0], d[2]] %}

gangOption -> "gang" %COLON number {% (d: any[]) => ({ gang: d[2], gangKeyword: d[0] }) %}
