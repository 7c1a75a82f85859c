# SPDX-License-Identifier: MIT
"""Minimal GDB remote serial protocol client for QEMU's gdbstub (lockstep tests)."""

from __future__ import annotations

import socket
import subprocess
import time


class Gdb:
    def __init__(self, port: int, timeout: float = 10.0) -> None:
        deadline = time.time() + timeout
        while True:
            try:
                self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
                break
            except OSError:
                if time.time() > deadline:
                    raise
                time.sleep(0.02)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""
        self.ack = True
        self.cmd("QStartNoAckMode")
        self.ack = False
        # with XML register descriptions the 'g' packet is r0-r15, xPSR and the
        # FP registers are d0-d15 (26..41) and FPSCR (42)
        self.cmd("qSupported:xmlRegisters=arm")
        self.cmd("qXfer:features:read:target.xml:0,ffff")

    def _send(self, data: str) -> None:
        cs = sum(data.encode()) & 0xFF
        self.sock.sendall(f"${data}#{cs:02x}".encode())

    def _recv(self) -> str:
        while True:
            i = self.buf.find(b"$")
            if i >= 0:
                j = self.buf.find(b"#", i)
                if j >= 0 and len(self.buf) >= j + 3:
                    pkt = self.buf[i + 1 : j].decode()
                    self.buf = self.buf[j + 3 :]
                    if self.ack:
                        self.sock.sendall(b"+")
                    return pkt
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("gdbstub closed the connection")
            self.buf += chunk

    def cmd(self, data: str) -> str:
        self._send(data)
        return self._recv()

    def regs(self) -> list[int]:
        """r0..r15 and xPSR."""
        g = self.cmd("g")
        return [int.from_bytes(bytes.fromhex(g[8 * k : 8 * k + 8]), "little") for k in range(17)]

    def fpregs(self) -> list[int]:
        """s0..s31 and FPSCR."""
        out: list[int] = []
        for k in range(16):
            d = self.reg(26 + k) or 0
            out += [d & 0xFFFFFFFF, d >> 32]
        out.append(self.reg(42) or 0)
        return out

    def reg(self, n: int) -> int | None:
        r = self.cmd(f"p{n:x}")
        if not r or r.startswith("E"):
            return None
        return int.from_bytes(bytes.fromhex(r), "little")

    def step(self) -> str:
        return self.cmd("s")

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def start_qemu(elf: str, machine: str, port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [
            "qemu-system-arm",
            "-M",
            machine,
            "-nographic",
            "-semihosting-config",
            "enable=on,target=native",
            "-S",
            "-gdb",
            f"tcp:127.0.0.1:{port}",
            "-kernel",
            elf,
            "-monitor",
            "none",
            "-serial",
            "null",
        ],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
