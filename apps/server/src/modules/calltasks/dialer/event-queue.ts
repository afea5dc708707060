/** A min-heap of timed events for the floor simulation; equal times come out in insertion order. */
export class EventQueue<T> {
  private readonly heap: { at: number; seq: number; item: T }[] = [];
  private seq = 0;

  get size() {
    return this.heap.length;
  }

  push(at: number, item: T) {
    const h = this.heap;
    h.push({ at, seq: this.seq++, item });
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  pop(): { at: number; item: T } | undefined {
    const h = this.heap;
    if (h.length === 0) return undefined;
    const top = h[0];
    const last = h.pop() as (typeof h)[number];
    if (h.length > 0) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && this.less(l, m)) m = l;
        if (r < h.length && this.less(r, m)) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return { at: top.at, item: top.item };
  }

  private less(i: number, j: number) {
    const a = this.heap[i];
    const b = this.heap[j];
    return a.at < b.at || (a.at === b.at && a.seq < b.seq);
  }
}
