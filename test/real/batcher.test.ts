// The Batcher that gathers finished tasks' directories into one removal request per host.
import { describe, expect, it } from 'vitest';
import { Batcher } from '../../backends/transport/batcher.js';

describe('Batcher', () => {
  it('sends what was added within its wait as one batch, at once when full, and settles each add with its batch', async () => {
    const sent: number[][] = [];
    const batcher = new Batcher<number>(50, 3, async (items) => {
      sent.push(items);
      if (items.includes(13)) throw new Error('refused');
    });
    const full = [1, 2, 3].map((i) => batcher.add(i));
    expect(sent).toEqual([[1, 2, 3]]);
    await Promise.all(full);
    const gathered = [4, 5].map((i) => batcher.add(i));
    expect(sent).toHaveLength(1);
    await Promise.all(gathered);
    expect(sent).toEqual([[1, 2, 3], [4, 5]]);
    const refused = [12, 13].map((i) => batcher.add(i));
    for (const r of refused) await expect(r).rejects.toThrow('refused');
  });
});
