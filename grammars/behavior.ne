# Behaviour file lines (Berman et al. 1999, §7.2.1): the count line and the sample lines are both a list of numbers;
# how many numbers a line may hold (1 for the count, pairs for links) is checked after parsing.
@include "common.ne"

values -> number:+ {% id %}
