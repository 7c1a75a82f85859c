"""Development tool: prints the twiddle table of lib/hawk/ntru_fx.c.

Entry k (1 <= k < 512) is the root of unity exp(i pi (2 rev_j(k - 2^j) + 1) / 2^(j + 1))
(2^j <= k < 2^(j + 1), rev_j reverses j bits), i.e. the roots of the split tree of
x^(n/2) - i in the order a negacyclic FFT visits them; each part is rounded to the nearest
multiple of 2^-32 and written as a signed 64-bit integer (32.32 fixed point). Entry 0 is 1.
Computed with 60 decimal digits (no part is within 10^-40 of a rounding tie).

    python3 lib/hawk/gen_fx_roots.py > table.txt   (then clang-format aligns the columns)
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, getcontext

getcontext().prec = 60


def pi() -> Decimal:
    """Machin's formula"""

    def arctan_inv(x: int) -> Decimal:
        total, term, k, x2 = Decimal(0), Decimal(1) / x, 0, x * x
        while True:
            t = term / (2 * k + 1)
            if t == 0 or abs(t) < Decimal(10) ** -80:
                break
            total += t if k % 2 == 0 else -t
            term /= x2
            k += 1
        return total

    return 16 * arctan_inv(5) - 4 * arctan_inv(239)


def cos_sin(x: Decimal) -> tuple[Decimal, Decimal]:
    c, s, term, k = Decimal(0), Decimal(0), Decimal(1), 0
    while abs(term) > Decimal(10) ** -80:
        if k % 4 == 0:
            c += term
        elif k % 4 == 1:
            s += term
        elif k % 4 == 2:
            c -= term
        else:
            s -= term
        k += 1
        term = term * x / k
    return c, s


def fx(v: Decimal) -> int:
    scaled = v * (1 << 32)
    r = int(scaled.to_integral_value(rounding=ROUND_HALF_EVEN))
    assert abs(scaled - r) != Decimal("0.5")
    assert abs(abs(scaled - r) - Decimal("0.5")) > Decimal(10) ** -40
    return r


def rev(x: int, bits: int) -> int:
    return int(format(x, f"0{bits}b")[::-1], 2) if bits else 0


def main() -> None:
    p = pi()
    rows = ["{4294967296, 0}"]
    for k in range(1, 512):
        j = k.bit_length() - 1
        num = 2 * rev(k - (1 << j), j) + 1
        c, s = cos_sin(p * num / (1 << (j + 1)))
        rows.append(f"{{{fx(c)}, {fx(s)}}}")
    for i in range(0, len(rows), 4):
        print("    " + ", ".join(rows[i : i + 4]) + ",")


if __name__ == "__main__":
    main()
