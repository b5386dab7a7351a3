# Parallel workload lines (structured jobs for time-sharing, the job model of Zhang and Sivasubramaniam
# 2004, section 2.2). Start symbols: `header` for the first line, `job` for every other line. Fields of a
# job line come in any order; which are required, repeated or out of range is checked after parsing.
@include "common.ne"

header -> "ParallelWorkload" number {% (d: any[]) => ({ keyword: d[0], version: d[1] }) %}
        | "ParallelWorkload" number "seed" number {% (d: any[]) => ({ keyword: d[0], version: d[1], seedKeyword: d[2], seed: d[3] }) %}

job -> "Job" number field:* {% (d: any[]) => ({ keyword: d[0], id: d[1], fields: d[2] }) %}

field -> "submit" number {% (d: any[]) => ({ key: d[0], value: d[1] }) %}
       | "tasks" number {% (d: any[]) => ({ key: d[0], value: d[1] }) %}
       | "iterations" number {% (d: any[]) => ({ key: d[0], value: d[1] }) %}
       | "message" number {% (d: any[]) => ({ key: d[0], value: d[1] }) %}
       | "pattern" name {% (d: any[]) => ({ key: d[0], name: d[1] }) %}
       | "class" name {% (d: any[]) => ({ key: d[0], name: d[1] }) %}
       | "compute" dist {% (d: any[]) => ({ key: d[0], dist: d[1] }) %}
       | "io" dist {% (d: any[]) => ({ key: d[0], dist: d[1] }) %}

# A value per task: one number for every task, a uniform or exponential draw per task, or a list of one
# value per task written `count : v1 ... vcount` (or inside <...>).
dist -> number {% (d: any[]) => ({ form: 'constant', args: [d[0]] }) %}
      | "uniform" number number {% (d: any[]) => ({ form: 'uniform', keyword: d[0], args: [d[1], d[2]] }) %}
      | "exponential" number {% (d: any[]) => ({ form: 'exponential', keyword: d[0], args: [d[1]] }) %}
      | %LT number %COLON number:* %GT {% (d: any[]) => ({ form: 'list', count: d[1], args: d[3] }) %}
      | number %COLON number:* {% (d: any[]) => ({ form: 'list', count: d[0], args: d[2] }) %}
