# SPDX-License-Identifier: MIT
"""Writes keccakf1600.S: Keccak-f[1600] (FIPS 202 sections 3.2-3.4) for ARMv7E-M.

Run `python3 gen_keccakf1600.py > keccakf1600.S` after editing. The generator exists
because the lazy-rotation bookkeeping below (which rotation is still pending on each
of the 50 state words, round after round) is exact arithmetic that a script does
without slips; the emitted code is plain, commented Thumb-2.

Technique (facts from the Keccak team's implementation notes, code written here):
- bit interleaving: lane bits a[0..63] are kept as two 32-bit words E (a[2i]) and
  O (a[2i+1]), so a 64-bit rotation by 2k is two 32-bit rotations by k and a rotation
  by 2k+1 swaps the words: E' = rol32(O, k+1), O' = rol32(E, k);
- lazy rotation: a word in memory may hold ror(actual, -p) for a pending rotation p
  known at assembly time; every consumer folds p into the free barrel-shifter operand
  (`eor rd, rn, rm, ror #n`, `bic rd, rn, rm, ror #n`), so rho costs no instruction.
  Pending rotations change every round, so BLOCK rounds are unrolled and the last one
  of the block rotates its outputs back to pending 0, which makes the block a loop body;
- theta's column parities of the next round are accumulated while chi's outputs are
  stored, so the state is read once per round;
- each output row is computed as two independent halves (E words, then O words: chi is
  bitwise and rho/pi only move words), so one half needs 5 inputs and 5 parities in
  registers;
- theta's D words: every half row needs 5 of the 10 (one per input column, E or O). Two
  of them stay in r12/lr from one half row to the next; the order of the rows and which
  words stay are chosen by a small dynamic programme (plan_round) so that every half row
  after the first of a half finds two of its D words in registers and loads three (one
  with its five state words, two in a second run of loads). The D phase leaves the five
  D words of the round's first row in registers, so that row loads none;
- the first row of each half writes its chi outputs straight into the parity registers
  (no separate copy), which also carry pending rotations, like the D words.
"""

from __future__ import annotations

import sys

from m7sched import m7_cycles, m7_schedule

BLOCK = 4  # rounds per loop iteration; 24 % BLOCK == 0 and BLOCK even (S/T ping-pong);
# FLIP below is for BLOCK = 4

# FIPS 202 Table 2 (section 3.2.2): rho offsets r[x + 5y]
RHO = [0, 1, 62, 28, 27, 36, 44, 6, 55, 20, 3, 10, 43, 25, 39, 41, 45, 15, 21, 8, 18, 2, 61, 56, 14]

# iota round constants RC[ir] (section 3.2.5, Algorithm 5/6), same values as fips202.c
RC = [
    0x0000000000000001,
    0x0000000000008082,
    0x800000000000808A,
    0x8000000080008000,
    0x000000000000808B,
    0x0000000080000001,
    0x8000000080008081,
    0x8000000000008009,
    0x000000000000008A,
    0x0000000000000088,
    0x0000000080008009,
    0x000000008000000A,
    0x000000008000808B,
    0x800000000000008B,
    0x8000000000008089,
    0x8000000000008003,
    0x8000000000008002,
    0x8000000000000080,
    0x000000000000800A,
    0x800000008000000A,
    0x8000000080008081,
    0x8000000000008080,
    0x0000000080000001,
    0x8000000080008008,
]

# stack frame of the core (below push {r0, lr}): T = second state buffer, D = theta words,
# CE = spilled E-half parities, RCP = pointer to the next round constants
T_OFF, D_OFF, CE_OFF, RCP_OFF, FRAME = 0, 200, 240, 260, 264

B = ["r1", "r2", "r3", "r4", "r5"]  # the five inputs of one half row (b[x] of chi)
C = ["r6", "r7", "r8", "r9", "r10"]  # column parities of the next round, one half
TMP = "r11"


def interleave(v: int) -> tuple[int, int]:
    e = sum(((v >> (2 * i)) & 1) << i for i in range(32))
    o = sum(((v >> (2 * i + 1)) & 1) << i for i in range(32))
    return e, o


WIDEN = {"ldr", "str", "eor", "orr", "bic", "ror", "mov", "add", "sub", "cmp", "bne", "and", "push", "pop"}


class Gen:
    def __init__(self, m7: bool = False) -> None:
        self.out: list[str] = []
        self.rors = 0
        self.m7 = m7  # Cortex-M7 schedule (see m7_schedule)
        self.m7_blocks: list[tuple[str, int, int]] = []  # (block, M4 order, M7 order) cycles

    def scheduled(self, start: int, name: str, const_bases: frozenset[str] = frozenset()) -> None:
        """M7 mode: the lines emitted since index start are one straight-line block; put its
        instructions in the order m7_schedule finds (M4 mode: leave them)."""
        if not self.m7:
            return
        block = self.out[start:]
        base = {"r0": 0, "sp": SP_MOD8}
        new = m7_schedule(block, base, const_bases)
        before, after = m7_cycles(block, base), m7_cycles(new, base)
        self.m7_blocks.append((name, before, after))
        self.out[start:] = [f"    /* {name}: M7 order (model: {before} -> {after} cycles) */", *new]

    def emit(self, s: str) -> None:
        # every instruction in its 32-bit encoding: a 16-bit one would put the following
        # 32-bit instructions at addresses 2 mod 4, where the Cortex-M4 fetch loses a
        # cycle on runs of them (docs/sim.md, timing rules)
        label, ins = "", s
        if s[:1].isdigit() and ":" in s:
            label, ins = s.split(":", 1)
        parts = ins.split(None, 1)
        if len(parts) == 2 and parts[0] in WIDEN:
            ins = f"    {parts[0]}.w {parts[1]}"
            s = f"{label}:{ins[2:]}" if label else ins
        self.out.append(s)

    def op(self, ins: str, *args: str, sh: int = 0, kind: str = "ror") -> None:
        """ins rd, rn, rm[, ror #sh]; a zero rotation is left out."""
        sh %= 32
        a = ", ".join(args)
        self.emit(f"    {ins} {a}, {kind} #{sh}" if sh else f"    {ins} {a}")

    def addr(self, buf: str, w: int) -> str:
        return f"[r0, #{4 * w}]" if buf == "S" else f"[sp, #{T_OFF + 4 * w}]"


# Which pending rotation each result keeps. An XOR or BIC with one rotated operand can
# leave its result with the pending rotation of either operand (the other one is rotated
# to match), so the generator may choose, as (kind, round in block, word):
#   ("x", j, w): the theta XOR of input word w keeps the D word's pending rotation
#                (default: the state word's);
#   ("p", j, wd): chi output wd keeps the pending rotation of b[x+2] (default: b[x]);
#   ("d", j, d): D word d keeps the pending rotation of its other parity (see d_phase).
# The last round of a block keeps pending 0 where it can and rotates the other outputs
# back (`ror`). FLIP was found by a local search (`--search-rotations 4 150`: 150 random
# restarts of single flips that minimise those `ror`s, seed 4; other seeds ended at 7 to 9):
# 6 per block where the defaults give 46.
FLIP = {
    ("d", 0, 4),
    ("d", 0, 5),
    ("d", 0, 7),
    ("d", 0, 9),
    ("d", 1, 1),
    ("d", 1, 8),
    ("d", 1, 9),
    ("d", 2, 1),
    ("d", 2, 6),
    ("d", 2, 7),
    ("d", 2, 8),
    ("p", 0, 8),
    ("p", 0, 9),
    ("p", 0, 11),
    ("p", 0, 36),
    ("p", 0, 40),
    ("p", 1, 2),
    ("p", 1, 3),
    ("p", 1, 4),
    ("p", 1, 10),
    ("p", 1, 11),
    ("p", 1, 14),
    ("p", 1, 15),
    ("p", 1, 16),
    ("p", 1, 24),
    ("p", 1, 28),
    ("p", 1, 29),
    ("p", 1, 36),
    ("p", 2, 1),
    ("p", 2, 2),
    ("p", 2, 3),
    ("p", 2, 12),
    ("p", 2, 14),
    ("p", 2, 21),
    ("p", 2, 22),
    ("p", 2, 25),
    ("p", 2, 28),
    ("p", 2, 29),
    ("p", 2, 36),
    ("x", 1, 1),
    ("x", 1, 6),
    ("x", 1, 9),
    ("x", 1, 14),
    ("x", 1, 15),
    ("x", 1, 20),
    ("x", 1, 21),
    ("x", 1, 24),
    ("x", 1, 28),
    ("x", 1, 37),
    ("x", 1, 44),
    ("x", 1, 45),
    ("x", 1, 48),
    ("x", 2, 5),
    ("x", 2, 7),
    ("x", 2, 19),
    ("x", 2, 26),
    ("x", 2, 37),
    ("x", 2, 38),
    ("x", 2, 41),
    ("x", 2, 47),
    ("x", 3, 2),
    ("x", 3, 8),
    ("x", 3, 17),
    ("x", 3, 24),
    ("x", 3, 31),
    ("x", 3, 35),
    ("x", 3, 46),
    ("x", 3, 47),
}
RORS_PER_BLOCK = 6

P = ["r12", "lr"]  # D words kept from one half row to the next (theta)

# Order of the output rows y within each half (E half, then O half). Row 0 comes first in
# each half: its C registers are still free for the round constant and D words. Which D
# words stay in r12/lr is chosen by plan_round below; with these orders two of the five D
# words of every half row after the first are still in r12/lr. Among the 576 orders with
# row 0 first, plan_round's cost (D loads + extra runs of loads per round) ranges from 35
# to 40; these two give 35 (27 loads + 8 runs).
ORDER = ((0, 1, 2, 4, 3), (0, 2, 1, 3, 4))


def row_inputs(h: int, y: int) -> list[tuple[int, int, int]]:
    """Output half row (h, y) (h = 0: E words, 1: O words): per x, (input state word w,
    D word index d = 2 * column + half, k) where b[x] = rol32(word w after theta, k)."""
    out = []
    for x in range(5):
        xs = (x + 3 * y) % 5  # pi: b[x][y] comes from lane (x + 3y, x), rotated by rho
        lane = xs + 5 * x
        r = RHO[lane]
        if r % 2 == 0:
            hs, k = h, r // 2
        elif h == 0:
            hs, k = 1, (r + 1) // 2
        else:
            hs, k = 0, (r - 1) // 2
        out.append((2 * lane + hs, 2 * xs + hs, k))
    return out


Plan = list[tuple[list[tuple[str, int]], list[tuple[str, int]]]]


def plan_row(
    need: set[int], held: dict[str, int | None], keep: dict[str, int | None], first: bool, rc: bool
) -> tuple[int, Plan] | None:
    """How one half row gets its five D words. held: D word in each P register at the start;
    keep: D word each P register must hold at the end (None: any). Returns (cost, steps):
    each step is (D words already in registers, loads of one run); after each run the row
    XORs the words of the step into its inputs. cost = loads + runs after the first (the
    first run follows the five state loads, so it costs no extra cycle). None: infeasible."""
    busy = {r: w for r, w in held.items() if w in need}
    for r, w in keep.items():
        if w is not None and (w not in need or (w in busy.values() and busy.get(r) != w)):
            return None
    free = [TMP] + ([r for r in C if r != RCR] if first and rc else C[:] if first else [])
    free = [r for r in free + P if r not in busy]
    todo = sorted(w for w in need if w not in busy.values())
    desig = {w: r for r, w in keep.items() if w is not None}
    steps: Plan = []
    cost = 0
    while todo or not steps:
        loads = []
        fr = list(free)
        for w in list(todo):  # a word to keep goes straight into its P register
            r = desig.get(w)
            if r is not None and r in fr:
                loads.append((r, w))
                fr.remove(r)
                todo.remove(w)
        for w in list(todo):
            gen = [r for r in fr if not (r in P and keep.get(r) is not None)]
            if w in desig or not gen:
                continue
            loads.append((gen[0], w))
            fr.remove(gen[0])
            todo.remove(w)
        reused = sorted(busy.items()) if not steps else []
        if not loads and not reused:
            return None
        cost += len(loads) + (1 if steps else 0)
        steps.append((reused, loads))
        free = fr + [r for r, w in loads if not (r in P and keep.get(r) == w)]
        if len(steps) == 1:
            free += [r for r, w in busy.items() if keep.get(r) != w]
    return cost, steps


def plan_round() -> list[Plan]:
    """Dynamic programming over the contents of r12/lr: the cheapest D loads of a round."""
    seq = [(h, y) for h in (0, 1) for y in ORDER[h]]
    sets = [{d for _, d, _ in row_inputs(h, y)} for h, y in seq]
    states: dict[tuple, tuple[int, list[Plan]]] = {}
    # the first row finds its five D words in registers (d_phase computes them there):
    # two in r12/lr, the others in FIRST_HELD
    s0 = sorted(sets[0])
    for a in s0:
        for b in s0:
            if a != b:
                rest = [w for w in s0 if w not in (a, b)]
                states[(a, b, *rest)] = (0, [])
    for k, (h, y) in enumerate(seq):
        nxt = sets[k + 1] if k + 1 < len(seq) else set()
        cand = [None, *sorted(sets[k] & nxt)]
        new: dict[tuple, tuple[int, list[Plan]]] = {}
        for st, (c0, hist) in states.items():
            held = dict(zip(P + FIRST_HELD, st))
            for a in cand:
                for b in cand:
                    if a is not None and a == b:
                        continue
                    res = plan_row(sets[k], held, {P[0]: a, P[1]: b}, y == ORDER[h][0], y == 0)
                    if res is not None and ((a, b) not in new or new[(a, b)][0] > c0 + res[0]):
                        new[(a, b)] = (c0 + res[0], hist + [(res[1], dict(held))])
        states = new
    return min(states.values(), key=lambda t: t[0])[1]


FIRST_HELD = [TMP, C[3], C[4]]  # with r12/lr: the D words of a round's first row
RCR = C[2]  # round constant in the rows y = 0 (a C register: they are the first rows)
PLANS = plan_round()
PLAN = [p for p, _ in PLANS]
HELD0 = {r: w for r, w in PLANS[0][1].items() if w is not None}  # D words d_phase leaves
LOADED_D = sorted({w for steps in PLAN for _, loads in steps for _, w in loads})


def round_code(
    g: Gen, j: int, src: str, dst: str, pend: list[int], dpend: list[int], last: bool
) -> tuple[list[int], list[int]]:
    """One round (theta with precomputed D, rho, pi, chi, iota) from buffer src to dst.
    pend[w]: pending rotation of input word w (actual = ror(stored, pend[w])); dpend[d]
    the same for the D words. Returns the pending rotations of the output words and of the
    next round's D words (which it leaves on the stack)."""
    newp = [0] * 50
    cps: list[list[int]] = []
    g.emit(f"    /* ---- round 4k+{j}: {src} -> {dst} ---- */")
    k_row = 0
    for h in (0, 1):
        cp = [0] * 5  # pending rotations of the parity registers
        for y in ORDER[h]:
            steps = PLAN[k_row]
            k_row += 1
            first = y == ORDER[h][0]
            info = row_inputs(h, y)
            # theta result of word w: pending of w or, if flipped, of its D word
            tp = [dpend[d] if ("x", j, w) in FLIP else pend[w] for w, d, _ in info]
            q = [(tp[x] - info[x][2]) % 32 for x in range(5)]  # b actual = ror(B, q)
            xof = {d: x for x, (_, d, _) in enumerate(info)}
            g.emit(f"    /* row y={y}, {'E' if h == 0 else 'O'} words */")
            rc = RCR
            if y == 0:
                g.emit(f"    ldr {rc}, [sp, #{RCP_OFF}]")
            for x in range(5):
                g.emit(f"    ldr {B[x]}, {g.addr(src, info[x][0])}")
            for n, (reused, loads) in enumerate(steps):
                for r, d in loads:
                    g.emit(f"    ldr {r}, [sp, #{D_OFF + 4 * d}]")
                if n == 0 and y == 0:
                    g.emit(f"    ldr {rc}, [{rc}, #{8 * j + 4 * h}]")
                for r, d in reused + loads:
                    # theta: B ^ ror(D, dp - p) has pending p (actual = A ^ D), or
                    # D ^ ror(B, p - dp) pending dp
                    x = xof[d]
                    if tp[x] == pend[info[x][0]] and ("x", j, info[x][0]) not in FLIP:
                        g.op("eor", B[x], B[x], r, sh=dpend[d] - tp[x])
                    else:
                        g.op("eor", B[x], r, B[x], sh=pend[info[x][0]] - tp[x])
            # chi (3.2.4): e[x] = b[x] ^ (~b[x+1] & b[x+2]); iota (3.2.5) on lane 0
            for x in range(5):
                x1, x2 = (x + 1) % 5, (x + 2) % 5
                out = C[x] if first else TMP  # the first row of a half starts the parities
                # t = ror(B2, q2) & ~ror(B1, q1), kept with pending q2
                g.op("bic", out, B[x2], B[x1], sh=q[x1] - q[x2])
                wd = 2 * (x + 5 * y) + h
                if ("p", j, wd) in FLIP or (last and q[x] != 0 and q[x2] == 0):
                    g.op("eor", out, out, B[x], sh=q[x] - q[x2])  # pending q[x2]
                    pe = q[x2]
                else:
                    g.op("eor", out, B[x], out, sh=q[x2] - q[x])  # pending q[x]
                    pe = q[x]
                if last and pe:  # end of the block: back to pending 0
                    g.emit(f"    ror {out}, {out}, #{pe}")
                    pe = 0
                    g.rors += 1
                if y == 0 and x == 0:
                    g.op("eor", out, out, rc, sh=32 - pe)  # iota: stored ^= rol(RC, pe)
                newp[wd] = pe
                g.emit(f"    str {out}, {g.addr(dst, wd)}")
                # theta parity of the next round: C[x] ^= actual output word
                if first:
                    cp[x] = pe
                else:
                    g.op("eor", C[x], C[x], TMP, sh=pe - cp[x])
        if h == 0:
            for x in range(5):
                g.emit(f"    str {C[x]}, [sp, #{CE_OFF + 4 * x}]")
        cps.append(cp)
    return newp, d_phase(g, cps[0], cps[1], j)


def d_phase(g: Gen, cpe: list[int], cpo: list[int], j: int = -1) -> list[int]:
    """theta (3.2.1): D[x] = C[x-1] ^ rol64(C[x+1], 1). CE on the stack, CO in C regs, with
    pending rotations cpe, cpo. Interleaved: D.E = CE[x-1] ^ rol32(CO[x+1], 1),
    D.O = CO[x-1] ^ CE[x+1]. Stores the D words that the rounds load and leaves the first
    row's D words in the registers of HELD0; returns the pending rotations of the D words."""
    g.emit("    /* theta: D[x] = C[x-1] ^ rol64(C[x+1], 1) */")
    for x in range(5):
        g.emit(f"    ldr {B[x]}, [sp, #{CE_OFF + 4 * x}]")
    dp = [0] * 10
    # D word d -> (register with the unshifted operand, shifted register, shift, pending)
    form = {}
    for x in range(5):
        a, b = cpe[(x - 1) % 5], cpo[(x + 1) % 5]
        if ("d", j, 2 * x) in FLIP:  # CO unshifted: pending b - 1
            form[2 * x] = (C[(x + 1) % 5], B[(x - 1) % 5], a - b + 1, b - 1)
        else:
            form[2 * x] = (B[(x - 1) % 5], C[(x + 1) % 5], b - 1 - a, a)
        a, b = cpe[(x + 1) % 5], cpo[(x - 1) % 5]
        if ("d", j, 2 * x + 1) in FLIP:  # CE unshifted: pending a
            form[2 * x + 1] = (B[(x + 1) % 5], C[(x - 1) % 5], b - a, a)
        else:
            form[2 * x + 1] = (C[(x - 1) % 5], B[(x + 1) % 5], a - b, b)
    dest = {w: r for r, w in HELD0.items()}
    order = [d for d in range(10) if d not in dest] + sorted(dest, key=lambda d: dest[d] in C)
    for n, d in enumerate(order):
        r = dest.get(d, TMP)
        # a C register is overwritten only when no later D word reads its parity
        assert r not in C or all(r not in form[e][:2] for e in order[n + 1 :]), (r, d)
        un, shd, sh, pe = form[d]
        g.op("eor", r, un, shd, sh=sh)
        dp[d] = pe % 32
        if d in LOADED_D:
            g.emit(f"    str {r}, [sp, #{D_OFF + 4 * d}]")
    return dp


def simulate_rors(flip: set) -> int:
    """The `ror`s of a block's last round for the choices `flip` (the pending-rotation
    arithmetic of round_code and d_phase without the code)."""
    pend, dpend, rors = [0] * 50, [0] * 10, 0
    for j in range(BLOCK):
        last = j == BLOCK - 1
        newp, cps = [0] * 50, []
        for h in (0, 1):
            cp = [0] * 5
            for y in ORDER[h]:
                info = row_inputs(h, y)
                q = [((dpend[d] if ("x", j, w) in flip else pend[w]) - k) % 32 for w, d, k in info]
                for x in range(5):
                    x2, wd = (x + 2) % 5, 2 * (x + 5 * y) + h
                    pe = q[x2] if ("p", j, wd) in flip or (last and q[x] != 0 and q[x2] == 0) else q[x]
                    if last and pe:
                        rors, pe = rors + 1, 0
                    newp[wd] = pe
                    if y == ORDER[h][0]:
                        cp[x] = pe
            cps.append(cp)
        cpe, cpo = cps
        dpend = [0] * 10
        for x in range(5):
            flip_e, flip_o = ("d", j, 2 * x) in flip, ("d", j, 2 * x + 1) in flip
            dpend[2 * x] = (cpo[(x + 1) % 5] - 1) % 32 if flip_e else cpe[(x - 1) % 5]
            dpend[2 * x + 1] = cpe[(x + 1) % 5] if flip_o else cpo[(x - 1) % 5]
        pend = newp
    return rors if not any(pend) and not any(dpend) else 10**6


def search_rotations(seed: int = 1, restarts: int = 20) -> set:
    """Local search for FLIP: random starts, then single flips kept while not worse."""
    import random

    rng = random.Random(seed)
    keys = [("x", j, w) for j in range(BLOCK) for w in range(50)]
    keys += [("p", j, wd) for j in range(BLOCK - 1) for wd in range(50)]
    keys += [("d", j, d) for j in range(BLOCK - 1) for d in range(10)]
    best: tuple[int, set] = (simulate_rors(set()), set())
    for _ in range(restarts):
        cur = {k for k in keys if rng.random() < 0.3}
        cost, better = simulate_rors(cur), True
        while better:
            better = False
            order = keys[:]
            rng.shuffle(order)
            for k in order:
                c = simulate_rors(cur ^ {k})
                if c <= cost:
                    better, cost, cur = better or c < cost, c, cur ^ {k}
        if cost < best[0]:
            best = (cost, cur)
    for k in sorted(best[1]):  # drop choices that do not matter
        if simulate_rors(best[1] - {k}) <= best[0]:
            best = (best[0], best[1] - {k})
    return best[1]


SWAPS = [(1, 0x22222222), (2, 0x0C0C0C0C), (4, 0x00F000F0)]


def delta_swaps(g: Gen, reg: str, order: list[int], tmp: str = "r10") -> None:
    masks = {1: "r2", 2: "r3", 4: "r4"}
    for s in order:
        g.emit(f"    eor {tmp}, {reg}, {reg}, lsr #{s}")
        g.emit(f"    and {tmp}, {tmp}, {masks[s]}")
        g.emit(f"    eor {reg}, {reg}, {tmp}")
        g.emit(f"    eor {reg}, {reg}, {tmp}, lsl #{s}")


# ---- Cortex-M7 schedule (--m7) --------------------------------------------------------------
# The M7 file has the same instructions as the M4 file, in another order: each straight-line
# block (the 4-round loop body, round 0's parities, the lane-conversion loop bodies) goes
# through m7sched.py's list scheduler, whose cost function is a model of the Cortex-M7's dual
# issue (its docstring gives the rules and their sources). Two loads pair only on different
# DTCM banks (word address bit 2), so the scheduler needs the bases' addresses mod 8: the state
# (r0) is a uint64_t array, 8-aligned; sp in the core is 4 mod 8 (an 8-aligned caller, then
# push of 9 registers by the entry and of 2 by the core, and the 264-byte frame).
SP_MOD8 = 4


HEADER = """\
/* SPDX-License-Identifier: MIT */
/* Keccak-f[1600] for ARMv7E-M (Cortex-M4/M7), Thumb-2, GNU as unified syntax.
 * GENERATED by gen_keccakf1600.py (same folder) -- edit the generator, not this file.
 *
 * void pqlab_keccakf1600_native(uint64_t s[25]);
 *   FIPS 202 Algorithm 7 with 24 rounds of theta, rho, pi, chi, iota (sections 3.2.1-3.2.5)
 *   on the standard state (s[x + 5y] = lane A[x][y], little-endian): the 25 lanes are
 *   bit-interleaved in place (lane i becomes s32[2i] = even bits, s32[2i+1] = odd bits;
 *   three delta swaps per word, then a byte gather with PKHBT/PKHTB/UXTB16), permuted,
 *   and converted back.
 * void pqlab_keccakf1600_native_il(uint64_t s[25]);
 *   the same permutation on a state that is already interleaved (lane i as the 64-bit
 *   value E | O << 32): fips202.c keeps its struct states this way between calls and
 *   converts bytes on absorb/squeeze only, which saves the two conversions (docs/native.md).
 * void pqlab_keccak_native_xor_il(uint64_t *s, const uint8_t *in, unsigned int nlanes);
 * void pqlab_keccak_native_extract_il(uint8_t *out, const uint64_t *s, unsigned int nlanes);
 *   XOR whole little-endian lanes into / extract them from an interleaved state (the
 *   sponge's absorb and squeeze); nlanes >= 1. in/out may be unaligned: single-word
 *   LDR/STR accept that on ARMv7-M while CCR.UNALIGN_TRP is 0 (its reset value).
 * All are constant time: no data-dependent branch or address; only loops on public
 *   counts branch.
 *
 * Rounds ping-pong between s (S) and a 200-byte stack buffer (T). Words may carry a
 *   pending rotation (lazy rotation, see the generator): the value stored is
 *   ror(actual, -p), every consumer folds p into its shifted operand; after every 4th
 *   round all pending rotations are 0 again, so 4 unrolled rounds form the loop body
 *   (6 iterations). Theta's D words are stored once per round; each half row after the
 *   first of its half finds two of its five in r12/lr (kept from the previous half row)
 *   and loads three; the generator plans this.
 *
 * Registers in the rounds (core routine pqlab_keccakf1600_armv7em_core, r0 preserved):
 *   r0       S (the caller's state)            sp   T, D, CE, RCP (frame below)
 *   r1-r5    b[0..4]: one half row of theta+rho+pi outputs (chi inputs)
 *   r6-r10   C[0..4]: next round's column parities of the current half (E, then O);
 *            in row 0 (the first row of each half), before the parities start, they
 *            also take D words and (r8) the round constant, and its chi outputs
 *   r11      chi output word / D word          r12, lr  D words kept between half rows
 * Frame: sp+0 T[50 words], sp+200 D[10] (D[x].E at 2x, D[x].O at 2x+1), sp+240 CE[5],
 *   sp+260 RCP (round constants of the current 4-round block). Stack: 36 + 8 + 264 bytes.
 * Bounds: all operations are 32-bit XOR/AND-NOT/rotations; nothing can overflow.
 */
#include "pqlab_config.h" /* an export's symbol namespace (docs/export.md); empty in the tree */
/* The Cortex-M4 schedule; Cortex-M7 builds (backend.toml [core.cortex-m7]: the define
 * PQLAB_ARMV7EM_CORTEX_M7) assemble keccakf1600_m7.S, the same code in M7 order, instead. */
#if !defined(PQLAB_ARMV7EM_CORTEX_M7)
    .syntax unified
    .thumb
    .text
"""


HEADER_M7 = HEADER.replace(
    "/* Keccak-f[1600] for ARMv7E-M (Cortex-M4/M7), Thumb-2, GNU as unified syntax.\n"
    " * GENERATED by gen_keccakf1600.py (same folder) -- edit the generator, not this file.\n",
    "/* Keccak-f[1600] for ARMv7E-M, scheduled for the Cortex-M7, Thumb-2, GNU as unified syntax.\n"
    " * GENERATED by `gen_keccakf1600.py --m7` (same folder) -- edit the generator, not this file.\n"
    " * The instructions of keccakf1600.S (the Cortex-M4 schedule, whose comments explain them)\n"
    " * in an order for the Cortex-M7's dual issue: every straight-line block (the loop body\n"
    " * of 4 rounds, round 0's parities, the lane conversions) list-scheduled by the\n"
    " * generator's model of the M7's pairing rules (m7_schedule; docs/native.md); the lane\n"
    " * conversions work on E and O with two scratch registers (r10, r5) instead of one.\n",
).replace(
    "/* The Cortex-M4 schedule; Cortex-M7 builds (backend.toml [core.cortex-m7]: the define\n"
    " * PQLAB_ARMV7EM_CORTEX_M7) assemble keccakf1600_m7.S, the same code in M7 order, instead. */\n"
    "#if !defined(PQLAB_ARMV7EM_CORTEX_M7)\n",
    "/* Only for Cortex-M7 builds (backend.toml [core.cortex-m7]); keccakf1600.S otherwise. */\n"
    "#if defined(PQLAB_ARMV7EM_CORTEX_M7)\n",
)


def to_il(g: Gen) -> None:
    """r6 = lo, r7 = hi of a lane -> r6 = E (even bits), r7 = O (odd bits); r8, r10 scratch.
    Three delta swaps leave each halfword as [its odd bits : its even bits] (bytes);
    PKHBT/PKHTB and UXTB16 then gather the bytes: 8 instructions where a fourth swap and
    a halfword pack would take 10."""
    g.emit("    /* bytes of lo, hi after three swaps: [o e o e] per halfword pair */")
    delta_swaps(g, "r6", [1, 2, 4])
    delta_swaps(g, "r7", [1, 2, 4], "r5" if g.m7 else "r10")  # M7: two chains to pair
    g.emit("    pkhbt r8, r6, r7, lsl #16   /* low halfwords:  hi.o0 hi.e0 lo.o0 lo.e0 */")
    g.emit("    pkhtb r7, r7, r6, asr #16   /* high halfwords: hi.o1 hi.e1 lo.o1 lo.e1 */")
    g.emit("    uxtb16 r6, r8")
    g.emit("    uxtb16 r10, r7")
    g.emit("    orr r6, r6, r10, lsl #8     /* E = hi.e1 hi.e0 lo.e1 lo.e0 */")
    g.emit("    uxtb16 r8, r8, ror #8")
    g.emit("    uxtb16 r7, r7, ror #8")
    g.emit("    orr r7, r8, r7, lsl #8      /* O = hi.o1 hi.o0 lo.o1 lo.o0 */")


def from_il(g: Gen) -> None:
    """inverse of to_il: r6 = E, r7 = O -> r6 = lo, r7 = hi; r8, r10 scratch."""
    g.emit("    uxtb16 r8, r6")
    g.emit("    uxtb16 r10, r7")
    g.emit("    orr r8, r8, r10, lsl #8     /* hi.o0 hi.e0 lo.o0 lo.e0 */")
    g.emit("    uxtb16 r6, r6, ror #8")
    g.emit("    uxtb16 r7, r7, ror #8")
    g.emit("    orr r7, r6, r7, lsl #8      /* hi.o1 hi.e1 lo.o1 lo.e1 */")
    g.emit("    pkhbt r6, r8, r7, lsl #16   /* lo */")
    g.emit("    pkhtb r7, r7, r8, asr #16   /* hi */")
    g.emit("    /* inverse of the three swaps, in reverse order */")
    delta_swaps(g, "r6", [4, 2, 1])
    delta_swaps(g, "r7", [4, 2, 1], "r5" if g.m7 else "r10")


def masks(g: Gen) -> None:
    g.emit("    /* masks of the three delta swaps (bit i of a word <-> bit i+s under the mask) */")
    for s, m in SWAPS:
        reg = {1: "r2", 2: "r3", 4: "r4"}[s]
        g.emit(f"    movw {reg}, #0x{m & 0xFFFF:04x}")
        g.emit(f"    movt {reg}, #0x{m >> 16:04x}")


def func(g: Gen, name: str, local: bool = False) -> None:
    g.emit("")
    g.emit(f'    .section .text.{name}, "ax", %progbits')
    g.emit("    .p2align 2")
    if not local:
        g.emit(f"    .global {name}")
    g.emit(f"    .type {name}, %function")
    g.emit("    .thumb_func")
    g.emit(f"{name}:")


def main() -> None:
    assert 24 % BLOCK == 0 and BLOCK % 2 == 0
    if sys.argv[1:2] == ["--search-rotations"]:  # [seed [restarts]]
        flip = search_rotations(*map(int, sys.argv[2:4]))
        print(simulate_rors(flip), sorted(flip))
        return
    assert simulate_rors(FLIP) == RORS_PER_BLOCK
    m7 = sys.argv[1:2] == ["--m7"]
    g = Gen(m7)
    g.emit(HEADER_M7 if m7 else HEADER)
    g.emit('    .section .rodata.pqlab_keccakf1600_rc, "a"')
    g.emit("    .p2align 2")
    g.emit("pqlab_keccakf1600_rc_il:  /* RC[ir] interleaved: E word, O word */")
    for ir, rc in enumerate(RC):
        e, o = interleave(rc)
        g.emit(f"    .word 0x{e:08x}, 0x{o:08x}  /* RC[{ir}] = 0x{rc:016x} */")
    g.emit("pqlab_keccakf1600_rc_il_end:")

    # ---- the 24 rounds on an interleaved state at r0; keeps r0, clobbers r1-r12 ----
    func(g, "pqlab_keccakf1600_armv7em_core", local=True)
    g.emit("    push {r0, lr}")
    g.emit(f"    sub sp, sp, #{FRAME}")
    start = len(g.out)
    g.emit("    /* column parities of round 0 (no pending rotations yet) */")
    for h in (0, 1):
        for x in range(5):
            g.emit(f"    ldr {C[x]}, [r0, #{4 * (2 * x + h)}]")
            for y in range(1, 5):  # one batch of five loads, pipelined
                g.emit(f"    ldr {B[y - 1]}, [r0, #{4 * (2 * (x + 5 * y) + h)}]")
            for y in range(1, 5):
                g.emit(f"    eor {C[x]}, {C[x]}, {B[y - 1]}")
        if h == 0:
            for x in range(5):
                g.emit(f"    str {C[x]}, [sp, #{CE_OFF + 4 * x}]")
    g.emit("    movw r1, #:lower16:pqlab_keccakf1600_rc_il")
    g.emit("    movt r1, #:upper16:pqlab_keccakf1600_rc_il")
    g.emit(f"    str r1, [sp, #{RCP_OFF}]")
    dpend0 = d_phase(g, [0] * 5, [0] * 5)
    g.scheduled(start, "round 0's parities and D words")
    g.emit("2:")
    start = len(g.out)
    pend, dpend = [0] * 50, dpend0
    for j in range(BLOCK):
        src, dst = ("S", "T") if j % 2 == 0 else ("T", "S")
        pend, dpend = round_code(g, j, src, dst, pend, dpend, last=(j == BLOCK - 1))
    assert not any(pend) and dpend == dpend0 and g.rors == RORS_PER_BLOCK, g.rors
    g.emit(f"    ldr r1, [sp, #{RCP_OFF}]")
    g.emit(f"    add r1, r1, #{8 * BLOCK}")
    g.emit(f"    str r1, [sp, #{RCP_OFF}]")
    g.emit("    movw r2, #:lower16:pqlab_keccakf1600_rc_il_end")
    g.emit("    movt r2, #:upper16:pqlab_keccakf1600_rc_il_end")
    g.emit("    cmp r1, r2")
    g.scheduled(start, f"{BLOCK} rounds", frozenset({RCR}))
    g.emit("    bne.w 2b")
    g.emit("    /* T, D and CE held state-dependent words: clear the frame */")
    g.emit("    mov r0, sp  /* r0 comes back from the stack */")
    for r in range(1, 9):
        g.emit(f"    mov r{r}, #0")
    assert FRAME % 8 == 0
    for _ in range(FRAME // 32):
        g.emit("    stmia r0!, {r1-r8}")
    if FRAME % 32:
        g.emit(f"    stmia r0!, {{r1-r{FRAME % 32 // 4}}}")
    g.emit(f"    add sp, sp, #{FRAME}")
    g.emit("    pop {r0, pc}")
    g.emit("    .size pqlab_keccakf1600_armv7em_core, . - pqlab_keccakf1600_armv7em_core")

    # ---- void pqlab_keccakf1600_native_il(uint64_t s[25]): interleaved state ----
    func(g, "pqlab_keccakf1600_native_il")
    g.emit("    push {r4-r11, lr}")
    g.emit("    bl pqlab_keccakf1600_armv7em_core")
    g.emit("    pop {r4-r11, pc}")
    g.emit("    .size pqlab_keccakf1600_native_il, . - pqlab_keccakf1600_native_il")

    # ---- void pqlab_keccakf1600_native(uint64_t s[25]): standard state ----
    func(g, "pqlab_keccakf1600_native")
    g.emit("    push {r4-r11, lr}")
    masks(g)
    g.emit("    /* interleave in place: lo, hi -> E = even bits, O = odd bits */")
    g.emit("    mov r1, r0")
    g.emit("    add r9, r0, #200")
    g.emit("1:  ldrd r6, r7, [r1]")
    start = len(g.out)
    to_il(g)
    g.scheduled(start, "lane to interleaved")
    g.emit("    strd r6, r7, [r1], #8")
    g.emit("    cmp r1, r9")
    g.emit("    bne 1b")
    g.emit("    bl pqlab_keccakf1600_armv7em_core")
    g.emit("    /* back to the standard layout: E, O -> lo, hi */")
    masks(g)
    g.emit("    mov r1, r0")
    g.emit("    add r9, r0, #200")
    g.emit("3:  ldrd r6, r7, [r1]")
    start = len(g.out)
    from_il(g)
    g.scheduled(start, "interleaved to lane")
    g.emit("    strd r6, r7, [r1], #8")
    g.emit("    cmp r1, r9")
    g.emit("    bne 3b")
    g.emit("    pop {r4-r11, pc}")
    g.emit("    .size pqlab_keccakf1600_native, . - pqlab_keccakf1600_native")

    # ---- byte <-> interleaved lane conversion for the sponge (whole lanes, nlanes >= 1) ----
    # void pqlab_keccak_native_xor_il(uint64_t *s, const uint8_t *in, unsigned int nlanes);
    #   s[i] ^= interleave(little-endian 64-bit word i of in); in may be unaligned (LDR
    #   single accesses allow it on ARMv7-M)
    func(g, "pqlab_keccak_native_xor_il")
    g.emit("    push {r4-r12, lr}")
    g.emit("    add r9, r0, r2, lsl #3     /* end of the lanes */")
    masks(g)
    g.emit("4:  ldr r6, [r1], #4           /* lo */")
    g.emit("    ldr r7, [r1], #4           /* hi */")
    start = len(g.out)
    to_il(g)
    g.scheduled(start, "lane to interleaved")
    g.emit("    ldrd r11, r12, [r0]")
    g.emit("    eor r11, r11, r6")
    g.emit("    eor r12, r12, r7")
    g.emit("    strd r11, r12, [r0], #8")
    g.emit("    cmp r0, r9")
    g.emit("    bne 4b")
    g.emit("    pop {r4-r12, pc}")
    g.emit("    .size pqlab_keccak_native_xor_il, . - pqlab_keccak_native_xor_il")

    # void pqlab_keccak_native_extract_il(uint8_t *out, const uint64_t *s, unsigned int nlanes);
    #   little-endian 64-bit word i of out = deinterleave(s[i]); out may be unaligned
    func(g, "pqlab_keccak_native_extract_il")
    g.emit("    push {r4-r12, lr}")
    g.emit("    add r9, r1, r2, lsl #3     /* end of the lanes */")
    masks(g)
    g.emit("5:  ldrd r6, r7, [r1], #8       /* E, O */")
    start = len(g.out)
    from_il(g)
    g.scheduled(start, "interleaved to lane")
    g.emit("    str r6, [r0], #4")
    g.emit("    str r7, [r0], #4")
    g.emit("    cmp r1, r9")
    g.emit("    bne 5b")
    g.emit("    pop {r4-r12, pc}")
    g.emit("    .size pqlab_keccak_native_extract_il, . - pqlab_keccak_native_extract_il")
    g.emit("#endif")
    sys.stdout.write("\n".join(g.out) + "\n")


if __name__ == "__main__":
    main()
