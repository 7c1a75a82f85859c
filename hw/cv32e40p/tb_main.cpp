// SPDX-License-Identifier: MIT
// pqlab's Verilator test bench driver for the CV32E40P (tb_top.sv): loads an ELF into the
// test bench's memory, clocks the core until the program writes the exit device, and turns
// every way a run can go wrong into a '#fault' line on stdout and a non-zero exit code:
//   #fault bus|code-write|stack-overflow|fetch pc=<pc> addr=<address>   (tb_top.sv's checks)
//   #fault timeout cycles=<n> pc=<pc>   the program did not exit within --max-cycles
//   #fault sleep cycles=<n> pc=<pc>     the core sleeps (WFI) with no interrupt to wake it
// Usage: cv32e40p-tb [--max-cycles N] [--stats] [--writes FILE] program.elf
// --stats prints "tb-stats cycles=<n> seconds=<s> cycles_per_s=<r>" on stderr at the end.
// PQLAB_TB_STATS=FILE in the environment appends that line, with the program's path, to FILE
// (pqlab keeps no stderr of a passing run: long RTL campaigns record their cycles this way).
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "Vtb_top.h"
#include "Vtb_top__Dpi.h"
#include "verilated.h"

namespace
{
// the memory map of tb_top.sv
constexpr uint32_t kMemWords = 0x00200000u;
constexpr uint32_t kRomBase = 0x00001000u;
constexpr uint32_t kMemEnd = kMemWords * 4u;
// a core that sleeps this long with interrupts tied off never wakes up
constexpr uint64_t kSleepCycles = 1000u;

std::vector<uint32_t> image(kMemWords, 0u);
FILE *input_file = nullptr;
bool input_tried = false;
bool finished = false;
int exit_code = 0;

[[noreturn]] void die(const std::string &msg)
{
    std::fprintf(stderr, "cv32e40p-tb: %s\n", msg.c_str());
    std::exit(2);
}

uint32_t le32(const std::vector<uint8_t> &b, size_t off)
{
    return uint32_t(b[off]) | uint32_t(b[off + 1]) << 8 | uint32_t(b[off + 2]) << 16 | uint32_t(b[off + 3]) << 24;
}

uint16_t le16(const std::vector<uint8_t> &b, size_t off)
{
    return uint16_t(b[off] | b[off + 1] << 8);
}

// ELF32, little-endian, RISC-V (e_machine 243): every PT_LOAD segment at its physical
// (load) address; start-up code copies .data from there to RAM.
void load_elf(const char *path)
{
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        die(std::string("cannot open ") + path);
    }
    std::vector<uint8_t> b((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    if (b.size() < 52 || std::memcmp(b.data(), "\x7f\x45\x4c\x46", 4) != 0 || b[4] != 1 || b[5] != 1 ||
        le16(b, 18) != 243) {
        die(std::string(path) + ": not a 32-bit little-endian RISC-V ELF file");
    }
    if (le32(b, 24) != kRomBase) {
        die(std::string(path) + ": entry point is not the boot address 0x1000");
    }
    uint32_t phoff = le32(b, 28);
    uint16_t phentsize = le16(b, 42), phnum = le16(b, 44);
    for (uint32_t i = 0; i < phnum; i++) {
        size_t ph = size_t(phoff) + size_t(i) * phentsize;
        if (ph + 32 > b.size()) {
            die(std::string(path) + ": truncated program header table");
        }
        if (le32(b, ph) != 1 /* PT_LOAD */) {
            continue;
        }
        uint32_t off = le32(b, ph + 4), paddr = le32(b, ph + 12), filesz = le32(b, ph + 16);
        if (filesz == 0) {
            continue;
        }
        if (size_t(off) + filesz > b.size()) {
            die(std::string(path) + ": segment beyond the end of the file");
        }
        if (paddr < kRomBase || paddr >= kMemEnd || filesz > kMemEnd - paddr) {
            char msg[128];
            std::snprintf(msg, sizeof msg, "segment at 0x%08" PRIx32 " (+%" PRIu32 ") outside the memory", paddr,
                          filesz);
            die(std::string(path) + ": " + msg);
        }
        for (uint32_t k = 0; k < filesz; k++) {
            uint32_t a = paddr + k;
            image[a >> 2] |= uint32_t(b[off + k]) << (8 * (a & 3u));
        }
    }
}

const char *fault_name(uint32_t kind)
{
    switch (kind) {
    case 1:
        return "bus";
    case 2:
        return "code-write";
    case 3:
        return "stack-overflow";
    case 4:
        return "fetch";
    default:
        return "unknown";
    }
}
} // namespace

// ---- DPI functions called by tb_top.sv ----

extern "C" unsigned int tb_image_word(unsigned int index)
{
    return index < kMemWords ? image[index] : 0u;
}

extern "C" void tb_console(unsigned int c)
{
    std::fputc(int(c & 0xffu), stdout);
}

extern "C" void tb_exit(unsigned int code)
{
    if (!finished) {
        finished = true;
        exit_code = int(code & 0xffu);
    }
}

extern "C" unsigned int tb_input(void)
{
    if (!input_tried) {
        input_tried = true;
        input_file = std::fopen("pqlab.in", "rb");
    }
    if (input_file == nullptr) {
        return 0x200u;
    }
    int c = std::fgetc(input_file);
    return c == EOF ? 0x100u : unsigned(c);
}

// --writes FILE: the functional lockstep records (tb_top.sv), 12 bytes each, little-endian:
// kind (1 register write: what = register 1-63, f0-f31 being 32-63; 2 store byte: what = the
// byte, value = its address), what, two zero bytes, value, and a pc of 0 (the simulator's
// records carry the instruction's pc there; compare ignores it).
FILE *writes_file = nullptr;

extern "C" unsigned int tb_writes_on(void)
{
    return writes_file != nullptr ? 1u : 0u;
}

extern "C" void tb_write(unsigned int kind, unsigned int what, unsigned int value)
{
    uint8_t r[12] = {uint8_t(kind), uint8_t(what), 0, 0};
    for (int k = 0; k < 4; k++) {
        r[4 + k] = uint8_t(value >> (8 * k));
    }
    std::fwrite(r, 1, sizeof r, writes_file);
}

extern "C" void tb_fault(unsigned int kind, unsigned int addr, unsigned int pc)
{
    if (!finished) {
        std::fprintf(stdout, "\n#fault %s pc=0x%08x addr=0x%08x\n", fault_name(kind), pc, addr);
        finished = true;
        exit_code = 3;
    }
}

int main(int argc, char **argv)
{
    uint64_t max_cycles = 0; // 0: no limit in cycles (the runner's wall-clock limit holds)
    bool stats = false;
    const char *elf = nullptr;
    for (int i = 1; i < argc; i++) {
        if (std::strcmp(argv[i], "--max-cycles") == 0 && i + 1 < argc) {
            char *end = nullptr;
            max_cycles = std::strtoull(argv[++i], &end, 0);
            if (end == argv[i] || *end != 0) {
                die(std::string("--max-cycles: not a number: ") + argv[i]);
            }
        } else if (std::strcmp(argv[i], "--stats") == 0) {
            stats = true;
        } else if (std::strcmp(argv[i], "--writes") == 0 && i + 1 < argc) {
            writes_file = std::fopen(argv[++i], "wb");
            if (writes_file == nullptr) {
                die(std::string("--writes: cannot create ") + argv[i]);
            }
        } else if (argv[i][0] == '-' || elf != nullptr) {
            die(std::string(
                    "usage: cv32e40p-tb [--max-cycles N] [--stats] [--writes FILE] program.elf (bad argument ") +
                argv[i] + ")");
        } else {
            elf = argv[i];
        }
    }
    if (elf == nullptr) {
        die("usage: cv32e40p-tb [--max-cycles N] [--stats] [--writes FILE] program.elf");
    }
    load_elf(elf);

    auto t0 = std::chrono::steady_clock::now();
    VerilatedContext ctx;
    ctx.fatalOnError(true);
    Vtb_top top{&ctx};
    top.clk_i = 0;
    top.rst_ni = 0;
    top.eval();
    for (int i = 0; i < 4; i++) { // a few clocks in reset
        top.clk_i = 1;
        top.eval();
        top.clk_i = 0;
        top.eval();
    }
    top.rst_ni = 1;
    top.eval();
    uint64_t cycles = 0, asleep = 0;
    while (!finished) {
        top.clk_i = 1;
        top.eval();
        top.clk_i = 0;
        top.eval();
        cycles++;
        asleep = top.core_sleep_o ? asleep + 1 : 0;
        if (asleep >= kSleepCycles && !finished) {
            std::fprintf(stdout, "\n#fault sleep cycles=%" PRIu64 " pc=0x%08x\n", cycles, top.pc_ex_o);
            finished = true;
            exit_code = 3;
        }
        if (max_cycles != 0 && cycles >= max_cycles && !finished) {
            std::fprintf(stdout, "\n#fault timeout cycles=%" PRIu64 " pc=0x%08x\n", cycles, top.pc_ex_o);
            finished = true;
            exit_code = 124;
        }
    }
    top.final();
    std::fflush(stdout);
    const char *stats_file = std::getenv("PQLAB_TB_STATS");
    if (stats || (stats_file != nullptr && *stats_file != 0)) {
        double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        char line[160];
        std::snprintf(line, sizeof line, "tb-stats cycles=%" PRIu64 " seconds=%.3f cycles_per_s=%.0f", cycles, s,
                      s > 0 ? double(cycles) / s : 0.0);
        if (stats) {
            std::fprintf(stderr, "%s\n", line);
        }
        if (stats_file != nullptr && *stats_file != 0) {
            FILE *f = std::fopen(stats_file, "a");
            if (f == nullptr) {
                die(std::string("PQLAB_TB_STATS: cannot append to ") + stats_file);
            }
            std::fprintf(f, "%s exit=%d elf=%s\n", line, exit_code, elf);
            std::fclose(f);
        }
    }
    if (input_file != nullptr) {
        std::fclose(input_file);
    }
    if (writes_file != nullptr && std::fclose(writes_file) != 0) {
        die("--writes: the file could not be written completely");
    }
    return exit_code;
}
