"""lib/common/ct.h word-wise helpers pqlab_memzero_words / pqlab_memcpy_words: same result
as memset / memcpy for every length and alignment (host), and the compiled loops contain
no call of the C library's memset / memcpy (byte-wise on picolibc) on host and Cortex-M4."""

from __future__ import annotations

import subprocess
from pathlib import Path

import firmware
import pytest

from pqlab.platforms import get_platform

CHECK = r"""
#include <stdio.h>
#include <string.h>
#include "ct.h"

int main(void)
{
    _Alignas(8) unsigned char a[96], b[96], src[96];
    int bad = 0;
    for (unsigned int i = 0; i < sizeof src; i++) {
        src[i] = (unsigned char)(37 * i + 11);
    }
    for (size_t n = 0; n <= 67; n++) {
        for (size_t off = 0; off < 4; off++) {
            for (size_t soff = 0; soff < 4; soff++) {
                memset(a, 0xA5, sizeof a);
                memset(b, 0xA5, sizeof b);
                pqlab_memcpy_words(a + off, src + soff, n);
                memcpy(b + off, src + soff, n);
                if (memcmp(a, b, sizeof a) != 0) {
                    printf("memcpy_words n=%zu off=%zu soff=%zu\n", n, off, soff);
                    bad = 1;
                }
            }
        }
        memset(a, 0xA5, sizeof a);
        memset(b, 0xA5, sizeof b);
        pqlab_memzero_words(a + 4, n);
        memset(b + 4, 0, n);
        if (memcmp(a, b, sizeof a) != 0) {
            printf("memzero_words n=%zu\n", n);
            bad = 1;
        }
    }
    puts(bad ? "FAIL" : "OK");
    return bad;
}
"""

# fixed sizes as in the callers (Keccak state, one polynomial), where GCC would otherwise
# emit a memset / memcpy call for the loop
USES = r"""
#include <stdint.h>
#include "ct.h"
typedef struct { _Alignas(8) int16_t c[256]; } poly;
void zero_state(uint64_t s[25]) { pqlab_memzero_words(s, 25 * sizeof s[0]); }
void zero_poly(poly *p) { pqlab_memzero_words(p, sizeof *p); }
void copy_bytes(uint8_t *d, const uint8_t *s) { pqlab_memcpy_words(d, s, 1184); }
void copy_any(uint8_t *d, const uint8_t *s, unsigned int n) { pqlab_memcpy_words(d, s, n); }
"""


def test_helpers_match_libc(tmp_path: Path) -> None:
    src = tmp_path / "check.c"
    src.write_text(CHECK)
    exe = firmware.build("host", tmp_path / "build", [src])
    out = subprocess.run([str(exe)], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip().endswith("OK"), out.stdout


@pytest.mark.parametrize("platform", ["host", "mps2-an386"])
@pytest.mark.parametrize("opt", ["-O2", "-O3", "-Os"])
def test_no_libc_call(platform: str, opt: str, tmp_path: Path) -> None:
    src = tmp_path / "uses.c"
    src.write_text(USES)
    plat = get_platform(platform)
    (obj,) = firmware.build(platform, tmp_path / "build", [src], cflags=[opt], kind="objects")
    nm = plat.tool("nm") if plat.tools_prefix else "nm"
    undef = subprocess.run([nm, "-u", str(obj)], capture_output=True, text=True, check=True).stdout.split()
    assert "memset" not in undef and "memcpy" not in undef, undef
