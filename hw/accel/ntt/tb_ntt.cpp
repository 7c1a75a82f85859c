// SPDX-License-Identifier: MIT
// Unit test bench of the NTT unit (ntt_unit.sv) alone: a command script on stdin drives its
// bus port, one command per line; tests/test_accel_ntt.py writes the script from the software
// model (pqlab/accel_ntt.py) and compares the output.
//   W <addr> <data>   one write cycle; prints "E" when the unit refuses it (err_o)
//                     (R, and W other than of A, B or SCALE, first clock while wpend_o: the
//                     slot's hold of ntt_obi.sv)
//   R <addr>          one read cycle; prints the read data (decimal, unsigned; the unit's
//                     reads are registered: rdata_o after the clock edge) or "E"
//   T                 clock until the unit is idle; prints the cycles it stayed busy
// Addresses and data in hex (0x...) or decimal.
#include "Vntt_unit.h"
#include "verilated.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

static Vntt_unit *dut;

static void tick()
{
    dut->clk_i = 1;
    dut->eval();
    dut->clk_i = 0;
    dut->eval();
}

int main(int argc, char **argv)
{
    Verilated::commandArgs(argc, argv);
    dut = new Vntt_unit;
    dut->clk_i = 0;
    dut->req_i = 0;
    dut->rst_ni = 0;
    dut->eval();
    dut->rst_ni = 1;
    dut->eval();
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        std::string cmd, a, d;
        in >> cmd >> a >> d;
        if (cmd.empty()) {
            continue;
        }
        if (cmd == "W" || cmd == "R") {
            const uint32_t addr = (uint32_t)std::strtoul(a.c_str(), nullptr, 0);
            // the slot's hold (ntt_obi.sv): an access other than a write of A, B or SCALE
            // waits while a write is in the unit's write pipeline
            const bool posted = cmd == "W" && ((addr & 0x3000) != 0 || (addr & 0x3fff) == 0x010);
            while (!posted && dut->wpend_o) {
                tick();
            }
            dut->req_i = 1;
            dut->we_i = cmd == "W";
            dut->addr_i = addr;
            dut->wdata_i = cmd == "W" ? (uint32_t)std::strtoul(d.c_str(), nullptr, 0) : 0;
            dut->eval();
            const bool err = dut->err_o;
            if (err) {
                std::printf("E\n");
            }
            tick();
            if (!err && cmd == "R") { /* registered read: the word is there after the clock edge */
                std::printf("%u\n", (unsigned)dut->rdata_o);
            }
            dut->req_i = 0;
            dut->eval();
        } else if (cmd == "T") {
            unsigned long n = 0;
            while (dut->busy_o) {
                tick();
                if (++n > 100000) {
                    std::printf("timeout\n");
                    return 1;
                }
            }
            std::printf("%lu\n", n);
        } else {
            std::fprintf(stderr, "tb_ntt: unknown command %s\n", cmd.c_str());
            return 2;
        }
    }
    std::fflush(stdout);
    delete dut;
    return 0;
}
