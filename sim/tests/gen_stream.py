# SPDX-License-Identifier: MIT
"""Generate random Thumb-2 / DSP / FP instruction streams as test firmware.

Every template is one encoding family the simulator implements; operands are
random. Registers r0-r9 and r12 are destinations, r10 holds a small index and
r11 points into a data buffer, so loads and stores stay in RAM. Each block
starts from random register values, flags, FP registers and FPSCR modes.
"""

from __future__ import annotations

import random
import subprocess
from pathlib import Path

FW = Path(__file__).resolve().parent / "fw"
DST = ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r12"]
SRC = DST + ["r10"]
LOW = ["r0", "r1", "r2", "r3", "r4", "r5", "r6", "r7"]
CONDS = ["eq", "ne", "cs", "cc", "mi", "pl", "vs", "vc", "hi", "ls", "ge", "lt", "gt", "le"]
INTERESTING = [
    0,
    1,
    2,
    0xFFFFFFFF,
    0x80000000,
    0x7FFFFFFF,
    0x8000,
    0x7FFF,
    0xFFFF,
    0x10000,
    0xFF,
    0x80,
    0x7F,
    0x80008000,
    0x7FFF7FFF,
    0x01010101,
    0x80808080,
    31,
    32,
    33,
]
FP_INTERESTING = [
    0x00000000,
    0x80000000,
    0x3F800000,
    0xBF800000,
    0x7F800000,
    0xFF800000,
    0x7FC00001,
    0xFFC00123,
    0x7F800001,
    0xFF812345,
    0x00000001,
    0x80000003,
    0x007FFFFF,
    0x00800000,
    0x7F7FFFFF,
    0xFF7FFFFF,
    0x4F000000,
    0xCF000000,
    0x4F800000,
    0x3F000000,
    0x3FC00000,
    0x40490FDB,
    0x33800000,
    0x4B000000,
]


def modimm(r: random.Random) -> int:
    """A value ThumbExpandImm can encode."""
    b = r.randrange(256)
    k = r.randrange(5)
    if k == 0:
        return b
    if k == 1:
        return b | b << 16
    if k == 2:
        return (b << 8) | (b << 24)
    if k == 3:
        return b * 0x01010101
    v = 0x80 | r.randrange(128)
    return (v << r.randrange(0, 25)) & 0xFFFFFFFF


def rval(r: random.Random) -> int:
    if r.random() < 0.4:
        return r.choice(INTERESTING)
    return r.getrandbits(32)


class Gen:
    def __init__(self, seed: int, fp: bool, double: bool) -> None:
        self.r = random.Random(seed)
        self.fp = fp
        self.double = double
        self.used: set[str] = set()
        self.lines: list[str] = []
        self.label = 0

    def d(self) -> str:
        return self.r.choice(DST)

    def s(self) -> str:
        return self.r.choice(SRC)

    def lo(self) -> str:
        return self.r.choice(LOW)

    def sreg(self) -> str:
        return f"s{self.r.randrange(32)}"

    def dreg(self) -> str:
        return f"d{self.r.randrange(16)}"

    def two(self) -> tuple[str, str]:
        a, b = self.r.sample(DST, 2)
        return a, b

    def emit(self, name: str, text: str) -> None:
        self.used.add(name)
        self.lines.append("\t" + text.replace("\n", "\n\t"))

    def mov32(self, reg: str, v: int) -> None:
        self.lines.append(f"\tmovw {reg}, #{v & 0xFFFF}\n\tmovt {reg}, #{v >> 16}")

    def block_init(self) -> None:
        r = self.r
        for reg in DST:
            self.mov32(reg, rval(r))
        self.lines.append(f"\tmovs r10, #{r.randrange(64)}")
        self.lines.append("\tmovw r11, #:lower16:buf\n\tmovt r11, #:upper16:buf")
        self.mov32("r0", r.getrandbits(5) << 27 | r.getrandbits(4) << 16)
        self.lines.append("\tmsr APSR_nzcvqg, r0")
        self.mov32("r0", rval(r))
        if self.fp:
            for k in range(32):
                v = r.choice(FP_INTERESTING) if r.random() < 0.5 else r.getrandbits(32)
                if self.double and r.random() < 0.3:
                    v = r.getrandbits(32)
                self.mov32("r1", v)
                self.lines.append(f"\tvmov s{k}, r1")
            mode = r.randrange(4) if r.random() < 0.5 else 0
            fz = int(r.random() < 0.2)
            dn = int(r.random() < 0.2)
            self.mov32("r1", mode << 22 | fz << 24 | dn << 25)
            self.lines.append("\tvmsr fpscr, r1")
            self.mov32("r1", rval(r))

    # ------------------------------------------------------------ templates
    def t_dp_reg(self) -> None:
        op = self.r.choice(["and", "bic", "orr", "orn", "eor", "add", "adc", "sbc", "sub", "rsb"])
        s = self.r.choice(["", "s"])
        sh = self.r.choice(
            [
                "",
                f", lsl #{self.r.randrange(1, 32)}",
                f", lsr #{self.r.randrange(1, 33)}",
                f", asr #{self.r.randrange(1, 33)}",
                f", ror #{self.r.randrange(1, 32)}",
                ", rrx",
            ]
        )
        self.emit(f"dp_reg_{op}", f"{op}{s}.w {self.d()}, {self.s()}, {self.s()}{sh}")

    def t_dp_imm(self) -> None:
        op = self.r.choice(["and", "bic", "orr", "orn", "eor", "add", "adc", "sbc", "sub", "rsb"])
        s = self.r.choice(["", "s"])
        self.emit(f"dp_imm_{op}", f"{op}{s}.w {self.d()}, {self.s()}, #{modimm(self.r)}")

    def t_addw(self) -> None:
        op = self.r.choice(["addw", "subw"])
        self.emit(op, f"{op} {self.d()}, {self.s()}, #{self.r.randrange(4096)}")

    def t_mov(self) -> None:
        k = self.r.randrange(6)
        if k == 0:
            self.emit("movw", f"movw {self.d()}, #{self.r.randrange(65536)}")
        elif k == 1:
            self.emit("movt", f"movt {self.d()}, #{self.r.randrange(65536)}")
        elif k == 2:
            self.emit("mov_imm", f"mov{self.r.choice(['', 's'])}.w {self.d()}, #{modimm(self.r)}")
        elif k == 3:
            self.emit("mvn_imm", f"mvn{self.r.choice(['', 's'])} {self.d()}, #{modimm(self.r)}")
        elif k == 4:
            self.emit("mvn_reg", f"mvn{self.r.choice(['', 's'])}.w {self.d()}, {self.s()}, lsl #{self.r.randrange(32)}")
        else:
            self.emit("mov_reg", f"mov {self.d()}, {self.s()}")

    def t_cmp(self) -> None:
        op = self.r.choice(["cmp", "cmn", "tst", "teq"])
        if self.r.random() < 0.5:
            self.emit(f"{op}_imm", f"{op}.w {self.s()}, #{modimm(self.r)}")
        else:
            self.emit(f"{op}_reg", f"{op}.w {self.s()}, {self.s()}, lsl #{self.r.randrange(32)}")

    def t_shift_reg(self) -> None:
        op = self.r.choice(["lsl", "lsr", "asr", "ror"])
        s = self.r.choice(["", "s"])
        self.emit(f"{op}_reg", f"{op}{s}.w {self.d()}, {self.s()}, {self.s()}")

    def t_16bit(self) -> None:
        k = self.r.randrange(10)
        a, b, c = self.lo(), self.lo(), self.lo()
        if k == 0:
            self.emit("adds16", f"adds {a}, {b}, {c}")
        elif k == 1:
            self.emit("subs16_imm3", f"subs {a}, {b}, #{self.r.randrange(8)}")
        elif k == 2:
            self.emit("adds16_imm8", f"adds {a}, #{self.r.randrange(256)}")
        elif k == 3:
            op = self.r.choice(["lsls", "lsrs", "asrs"])
            self.emit(f"{op}16", f"{op} {a}, {b}, #{self.r.randrange(1, 32)}")
        elif k == 4:
            op = self.r.choice(["ands", "eors", "orrs", "bics", "adcs", "sbcs", "mvns", "muls"])
            if op == "mvns":
                self.emit("mvns16", f"mvns {a}, {b}")
            else:
                self.emit(f"{op}16", f"{op} {a}, {b}")
        elif k == 5:
            op = self.r.choice(["lsls", "lsrs", "asrs", "rors"])
            self.emit(f"{op}16_reg", f"{op} {a}, {b}")
        elif k == 6:
            self.emit("rsbs16", f"rsbs {a}, {b}, #0")
        elif k == 7:
            self.emit("cmp16", f"cmp {a}, #{self.r.randrange(256)}")
        elif k == 8:
            self.emit("movs16", f"movs {a}, #{self.r.randrange(256)}")
        else:
            self.emit("add16_hi", f"add {self.d()}, {self.s()}")

    def t_ext(self) -> None:
        op = self.r.choice(["sxtb", "sxth", "uxtb", "uxth", "sxtb16", "uxtb16"])
        rot = self.r.choice(["", ", ror #8", ", ror #16", ", ror #24"])
        if self.r.random() < 0.5:
            opa = op[:3] + "a" + op[3:]
            self.emit(opa, f"{opa} {self.d()}, {self.s()}, {self.s()}{rot}")
        else:
            self.emit(
                op,
                f"{op}.w {self.d()}, {self.s()}{rot}"
                if op in ("sxtb", "sxth", "uxtb", "uxth")
                else f"{op} {self.d()}, {self.s()}{rot}",
            )

    def t_bits(self) -> None:
        k = self.r.randrange(6)
        lsb = self.r.randrange(32)
        w = self.r.randrange(1, 33 - lsb)
        if k == 0:
            self.emit("ubfx", f"ubfx {self.d()}, {self.s()}, #{lsb}, #{w}")
        elif k == 1:
            self.emit("sbfx", f"sbfx {self.d()}, {self.s()}, #{lsb}, #{w}")
        elif k == 2:
            self.emit("bfi", f"bfi {self.d()}, {self.s()}, #{lsb}, #{w}")
        elif k == 3:
            self.emit("bfc", f"bfc {self.d()}, #{lsb}, #{w}")
        elif k == 4:
            op = self.r.choice(["rev", "rev16", "revsh", "rbit", "clz"])
            self.emit(op, f"{op}{'.w' if op in ('rev', 'rev16', 'revsh') else ''} {self.d()}, {self.s()}")
        else:
            if self.r.random() < 0.5:
                self.emit("pkhbt", f"pkhbt {self.d()}, {self.s()}, {self.s()}, lsl #{self.r.randrange(32)}")
            else:
                self.emit("pkhtb", f"pkhtb {self.d()}, {self.s()}, {self.s()}, asr #{self.r.randrange(1, 33)}")

    def t_sat(self) -> None:
        k = self.r.randrange(5)
        if k == 0:
            sh = self.r.choice(["", f", lsl #{self.r.randrange(1, 32)}", f", asr #{self.r.randrange(1, 32)}"])
            self.emit("ssat", f"ssat {self.d()}, #{self.r.randrange(1, 33)}, {self.s()}{sh}")
        elif k == 1:
            sh = self.r.choice(["", f", lsl #{self.r.randrange(1, 32)}", f", asr #{self.r.randrange(1, 32)}"])
            self.emit("usat", f"usat {self.d()}, #{self.r.randrange(0, 32)}, {self.s()}{sh}")
        elif k == 2:
            self.emit("ssat16", f"ssat16 {self.d()}, #{self.r.randrange(1, 17)}, {self.s()}")
        elif k == 3:
            self.emit("usat16", f"usat16 {self.d()}, #{self.r.randrange(0, 16)}, {self.s()}")
        else:
            op = self.r.choice(["qadd", "qsub", "qdadd", "qdsub"])
            self.emit(op, f"{op} {self.d()}, {self.s()}, {self.s()}")

    def t_par(self) -> None:
        pre = self.r.choice(["s", "q", "sh", "u", "uq", "uh"])
        op = self.r.choice(["add16", "asx", "sax", "sub16", "add8", "sub8"])
        self.emit(pre + op, f"{pre}{op} {self.d()}, {self.s()}, {self.s()}")
        if self.r.random() < 0.3:
            self.emit("sel", f"sel {self.d()}, {self.s()}, {self.s()}")

    def t_mul(self) -> None:
        k = self.r.randrange(12)
        d, n, m, a = self.d(), self.s(), self.s(), self.s()
        if k == 0:
            op = self.r.choice(["mul", "mla", "mls"])
            self.emit(op, f"{op} {d}, {n}, {m}" + (f", {a}" if op != "mul" else ""))
        elif k == 1:
            xy = self.r.choice(["bb", "bt", "tb", "tt"])
            if self.r.random() < 0.5:
                self.emit("smulxy", f"smul{xy} {d}, {n}, {m}")
            else:
                self.emit("smlaxy", f"smla{xy} {d}, {n}, {m}, {a}")
        elif k == 2:
            y = self.r.choice(["b", "t"])
            if self.r.random() < 0.5:
                self.emit("smulwy", f"smulw{y} {d}, {n}, {m}")
            else:
                self.emit("smlawy", f"smlaw{y} {d}, {n}, {m}, {a}")
        elif k == 3:
            op = self.r.choice(["smuad", "smuadx", "smusd", "smusdx"])
            self.emit(op, f"{op} {d}, {n}, {m}")
        elif k == 4:
            op = self.r.choice(["smlad", "smladx", "smlsd", "smlsdx"])
            self.emit(op, f"{op} {d}, {n}, {m}, {a}")
        elif k == 5:
            op = self.r.choice(["smmul", "smmulr"])
            self.emit(op, f"{op} {d}, {n}, {m}")
        elif k == 6:
            op = self.r.choice(["smmla", "smmlar", "smmls", "smmlsr"])
            self.emit(op, f"{op} {d}, {n}, {m}, {a}")
        elif k == 7:
            if self.r.random() < 0.5:
                self.emit("usad8", f"usad8 {d}, {n}, {m}")
            else:
                self.emit("usada8", f"usada8 {d}, {n}, {m}, {a}")
        elif k == 8:
            lo, hi = self.two()
            op = self.r.choice(["smull", "umull", "smlal", "umlal", "umaal"])
            self.emit(op, f"{op} {lo}, {hi}, {n}, {m}")
        elif k == 9:
            lo, hi = self.two()
            op = self.r.choice(["smlalbb", "smlalbt", "smlaltb", "smlaltt", "smlald", "smlaldx", "smlsld", "smlsldx"])
            self.emit(op, f"{op} {lo}, {hi}, {n}, {m}")
        else:
            op = self.r.choice(["sdiv", "udiv"])
            self.emit(op, f"{op} {d}, {n}, {m}")

    def t_mem(self) -> None:
        k = self.r.randrange(9)
        sz = self.r.choice(["", "b", "h", "sb", "sh"])
        if k == 0:
            self.emit(f"ldr{sz}_imm12", f"ldr{sz}.w {self.d()}, [r11, #{self.r.randrange(1024)}]")
        elif k == 1:
            self.emit(f"ldr{sz}_reg", f"ldr{sz}.w {self.d()}, [r11, r10, lsl #{self.r.randrange(4)}]")
        elif k == 2:
            off = self.r.randrange(-255, 256)
            mode = self.r.choice(["pre", "post", "neg"])
            if mode == "pre":
                self.emit(f"ldr{sz}_pre", f"ldr{sz} {self.d()}, [r11, #{off}]!")
            elif mode == "post":
                self.emit(f"ldr{sz}_post", f"ldr{sz} {self.d()}, [r11], #{off}")
            else:
                self.emit(f"ldr{sz}_neg", f"ldr{sz} {self.d()}, [r11, #-{self.r.randrange(1, 256)}]")
                return
            self.lines.append("\tmovw r11, #:lower16:buf\n\tmovt r11, #:upper16:buf")
        elif k == 3:
            s = self.r.choice(["", "b", "h"])
            self.emit(f"str{s}_imm12", f"str{s}.w {self.s()}, [r11, #{self.r.randrange(1024)}]")
        elif k == 4:
            s = self.r.choice(["", "b", "h"])
            self.emit(f"str{s}_reg", f"str{s}.w {self.s()}, [r11, r10, lsl #{self.r.randrange(4)}]")
        elif k == 5:
            a, b = self.two()
            off = 4 * self.r.randrange(-32, 64)
            if self.r.random() < 0.5:
                self.emit("ldrd", f"ldrd {a}, {b}, [r11, #{off}]")
            else:
                self.emit("strd", f"strd {a}, {b}, [r11, #{off}]")
        elif k == 6:
            regs = sorted(self.r.sample(range(10), self.r.randrange(2, 6)))
            lst = ", ".join(f"r{x}" for x in regs)
            op = self.r.choice(["ldmia", "stmia", "ldmdb", "stmdb"])
            self.emit(op, f"{op}.w r11, {{{lst}}}")
        elif k == 7:
            regs = sorted(self.r.sample(range(10), self.r.randrange(1, 5)))
            lst = ", ".join(f"r{x}" for x in regs)
            self.emit(
                "push_pop", f"push.w {{{lst}}}\npop.w {{{lst}}}" if len(regs) > 1 else f"push {{{lst}}}\npop {{{lst}}}"
            )
        else:
            lo = self.lo()
            off = 4 * self.r.randrange(32)
            if self.r.random() < 0.5:
                self.emit(
                    "ldr16_imm", f"ldr {lo}, [r7, #{off}]".replace("r7", "r6") if False else f"ldr {lo}, [sp, #{off}]"
                )
            else:
                self.emit("ldrb16_reg", f"ldrb {lo}, [{lo}, {lo}]" if False else f"ldr {lo}, [sp, #{off}]")

    def t_it(self) -> None:
        c = self.r.choice(CONDS)
        n = self.r.randrange(1, 5)
        pat = "".join(self.r.choice("te") for _ in range(n - 1))
        inv = {
            "eq": "ne",
            "ne": "eq",
            "cs": "cc",
            "cc": "cs",
            "mi": "pl",
            "pl": "mi",
            "vs": "vc",
            "vc": "vs",
            "hi": "ls",
            "ls": "hi",
            "ge": "lt",
            "lt": "ge",
            "gt": "le",
            "le": "gt",
        }
        body = []
        conds = [c] + [c if x == "t" else inv[c] for x in pat]
        for cc in conds:
            k = self.r.randrange(5)
            if k == 0:
                body.append(f"add{cc} {self.d()}, {self.s()}, {self.s()}")
            elif k == 1:
                body.append(f"adds{cc}.w {self.d()}, {self.s()}, #{modimm(self.r)}")
            elif k == 2:
                body.append(f"mov{cc} {self.d()}, {self.s()}")
            elif k == 3:
                body.append(f"cmp{cc} {self.s()}, {self.s()}")
            else:
                body.append(f"ldr{cc} {self.d()}, [r11, #{4 * self.r.randrange(64)}]")
        self.emit(f"it{pat}", f"it{pat} {c}\n" + "\n".join(body))

    def t_branch(self) -> None:
        self.label += 1
        lab = f".Lb{self.label}"
        k = self.r.randrange(4)
        if k == 0:
            self.emit("bcond", f"b{self.r.choice(CONDS)} {lab}\nadd {self.d()}, {self.s()}\n{lab}:")
        elif k == 1:
            self.emit("bcond_w", f"b{self.r.choice(CONDS)}.w {lab}\nadd {self.d()}, {self.s()}\n{lab}:")
        elif k == 2:
            op = self.r.choice(["cbz", "cbnz"])
            self.emit(op, f"{op} {self.lo()}, {lab}\nadd {self.d()}, {self.s()}\n{lab}:")
        else:
            self.emit("bl", f"bl .Lleaf\nadd {self.d()}, {self.s()}")

    def t_psr(self) -> None:
        if self.r.random() < 0.5:
            self.emit("mrs", f"mrs {self.d()}, apsr")
        else:
            self.emit("msr", f"msr APSR_nzcvq{self.r.choice(['', 'g'])}, {self.s()}")

    def t_fp(self) -> None:
        r = self.r
        dbl = self.double and r.random() < 0.5
        sd = self.dreg if dbl else self.sreg
        t = ".f64" if dbl else ".f32"
        k = r.randrange(16 if self.double else 14)
        if k == 14:
            # FPv5 (Cortex-M7): VSEL, VMAXNM/VMINNM, VRINT*, VCVT{A,N,P,M}
            op = r.choice(["vseleq", "vselvs", "vselge", "vselgt", "vmaxnm", "vminnm"])
            self.emit(op + t, f"{op}{t} {sd()}, {sd()}, {sd()}")
            return
        if k == 15:
            op = r.choice(["vrinta", "vrintn", "vrintp", "vrintm", "vrintr", "vrintz", "vrintx"])
            if r.random() < 0.6:
                self.emit(op + t, f"{op}{t} {sd()}, {sd()}")
            else:
                op = r.choice(["vcvta", "vcvtn", "vcvtp", "vcvtm"]) + r.choice([".s32", ".u32"])
                self.emit(op + t, f"{op}{t} {self.sreg()}, {sd()}")
            return
        if k == 0:
            op = r.choice(["vadd", "vsub", "vmul", "vnmul", "vdiv"])
            self.emit(op + t, f"{op}{t} {sd()}, {sd()}, {sd()}")
        elif k == 1:
            op = r.choice(["vmla", "vmls", "vnmla", "vnmls"])
            self.emit(op + t, f"{op}{t} {sd()}, {sd()}, {sd()}")
        elif k == 2:
            op = r.choice(["vfma", "vfms", "vfnma", "vfnms"])
            self.emit(op + t, f"{op}{t} {sd()}, {sd()}, {sd()}")
        elif k == 3:
            op = r.choice(["vabs", "vneg", "vsqrt", "vmov"])
            self.emit(op + t, f"{op}{t} {sd()}, {sd()}")
        elif k == 4:
            op = r.choice(["vcmp", "vcmpe"])
            if r.random() < 0.3:
                self.emit(op + "_zero" + t, f"{op}{t} {sd()}, #0\nvmrs APSR_nzcv, fpscr")
            else:
                self.emit(op + t, f"{op}{t} {sd()}, {sd()}\nvmrs APSR_nzcv, fpscr")
        elif k == 5:
            op = r.choice(["vcvt.s32", "vcvt.u32", "vcvtr.s32", "vcvtr.u32"])
            self.emit(op + t, f"{op}{t} {self.sreg()}, {sd()}")
        elif k == 6:
            op = r.choice(["vcvt.f32.s32", "vcvt.f32.u32"]) if not dbl else r.choice(["vcvt.f64.s32", "vcvt.f64.u32"])
            self.emit(op, f"{op} {sd()}, {self.sreg()}")
        elif k == 7:
            imm = r.choice(["1.0", "0.5", "-2.0", "31.0", "0.125", "-1.75", "10.0"])
            self.emit("vmov_imm" + t, f"vmov{t} {sd()}, #{imm}")
        elif k == 8:
            if r.random() < 0.5:
                self.emit("vmov_rs", f"vmov {self.d()}, {self.sreg()}")
            else:
                self.emit("vmov_sr", f"vmov {self.sreg()}, {self.s()}")
        elif k == 9:
            a, b = self.two()
            x = r.randrange(31)
            if dbl:
                self.emit("vmov_rrd", f"vmov {a}, {b}, d{r.randrange(16)}")
            else:
                self.emit("vmov_rrss", f"vmov {a}, {b}, s{x}, s{x + 1}")
        elif k == 10:
            off = 4 * r.randrange(-64, 128)
            if r.random() < 0.5:
                self.emit("vldr" + t, f"vldr {sd()}, [r11, #{off}]")
            else:
                self.emit("vstr" + t, f"vstr {sd()}, [r11, #{off}]")
        elif k == 11:
            first = r.randrange(28)
            n = r.randrange(1, 5)
            lst = f"s{first}-s{first + n - 1}" if n > 1 else f"s{first}"
            self.emit("vpush_vpop", f"vpush {{{lst}}}\nvpop {{{lst}}}")
        elif k == 12:
            self.emit("vmrs", f"vmrs {self.d()}, fpscr")
        else:
            if dbl:
                self.emit("vcvt.f64.f32", f"vcvt.f64.f32 {self.dreg()}, {self.sreg()}")
            else:
                self.emit(
                    "vldm_vstm",
                    f"vstmia r11, {{s{r.randrange(8)}-s{8 + r.randrange(8)}}}\nvldmia r11, {{s{16 + r.randrange(4)}-s{20 + r.randrange(8)}}}",
                )

    def program(self, blocks: int, per_block: int) -> str:
        ints = [
            self.t_dp_reg,
            self.t_dp_imm,
            self.t_addw,
            self.t_mov,
            self.t_cmp,
            self.t_shift_reg,
            self.t_16bit,
            self.t_ext,
            self.t_bits,
            self.t_sat,
            self.t_par,
            self.t_mul,
            self.t_mem,
            self.t_it,
            self.t_branch,
            self.t_psr,
        ]
        for _ in range(blocks):
            self.block_init()
            for _ in range(per_block):
                if self.fp and self.r.random() < 0.45:
                    self.t_fp()
                else:
                    self.r.choice(ints)()
        body = "\n".join(self.lines)
        return f"""@ SPDX-License-Identifier: MIT
@ generated by gen_stream.py
\t.syntax unified
\t.thumb
\t.text
\t.global stream
\t.type stream, %function
\t.thumb_func
stream:
\tpush {{r4-r11, lr}}
\tsub sp, sp, #128
{body}
\tadd sp, sp, #128
\tpop {{r4-r11, pc}}
\t.thumb_func
.Lleaf:
\tadds r0, r0, #1
\tbx lr
\t.ltorg
\t.bss
\t.align 3
\t.space 1024
buf:
\t.space 2048
"""


MAIN = """/* SPDX-License-Identifier: MIT */
#include "fw.h"
void stream(void);
int main(void)
{
    stream();
    uart_puts("stream done\\n");
    return 0;
}
"""


def build(
    seed: int, out_dir: Path, fp: bool = True, machine: str = "mps2-an386", blocks: int = 8, per_block: int = 25
) -> tuple[Path, set[str]]:
    double = machine == "mps2-an500"
    g = Gen(seed, fp, double)
    src = g.program(blocks, per_block)
    out_dir.mkdir(parents=True, exist_ok=True)
    s = out_dir / f"stream{seed}.S"
    s.write_text(src)
    m = out_dir / "stream_main.c"
    m.write_text(MAIN)
    elf = out_dir / f"stream{seed}.elf"
    cpu = ["-mcpu=cortex-m7", "-mfpu=fpv5-d16"] if double else ["-mcpu=cortex-m4", "-mfpu=fpv4-sp-d16"]
    subprocess.run(
        [
            "arm-none-eabi-gcc",
            *cpu,
            "-mthumb",
            "-mfloat-abi=hard",
            "-O2",
            "-ffreestanding",
            "-nostdlib",
            "-I",
            str(FW),
            "-T",
            str(FW / "link.ld"),
            str(FW / "start.c"),
            str(m),
            str(s),
            "-lgcc",
            "-o",
            str(elf),
        ],
        check=True,
    )
    return elf, g.used
