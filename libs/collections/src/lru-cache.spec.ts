import { LruCache } from './lru-cache.js';

describe(LruCache.name, () => {
  function counted(capacity: number) {
    const made: string[] = [];
    const sut = new LruCache<string, string>(capacity);
    const get = (key: string) =>
      sut.getOrCreate(key, (k) => {
        made.push(k);
        return `value of ${k}`;
      });
    return { sut, made, get };
  }

  it('makes a value once and returns it while held', () => {
    const { sut, made, get } = counted(2);
    expect(get('a')).toBe('value of a');
    expect(get('a')).toBe('value of a');
    expect(made).toEqual(['a']);
    expect(sut.size).toBe(1);
  });

  it('never holds more than its capacity', () => {
    const { sut, get } = counted(3);
    for (const key of 'abcdefgh') get(key);
    expect(sut.size).toBe(3);
    expect(sut.capacity).toBe(3);
  });

  it('forgets the least recently used, counting reads as uses', () => {
    const { made, get } = counted(2);
    get('a');
    get('b');
    get('a'); // b is now the least recently used
    get('c'); // evicts b
    made.length = 0;
    get('a');
    get('c');
    expect(made).toEqual([]);
    get('b');
    expect(made).toEqual(['b']);
  });

  it('stores nothing when making the value throws', () => {
    const sut = new LruCache<string, number>(2);
    expect(() =>
      sut.getOrCreate('a', () => {
        throw new Error('no');
      }),
    ).toThrow('no');
    expect(sut.size).toBe(0);
  });

  it('clear() empties it', () => {
    const { sut, made, get } = counted(2);
    get('a');
    sut.clear();
    expect(sut.size).toBe(0);
    get('a');
    expect(made).toEqual(['a', 'a']);
  });

  it('refuses a capacity that is not a positive integer', () => {
    expect(() => new LruCache(0)).toThrow('expected a capacity that is a positive integer; got 0');
    expect(() => new LruCache(1.5)).toThrow(RangeError);
  });
});
