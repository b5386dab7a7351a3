# Application description lines (Berman et al. 1999, §7.2.2, appendix B). Start symbols: `header` for the first
# line, `line` (a File or a Work line) for every other line. Leaves of the result are tokens.
@include "common.ne"

line -> fileLine {% id %}
      | workLine {% id %}

header -> "WorkDescription" name number number
  {% (d: any[]) => ({ keyword: d[0], version: d[1], fileCount: d[2], workCount: d[3] }) %}

fileLine -> "File" %COLON number name number number
  {% (d: any[]) => ({ kind: 'file', keyword: d[0], id: d[2], name: d[3], size: d[4], estSize: d[5] }) %}

workLine -> "Work" %COLON number list list list list
  {% (d: any[]) => ({ kind: 'work', keyword: d[0], id: d[2], inputs: d[3], outputs: d[4], runTimes: d[5], estRunTimes: d[6] }) %}

# `<count : v1 ... vcount>` or, bare, `count : v1 ... vcount` (the next list starts at the number before
# its ':', so bare lists parse one way only). Whether count matches the values is checked after parsing.
list -> %LT number %COLON number:* %GT {% (d: any[]) => ({ count: d[1], items: d[3] }) %}
      | number %COLON number:* {% (d: any[]) => ({ count: d[0], items: d[2] }) %}
