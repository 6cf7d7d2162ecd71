/**
 * The methods of the built-in values (Python library reference, "Built-in Types"): lists, tuples, sets, dicts and
 * strings (`xs.append`, `d.items()`, `'{}'.format`, …), each a builtin bound to its object.
 */
import { semanticError } from '../errors.js';
import { checkListLength } from '../limits.js';
import { iterate, toInt, typeName, type PyBuiltin, type PyValue } from './python-objects.js';
import { PyDict, PySet, PyTuple, formatSpec, pyCompare, pyEquals, pyRepr, setOp, strFormat, truthy } from './python-values.js';

/** Methods of lists, dicts and strings (`obj.append`, `d.items()`, `'{}'.format`, …), or undefined. */
export function valueMethod(obj: PyValue, name: string, line: number, callFn: (fn: PyValue, args: PyValue[]) => PyValue): PyBuiltin | undefined {
  const m = (call: (args: PyValue[], kwargs: Map<string, PyValue>, l: number) => PyValue): PyBuiltin => ({
    kind: 'builtin',
    name: `${typeName(obj)}.${name}`,
    call,
  });
  if (Array.isArray(obj)) {
    switch (name) {
      case 'append':
        return m((args, _k, l) => {
          obj.push(args[0] ?? null);
          checkListLength(obj.length, l);
          return null;
        });
      case 'extend':
        return m((args, _k, l) => {
          obj.push(...iterate(args[0] ?? null, l, 'extend()'));
          checkListLength(obj.length, l);
          return null;
        });
      case 'insert':
        return m((args, _k, l) => {
          const i = toInt(args[0] ?? null, l, 'an index');
          obj.splice(i < 0 ? Math.max(0, obj.length + i) : i, 0, args[1] ?? null);
          return null;
        });
      case 'pop':
        return m((args, _k, l) => {
          if (!obj.length) throw semanticError(l, 'pop from an empty list');
          const i = args.length ? toInt(args[0], l, 'an index') : obj.length - 1;
          const k = i < 0 ? obj.length + i : i;
          if (k < 0 || k >= obj.length) throw semanticError(l, `pop index ${i} is out of range`);
          return obj.splice(k, 1)[0];
        });
      case 'remove':
        return m((args, _k, l) => {
          const k = obj.findIndex((x) => pyEquals(x, args[0] ?? null));
          if (k < 0) throw semanticError(l, `list.remove(x): ${pyRepr(args[0] ?? null)} is not in the list`);
          obj.splice(k, 1);
          return null;
        });
      case 'reverse':
        return m(() => {
          obj.reverse();
          return null;
        });
      case 'sort':
        return m((_a, kwargs, l) => {
          const fn = kwargs.get('key');
          const keyed = obj.map((v) => [fn === undefined || fn === null ? v : callFn(fn, [v]), v] as const);
          keyed.sort((x, y) => pyCompare(x[0], y[0], '<', l));
          if (truthy(kwargs.get('reverse') ?? false)) keyed.reverse();
          keyed.forEach((x, i) => {
            obj[i] = x[1];
          });
          return null;
        });
      case 'copy':
        return m(() => [...obj]);
      case 'clear':
        return m(() => {
          obj.length = 0;
          return null;
        });
    }
  }
  if (Array.isArray(obj) || obj instanceof PyTuple) {
    const items = Array.isArray(obj) ? obj : obj.items;
    if (name === 'index')
      return m((args, _k, l) => {
        const k = items.findIndex((x) => pyEquals(x, args[0] ?? null));
        if (k < 0) throw semanticError(l, `${pyRepr(args[0] ?? null)} is not in the ${typeName(obj)}`);
        return k;
      });
    if (name === 'count') return m((args) => items.filter((x) => pyEquals(x, args[0] ?? null)).length);
  }
  if (obj instanceof PySet) {
    const other = (v: PyValue | undefined, l: number) => (v instanceof PySet ? v : PySet.of(iterate(v ?? null, l, `set.${name}()`), l));
    switch (name) {
      case 'add':
        return m((args, _k, l) => {
          obj.add(args[0] ?? null, l);
          return null;
        });
      case 'discard':
      case 'remove':
        return m((args, _k, l) => {
          if (!obj.delete(args[0] ?? null, l) && name === 'remove') throw semanticError(l, `KeyError: ${pyRepr(args[0] ?? null)} is not in the set`);
          return null;
        });
      case 'update':
        return m((args, _k, l) => {
          for (const a of args) for (const x of iterate(a, l, 'set.update()')) obj.add(x, l);
          return null;
        });
      case 'union':
        return m((args, _k, l) => args.reduce<PySet>((acc, a) => setOp('|', acc, other(a, l), l), PySet.of(obj.keys(), l)));
      case 'intersection':
        return m((args, _k, l) => args.reduce<PySet>((acc, a) => setOp('&', acc, other(a, l), l), PySet.of(obj.keys(), l)));
      case 'difference':
        return m((args, _k, l) => args.reduce<PySet>((acc, a) => setOp('-', acc, other(a, l), l), PySet.of(obj.keys(), l)));
      case 'symmetric_difference':
        return m((args, _k, l) => setOp('^', obj, other(args[0], l), l));
      case 'issubset':
        return m((args, _k, l) => obj.keys().every((x) => other(args[0], l).has(x, l)));
      case 'issuperset':
        return m((args, _k, l) =>
          other(args[0], l)
            .keys()
            .every((x) => obj.has(x, l)),
        );
      case 'isdisjoint':
        return m((args, _k, l) => !obj.keys().some((x) => other(args[0], l).has(x, l)));
      case 'copy':
        return m((_a, _k, l) => PySet.of(obj.keys(), l));
      case 'clear':
        return m(() => {
          obj.map.clear();
          return null;
        });
    }
    return undefined;
  }
  if (obj instanceof PyDict) {
    switch (name) {
      case 'get':
        return m((args, _k, l) => obj.get(args[0] ?? null, l) ?? args[1] ?? null);
      case 'keys':
        return m(() => obj.keys());
      case 'values':
        return m(() => obj.values());
      case 'items':
        return m(() => [...obj.map.values()].map(([k, v]) => new PyTuple([k, v])));
      case 'update':
        return m((args, kwargs, l) => {
          if (args[0] instanceof PyDict) for (const [k, v] of args[0].map.values()) obj.set(k, v, l);
          else if (args.length)
            for (const item of iterate(args[0], l, 'update()')) {
              const [k, v] = iterate(item, l, 'an update() item');
              obj.set(k, v, l);
            }
          for (const [k, v] of kwargs) obj.set(k, v, l);
          return null;
        });
      case 'pop':
        return m((args, _k, l) => {
          const v = obj.get(args[0] ?? null, l);
          if (v === undefined) {
            if (args.length > 1) return args[1];
            throw semanticError(l, `KeyError: ${pyRepr(args[0] ?? null)}`);
          }
          obj.delete(args[0] ?? null, l);
          return v;
        });
      case 'setdefault':
        return m((args, _k, l) => {
          const v = obj.get(args[0] ?? null, l);
          if (v !== undefined) return v;
          obj.set(args[0] ?? null, args[1] ?? null, l);
          return args[1] ?? null;
        });
      case 'copy':
        return m((_a, _k, l) => {
          const d = new PyDict();
          for (const [k, v] of obj.map.values()) d.set(k, v, l);
          return d;
        });
    }
  }
  if (typeof obj === 'string') {
    const str = (fn: (s: string, args: PyValue[], l: number) => PyValue) => m((args, _k, l) => fn(obj, args, l));
    const text = (v: PyValue | undefined, l: number, what: string): string => {
      if (typeof v !== 'string') throw semanticError(l, `${what} must be a str; got ${typeName(v ?? null)}`);
      return v;
    };
    switch (name) {
      case 'format':
        return m((args, kwargs, l) => strFormat(obj, args, kwargs, l));
      case 'join':
        return str((s, args, l) =>
          iterate(args[0] ?? null, l, 'join()')
            .map((x) => text(x, l, 'each item joined'))
            .join(s),
        );
      case 'upper':
        return str((s) => s.toUpperCase());
      case 'lower':
        return str((s) => s.toLowerCase());
      case 'strip':
      case 'lstrip':
      case 'rstrip':
        return str((s, args, l) => {
          const chars = args[0] === undefined || args[0] === null ? ' \t\n\r' : text(args[0], l, 'the characters');
          let a = 0;
          let b = s.length;
          if (name !== 'rstrip') while (a < b && chars.includes(s[a])) a++;
          if (name !== 'lstrip') while (b > a && chars.includes(s[b - 1])) b--;
          return s.slice(a, b);
        });
      case 'split':
        return str((s, args, l) => {
          if (args[0] === undefined || args[0] === null) return s.split(/\s+/).filter((x) => x !== '');
          return s.split(text(args[0], l, 'the separator'));
        });
      case 'replace':
        return str((s, args, l) => s.split(text(args[0], l, 'the old text')).join(text(args[1], l, 'the new text')));
      case 'startswith':
        return str((s, args, l) => s.startsWith(text(args[0], l, 'the prefix')));
      case 'endswith':
        return str((s, args, l) => s.endsWith(text(args[0], l, 'the suffix')));
      case 'count':
        return str((s, args, l) => s.split(text(args[0], l, 'the text to count')).length - 1);
      case 'find':
        return str((s, args, l) => s.indexOf(text(args[0], l, 'the text to find')));
      case 'index':
        return str((s, args, l) => {
          const k = s.indexOf(text(args[0], l, 'the text to find'));
          if (k < 0) throw semanticError(l, 'substring not found');
          return k;
        });
      case 'zfill':
        return str((s, args, l) => {
          const w = toInt(args[0] ?? null, l, 'the width');
          const sign = /^[+-]/.test(s) ? s[0] : '';
          return sign + s.slice(sign.length).padStart(w - sign.length, '0');
        });
      case 'ljust':
      case 'rjust':
      case 'center':
        return str((s, args, l) =>
          formatSpec(
            s,
            `${args[1] === undefined ? ' ' : text(args[1], l, 'the fill character')}${name === 'ljust' ? '<' : name === 'rjust' ? '>' : '^'}${toInt(args[0] ?? null, l, 'the width')}`,
            l,
          ),
        );
      case 'isdigit':
        return str((s) => /^[0-9]+$/.test(s));
      case 'isalpha':
        return str((s) => /^[A-Za-z]+$/.test(s));
    }
  }
  void line;
  return undefined;
}
