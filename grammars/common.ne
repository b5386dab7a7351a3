# Tokens shared by every description format (included first by every other grammar; it carries the lexer setting).
# Every number or name may be written bare or wrapped in <...>, as the paper's appendices print them.
@preprocessor typescript
@{%
import { grammarLexer as lexer } from '../line-lexer.js';
%}
@lexer lexer

number -> %NUMBER {% id %}
        | %LT %NUMBER %GT {% (d: any[]) => d[1] %}

name -> word {% id %}
      | %LT word %GT {% (d: any[]) => d[1] %}

# A name may look like a number (a file called 42); keywords are names matched by value.
word -> %NAME {% id %}
      | %NUMBER {% id %}
