// The largest value an input file may give for a size, time or count: 2^53 − 1. Up to it a double holds
// every whole number exactly; from 2^53 on, neighbours merge (2^53 + 1 reads as 2^53), so a written value
// could silently become another, and a run time or size that large would only make a simulation run for
// ever. The description parsers and the SWF reader refuse anything larger (a value written as 2^53 + 1
// is read as 2^53 and refused too, since the limit is below it).

/** 2^53 − 1 = 9007199254740991 (Number.MAX_SAFE_INTEGER). */
export const MAX_EXACT = Number.MAX_SAFE_INTEGER;

/** How the limit reads in messages. */
export const MAX_EXACT_TEXT = `2^53 − 1 = ${MAX_EXACT}`;
