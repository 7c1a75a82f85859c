// SPDX-License-Identifier: MIT
// The Keccak-f[1600] unit (keccak_f1600.sv) as an execution unit of the CV32E40P, driven by
// the custom-0 instructions that pqlab's build-time patch of the core adds
// (hw/cv32e40p/keccak-insn.patch; docs/accel.md, "Keccak instructions"). The patched EX stage
// instantiates this module; the core's decoder sets the ALU to compute rs1 + imm, whose bits
// [7:2] are the word index.
//
//   en_i     the operation in EX takes effect at this clock edge (the core asserts it once,
//            in the cycle the instruction leaves EX; never while busy_o);
//   op_i     funct3[1:0]: 0 kxw (word ^= wdata_i), 1 ksw (word = wdata_i), 2 klw (read),
//            3 kperm (start the permutation: busy_o is high for the next 24 cycles);
//   idx_i    word index: word 2i is the low half of lane i = x + 5y, word 2i+1 the high half
//            (the 200-byte state of FIPS 202 as little-endian words); 50..63 read as 0 and
//            ignore writes;
//   rdata_o  combinational: the word at idx_i (the core writes it to rd for klw);
//   busy_o   the permutation runs; the core holds any operation in EX until it is low.
module keccak_insn (
    input  logic        clk_i,
    input  logic        rst_ni,
    input  logic        en_i,
    input  logic [1:0]  op_i,
    input  logic [5:0]  idx_i,
    input  logic [31:0] wdata_i,
    output logic        busy_o,
    output logic [31:0] rdata_o
);
  logic [1599:0] state;
  wire in_state = idx_i < 6'd50;
  assign rdata_o = in_state ? state[32*idx_i+:32] : 32'h0;

  keccak_f1600 f_i (
      .clk_i(clk_i),
      .rst_ni(rst_ni),
      .we_i(en_i && !op_i[1] && in_state),
      .widx_i(idx_i),
      .wdata_i(wdata_i),
      .xor_i(op_i == 2'd0),
      .start_i(en_i && op_i == 2'd3),
      .busy_o(busy_o),
      .state_o(state)
  );
endmodule
