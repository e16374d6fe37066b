"""Parser / unparser / C++ translator for the oracle notation."""
import re

class ParseError(Exception):
    pass

# AST:
# ('int', v, static) ; ('under',) ; ('tuple', [..]) ; ('layout', S, D)
# ('swz', b, m, s) ; ('composed', swz, off, L) ; ('tag', name)
# ('basis', intnode, [modes]) ; ('call', name, [targs(str)], [args])

TOK = re.compile(r"\s*(Sw<|LayoutLeft|LayoutRight|[A-Za-z][A-Za-z0-9_]*|_-?\d+|-?\d+|_|[(),:<>@]|\so\s)")


class P:
    def __init__(self, s):
        self.s = s
        self.i = 0

    def peek(self, k=1):
        return self.s[self.i:self.i + k]

    def ws(self):
        while self.i < len(self.s) and self.s[self.i] == ' ':
            self.i += 1

    def expect(self, t):
        self.ws()
        if not self.s.startswith(t, self.i):
            raise ParseError("expected %r at %d in %r" % (t, self.i, self.s))
        self.i += len(t)

    def comma_list(self):
        """`( expr , expr ... )` at the cursor (the opening parenthesis included) as a list."""
        self.expect('(')
        xs = []
        self.ws()
        if self.peek() != ')':
            xs.append(self.expr())
            self.ws()
            while self.peek() == ',':
                self.i += 1
                xs.append(self.expr())
                self.ws()
        self.expect(')')
        return xs

    def num(self):
        self.ws()
        m = re.compile(r"-?\d+").match(self.s, self.i)
        if not m:
            raise ParseError("num at %d" % self.i)
        self.i = m.end()
        return int(m.group())

    def expr(self):
        self.ws()
        m = re.compile(r"[A-Za-z][A-Za-z0-9_]*").match(self.s, self.i)
        if m and m.group() not in ('LayoutLeft', 'LayoutRight') and not self.s.startswith('Sw<', self.i):
            j = m.end()
            if j < len(self.s) and self.s[j] in '<(':
                name = m.group()
                self.i = j
                targs = []
                if self.s[self.i] == '<':
                    self.i += 1
                    k = self.s.index('>', self.i)
                    targs = [t.strip() for t in self.s[self.i:k].split(',')]
                    self.i = k + 1
                return ('call', name, targs, self.comma_list())
        return self.term()

    def term(self):
        self.ws()
        if self.s.startswith('Sw<', self.i):
            self.i += 3
            b = self.num(); self.expect(','); m = self.num(); self.expect(','); s = self.num(); self.expect('>')
            sw = ('swz', b, m, s)
            self.ws()
            if self.s.startswith('o ', self.i):
                self.i += 2
                off = self.itup()
                self.ws(); self.expect('o')
                L = self.term()
                return ('composed', sw, off, L)
            return sw
        for t in ('LayoutLeft', 'LayoutRight'):
            if self.s.startswith(t, self.i):
                self.i += len(t)
                return ('tag', t)
        a = self.itup()
        self.ws()
        if self.peek() == ':':
            self.i += 1
            b = self.itup()
            return ('layout', a, b)
        return a

    def itup(self):
        self.ws()
        c = self.peek()
        if c == '(':
            return ('tuple', self.comma_list())
        m = re.compile(r"(_?)(-?\d+)").match(self.s, self.i)
        if m:
            self.i = m.end()
            node = ('int', int(m.group(2)), m.group(1) == '_')
            if self.peek() == '@':
                modes = []
                while self.peek() == '@':
                    self.i += 1
                    modes.append(self.num())
                return ('basis', node, modes)
            return node
        if c == '_':
            self.i += 1
            return ('under',)
        # allow a call inside a tuple
        m = re.compile(r"[A-Za-z]").match(self.s, self.i)
        if m:
            return self.expr()
        raise ParseError("bad itup at %d in %r" % (self.i, self.s))


def parse(s):
    p = P(s)
    e = p.expr()
    p.ws()
    if p.i != len(s):
        raise ParseError("trailing at %d in %r" % (p.i, s))
    return e


def unparse(n):
    k = n[0]
    if k == 'int':
        return ('_' if n[2] else '') + str(n[1])
    if k == 'under':
        return '_'
    if k == 'tuple':
        return '(' + ','.join(unparse(x) for x in n[1]) + ')'
    if k == 'layout':
        return unparse(n[1]) + ':' + unparse(n[2])
    if k == 'swz':
        return 'Sw<%d,%d,%d>' % n[1:]
    if k == 'composed':
        return unparse(n[1]) + ' o ' + unparse(n[2]) + ' o ' + unparse(n[3])
    if k == 'tag':
        return n[1]
    if k == 'basis':
        return unparse(n[1]) + ''.join('@%d' % m for m in n[2])
    if k == 'call':
        t = ('<' + ','.join(n[2]) + '>') if n[2] else ''
        return n[1] + t + '(' + ','.join(unparse(a) for a in n[3]) + ')'
    raise ValueError(n)


def cpp(n):
    k = n[0]
    if k == 'int':
        return ('Int<%d>{}' % n[1]) if n[2] else ('int(%d)' % n[1])
    if k == 'under':
        return '_'
    if k == 'tuple':
        return 'make_tuple(' + ', '.join(cpp(x) for x in n[1]) + ')'
    if k == 'layout':
        return 'make_layout(' + cpp(n[1]) + ', ' + cpp(n[2]) + ')'
    if k == 'swz':
        return 'Swizzle<%d,%d,%d>{}' % n[1:]
    if k == 'composed':
        return 'make_composed_layout(' + cpp(n[1]) + ', ' + cpp(n[2]) + ', ' + cpp(n[3]) + ')'
    if k == 'tag':
        return n[1] + '{}'
    if k == 'basis':
        # _v@a@b...  printed modes reversed: E<...> with modes reversed
        modes = list(reversed(n[2]))
        v = cpp(n[1])
        return 'ScaledBasis<decltype(%s), %s>{%s}' % (v, ','.join(map(str, modes)), v)
    if k == 'call':
        name, targs, args = n[1], n[2], n[3]
        A = [cpp(a) for a in args]
        t = ('<' + ','.join(targs) + '>') if targs else ''
        if name == 'eval':
            return '(' + A[0] + ')(' + ', '.join(A[1:]) + ')'
        if name == 'with_shape':
            return '(' + A[0] + ').with_shape(' + ', '.join(A[1:]) + ')'
        if name in ('get_hier_coord', 'get_flat_coord', 'get_1d_coord'):
            return '(' + A[0] + ').' + name + '(' + ', '.join(A[1:]) + ')'
        if name == 'recast_layout':
            return 'recast_layout<uint_bit_t<%s>, uint_bit_t<%s>>(%s)' % (targs[0], targs[1], ', '.join(A))
        return 'cute::' + name + t + '(' + ', '.join(A) + ')'
    raise ValueError(n)


def compact_strides(R, sizes, order, gap_p, gaps, zero_p):
    """Strides of a compact layout of `sizes` taken in mode order `order`, with a random gap (a factor
    from `gaps`, probability `gap_p`) before a mode and, one time in five, modes zeroed (each `zero_p`)."""
    d = [0] * len(sizes)
    acc = 1
    for j in order:
        if R.random() < gap_p:
            acc *= R.choice(gaps)
        d[j] = acc
        acc *= sizes[j]
    if R.random() < 0.2:
        for j in range(len(sizes)):
            if R.random() < zero_p:
                d[j] = 0
    return d


def random_shape(R, vals, scalar_p, nest_p, depth=0, rank=None):
    """A random IntTuple as nested lists: rank 1-4 (1-3 below the top), nested up to two levels
    (each mode with probability `nest_p`), a bare integer at the top with probability `scalar_p`."""
    if rank is None:
        rank = R.choice([1, 1, 2, 2, 2, 3, 3, 4]) if depth < 2 else R.choice([1, 2, 2, 3])
    if depth == 0 and rank == 1 and R.random() < scalar_p:
        return R.choice(vals)
    out = []
    for _ in range(rank):
        if depth < 2 and R.random() < nest_p:
            out.append(random_shape(R, vals, scalar_p, nest_p, depth + 1))
        else:
            out.append(R.choice(vals))
    return out


def flat(t):
    return [t] if isinstance(t, int) else [x for y in t for x in flat(y)]


def prod(t):
    p = 1
    for x in flat(t):
        p *= x
    return p


def refill(t, vals):
    """`t` with its leaves replaced, in order, by `vals` (consumed)."""
    if isinstance(t, int):
        return vals.pop(0)
    return [refill(x, vals) for x in t]
