// SPDX-License-Identifier: MIT
// The Keccak-f[1600] unit (keccak_f1600.sv) as a tightly coupled unit on the CV32E40P's data
// port (pqlab's test bench hw/cv32e40p/tb_top.sv, parameter KECCAK=1; docs/accel.md).
//
// Accelerator slot convention of tb_top (every unit on the data port follows it):
//   sel_o    combinational: addr_i is inside this unit's window;
//   stall_o  combinational: the request must wait (tb_top holds the core's gnt low);
//   bad_o    combinational: an access the unit does not support (tb_top reports a bus fault);
//   rdata_o  combinational: the word read at addr_i (tb_top latches it when it grants the
//            request, so the response comes in the next cycle, like memory);
//   a write takes effect at the clock edge of the granted request (req_i && sel_o && !stall_o).
//
// Register map (word offsets from BASE; aligned 32-bit accesses only, anything else is bad_o):
//   0..49  the state, read/write: word 2i is the low half of lane i (x + 5y), word 2i+1 the
//          high half, i.e. the 200-byte state of FIPS 202 as 50 little-endian words
//   50     CTRL: a write starts a permutation (the value is ignored); a read returns 0
// Any access to the window while the permutation runs waits (gnt low) until it has finished,
// so software needs no polling: it starts, then reads the result.
module keccak_obi #(
    parameter logic [31:0] BASE = 32'h1000_1000
) (
    input  logic        clk_i,
    input  logic        rst_ni,
    input  logic        req_i,
    input  logic        we_i,
    input  logic [3:0]  be_i,
    input  logic [31:0] addr_i,
    input  logic [31:0] wdata_i,
    output logic        sel_o,
    output logic        stall_o,
    output logic        bad_o,
    output logic [31:0] rdata_o
);
  localparam int unsigned CTRL = 50;
  logic busy;
  logic [1599:0] state;
  wire [5:0] word = addr_i[7:2];
  assign sel_o = addr_i[31:8] == BASE[31:8];
  assign stall_o = busy;
  assign bad_o = sel_o && (addr_i[1:0] != 2'b00 || word > 6'(CTRL) || be_i != 4'hf);
  wire go = req_i && sel_o && !busy && !bad_o;
  assign rdata_o = word < 6'(CTRL) ? state[32*word+:32] : 32'h0;

  keccak_f1600 f_i (
      .clk_i(clk_i),
      .rst_ni(rst_ni),
      .we_i(go && we_i && word < 6'(CTRL)),
      .widx_i(word),
      .wdata_i(wdata_i),
      .xor_i(1'b0),
      .start_i(go && we_i && word == 6'(CTRL)),
      .busy_o(busy),
      .state_o(state)
  );
endmodule
