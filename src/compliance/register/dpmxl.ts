/**
 * A small evaluator of the DPM-XL expressions the EBA writes its DORA validation rules in
 * (ebaRules.json), enough for the 63 rules of the register: `with {tB_xx.xx, default: …}:`,
 * `if … then … endif`, `not`, `and`, `or`, `isnull`, `match`, `=`, `!=`, `>`, `>=`, `<`, `<=`,
 * `in {…}`, column selections (`{c0010}`, `{c*}`, `{c0020-0090}`, `{(c0020, c0050)}`,
 * `{tB_01.02, c0060}`), items (`[eba_CO:x3]`), strings and numbers.
 *
 * Rows are evaluated one at a time. An empty cell is null; comparisons with null are null, and
 * a rule whose result is null holds (three-valued logic, as DPM-XL). A selection of several
 * columns yields one value per column and operators apply to each; the rule holds when every
 * value holds. The `default` of a `with` clause replaces null in comparisons only, never in
 * `isnull` (so `default: 0` does not make an `isnull` test vacuous).
 */

export type Row = Record<string, string>;
type Scalar = string | number | boolean | null;
type Value = Scalar | Scalar[];

type Node =
  | { k: 'with'; table: string; dflt: Scalar; body: Node }
  | { k: 'if'; cond: Node; then: Node }
  | { k: 'or' | 'and'; items: Node[] }
  | { k: 'not'; item: Node }
  | { k: 'cmp'; op: string; left: Node; right: Node }
  | { k: 'in'; left: Node; set: string[] }
  | { k: 'isnull'; item: Node }
  | { k: 'match'; item: Node; re: RegExp }
  | { k: 'sel'; table: string | null; cols: string[] | '*' }
  | { k: 'lit'; value: Scalar };

const TOKEN = /\s*(\{t?B_\d\d\.\d\d\s*,?|\[[^\]]+\]|"[^"]*"|<=|>=|!=|[(){},:=<>*-]|[A-Za-z_][A-Za-z0-9_.]*|\d+(?:\.\d+)?)/y;

function tokenize(src: string): string[] {
  const out: string[] = [];
  TOKEN.lastIndex = 0;
  let pos = 0;
  while (pos < src.length) {
    if (/^\s*$/.test(src.slice(pos))) break;
    TOKEN.lastIndex = pos;
    const m = TOKEN.exec(src);
    if (!m) throw new Error(`DPM-XL: cannot read "${src.slice(pos, pos + 20)}"`);
    out.push(m[1]!);
    pos = TOKEN.lastIndex;
  }
  return out;
}

class Parser {
  private i = 0;
  constructor(private readonly t: string[]) {}
  private peek = (o = 0) => this.t[this.i + o];
  private next = () => this.t[this.i++]!;
  private expect(s: string) {
    const n = this.next();
    if (n !== s) throw new Error(`DPM-XL: expected ${s}, got ${n}`);
  }
  parseRule(): Node {
    let node: Node;
    if (this.peek() === 'with') {
      this.next();
      // {tB_06.01, default: null, interval: false}:
      const head = this.next(); // "{tB_06.01,"
      const table = /B_\d\d\.\d\d/.exec(head)![0];
      let dflt: Scalar = null;
      while (this.peek() !== '}') {
        const key = this.next();
        if (key === ',') continue;
        this.expect(':');
        const v = this.next();
        if (key === 'default') dflt = v === 'null' ? null : Number(v);
      }
      this.expect('}');
      this.expect(':');
      node = { k: 'with', table, dflt, body: this.expr() };
    } else node = this.expr();
    if (this.i < this.t.length) throw new Error(`DPM-XL: unexpected ${this.peek()}`);
    return node;
  }
  private expr(): Node {
    if (this.peek() === 'if') {
      this.next();
      const cond = this.expr();
      this.expect('then');
      const then = this.expr();
      this.expect('endif');
      return { k: 'if', cond, then };
    }
    return this.or();
  }
  private or(): Node {
    const items = [this.and()];
    while (this.peek() === 'or') {
      this.next();
      items.push(this.and());
    }
    return items.length === 1 ? items[0]! : { k: 'or', items };
  }
  private and(): Node {
    const items = [this.cmp()];
    while (this.peek() === 'and') {
      this.next();
      items.push(this.cmp());
    }
    return items.length === 1 ? items[0]! : { k: 'and', items };
  }
  private cmp(): Node {
    const left = this.unary();
    const op = this.peek();
    if (op === 'in') {
      this.next();
      this.expect('{');
      const set: string[] = [];
      while (this.peek() !== '}') {
        const n = this.next();
        if (n !== ',') set.push(n.slice(1, -1));
      }
      this.expect('}');
      return { k: 'in', left, set };
    }
    if (op && ['=', '!=', '>', '>=', '<', '<='].includes(op)) {
      this.next();
      return { k: 'cmp', op, left, right: this.unary() };
    }
    return left;
  }
  private unary(): Node {
    if (this.peek() === 'not') {
      this.next();
      return { k: 'not', item: this.unary() };
    }
    return this.primary();
  }
  private primary(): Node {
    const n = this.next();
    if (n === '(') {
      const e = this.expr();
      this.expect(')');
      return e;
    }
    if (n === 'isnull' || n === 'match') {
      this.expect('(');
      const item = this.expr();
      if (n === 'isnull') {
        this.expect(')');
        return { k: 'isnull', item };
      }
      this.expect(',');
      const re = this.next();
      this.expect(')');
      return { k: 'match', item, re: new RegExp(re.slice(1, -1)) };
    }
    if (n === '{' || n.startsWith('{t')) return this.selection(n.startsWith('{t') ? /B_\d\d\.\d\d/.exec(n)![0] : null);
    if (n.startsWith('[')) return { k: 'lit', value: n.slice(1, -1) };
    if (n.startsWith('"')) return { k: 'lit', value: n.slice(1, -1) };
    if (/^\d/.test(n)) return { k: 'lit', value: Number(n) };
    throw new Error(`DPM-XL: unexpected ${n}`);
  }
  /** After `{` (or `{tB_xx.xx,`): `c0010}`, `c*}`, `c0020-0090}`, `(c0020, c0050)}`. */
  private selection(table: string | null): Node {
    let cols: string[] | '*';
    if (this.peek() === '(') {
      this.next();
      cols = [];
      while (this.peek() !== ')') {
        const c = this.next();
        if (c !== ',') cols.push(c);
      }
      this.next();
    } else {
      const c = this.next();
      if (this.peek() === '*') {
        this.next();
        cols = '*';
      } else if (this.peek() === '-') {
        this.next();
        const to = Number(this.next());
        const from = Number(c.slice(1));
        cols = [];
        for (let x = from; x <= to; x += 10) cols.push(`c${String(x).padStart(4, '0')}`);
      } else cols = [c];
    }
    this.expect('}');
    return { k: 'sel', table, cols };
  }
}

/** A parsed rule: the table it applies to and its expression tree. */
export interface CompiledRule {
  table: string;
  node: Node;
  /** Columns the rule is about: those of the `then` part of an `if`, else every column it reads. */
  target: string[] | '*';
}

function columnsOf(n: Node): string[] | '*' {
  switch (n.k) {
    case 'sel':
      return n.cols;
    case 'lit':
      return [];
    case 'with':
      return columnsOf(n.body);
    case 'if':
      return merge(columnsOf(n.cond), columnsOf(n.then));
    case 'or':
    case 'and':
      return n.items.map(columnsOf).reduce(merge, []);
    case 'not':
    case 'isnull':
    case 'match':
      return columnsOf(n.item);
    case 'cmp':
      return merge(columnsOf(n.left), columnsOf(n.right));
    case 'in':
      return columnsOf(n.left);
  }
}
const merge = (a: string[] | '*', b: string[] | '*'): string[] | '*' => (a === '*' || b === '*' ? '*' : [...new Set([...a, ...b])]);

export function compileRule(expression: string): CompiledRule {
  const node = new Parser(tokenize(expression)).parseRule();
  const body = node.k === 'with' ? node.body : node;
  let table = node.k === 'with' ? node.table : null;
  const findTable = (n: Node): string | null =>
    n.k === 'sel' ? n.table : 'item' in n ? findTable(n.item) : 'items' in n ? (n.items.map(findTable).find(Boolean) ?? null) : null;
  table ??= findTable(body);
  if (!table) throw new Error(`DPM-XL: no table in ${expression}`);
  return { table, node, target: body.k === 'if' ? columnsOf(body.then) : columnsOf(body) };
}

const isNum = (s: string) => /^-?\d+(\.\d+)?$/.test(s);
function scalarOf(v: string | undefined): Scalar {
  return v === undefined || v === '' ? null : v;
}
const each = (v: Value, f: (s: Scalar) => Scalar): Value => (Array.isArray(v) ? v.map(f) : f(v));
function zip(a: Value, b: Value, f: (x: Scalar, y: Scalar) => Scalar): Value {
  if (Array.isArray(a)) return a.map((x, i) => f(x, Array.isArray(b) ? (b[i] ?? null) : b));
  if (Array.isArray(b)) return b.map((y) => f(a, y));
  return f(a, b);
}
/** Three-valued logic over a value that may be per column: all must hold. */
function truth(v: Value): boolean | null {
  if (Array.isArray(v)) {
    const ts = v.map((x) => truth(x));
    if (ts.includes(false)) return false;
    return ts.includes(null) ? null : true;
  }
  if (v === null) return null;
  return v === true || (typeof v !== 'boolean' && v !== '' && v !== 0);
}

function compare(op: string, x: Scalar, y: Scalar): Scalar {
  if (x === null || y === null) return null;
  if (typeof x === 'string' && typeof y === 'string' && !(isNum(x) && isNum(y))) {
    switch (op) {
      case '=':
        return x === y;
      case '!=':
        return x !== y;
      case '>':
        return x > y;
      case '>=':
        return x >= y;
      case '<':
        return x < y;
      case '<=':
        return x <= y;
    }
  }
  const a = Number(x);
  const b = Number(y);
  if (Number.isNaN(a) || Number.isNaN(b)) return op === '!=' ? true : op === '=' ? false : null;
  switch (op) {
    case '=':
      return a === b;
    case '!=':
      return a !== b;
    case '>':
      return a > b;
    case '>=':
      return a >= b;
    case '<':
      return a < b;
    default:
      return a <= b;
  }
}

function evaluate(n: Node, row: Row, columns: string[], dflt: Scalar, raw: boolean): Value {
  switch (n.k) {
    case 'with':
      return evaluate(n.body, row, columns, n.dflt, raw);
    case 'if': {
      const c = truth(evaluate(n.cond, row, columns, dflt, raw));
      return c === true ? evaluate(n.then, row, columns, dflt, raw) : null;
    }
    case 'or': {
      const ts = n.items.map((x) => truth(evaluate(x, row, columns, dflt, raw)));
      return ts.includes(true) ? true : ts.includes(null) ? null : false;
    }
    case 'and': {
      const ts = n.items.map((x) => truth(evaluate(x, row, columns, dflt, raw)));
      return ts.includes(false) ? false : ts.includes(null) ? null : true;
    }
    case 'not':
      return each(evaluate(n.item, row, columns, dflt, raw), (s) => (s === null ? null : !truth(s)));
    case 'isnull':
      return each(evaluate(n.item, row, columns, dflt, true), (s) => s === null);
    case 'match':
      return each(evaluate(n.item, row, columns, dflt, raw), (s) => (s === null ? null : n.re.test(String(s))));
    case 'cmp': {
      const l = evaluate(n.left, row, columns, dflt, raw);
      const r = evaluate(n.right, row, columns, dflt, raw);
      const withDefault = (s: Scalar) => (s === null ? dflt : s);
      return zip(each(l, withDefault), each(r, withDefault), (x, y) => compare(n.op, x, y));
    }
    case 'in':
      return each(evaluate(n.left, row, columns, dflt, raw), (s) => (s === null ? null : n.set.includes(String(s))));
    case 'sel': {
      const cols = n.cols === '*' ? columns : n.cols;
      const vals = cols.map((c) => {
        const v = scalarOf(row[c]);
        return v === null && !raw ? dflt : v;
      });
      return vals.length === 1 ? vals[0]! : vals;
    }
    case 'lit':
      return n.value;
  }
}

/** Whether a row satisfies the rule (`columns`: every column of the rule's table, for `{c*}`). */
export function holds(rule: CompiledRule, row: Row, columns: string[]): boolean {
  return truth(evaluate(rule.node, row, columns, null, false)) !== false;
}

/** The cells a failed rule is about: the target columns that are empty, else every target column. */
export function cellsAtFault(rule: CompiledRule, row: Row, columns: string[]): string[] {
  const target = rule.target === '*' ? columns : rule.target;
  const empty = target.filter((c) => !row[c]);
  return empty.length ? empty : target;
}
