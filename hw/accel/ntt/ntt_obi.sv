// SPDX-License-Identifier: MIT
// The NTT unit (ntt_unit.sv) in accelerator slot 0 of pqlab's test bench (hw/cv32e40p/tb_top.sv,
// parameter NTT=1; docs/accel.md).
//
// Accelerator slot convention of tb_top (every unit on the data port follows it):
//   sel_o    combinational: addr_i is inside this unit's window;
//   stall_o  combinational: the request must wait (tb_top holds the core's gnt low);
//   bad_o    combinational: an access the unit does not support (tb_top reports a bus fault);
//   rdata_o  the word read: combinational at the grant (tb_top latches it, so the response comes
//            in the next cycle, like memory), or, for a slot marked in tb_top's ACC_RLATE as
//            this one, registered: the word of the read granted in the previous cycle, which
//            tb_top hands to the core in that read's rvalid cycle (the unit's memories are
//            synchronous block RAMs; the timing is the same);
//   a write takes effect at the clock edge of the granted request (req_i && sel_o && !stall_o).
//
// The slots' one timing rule: any access to the window while the unit is busy waits (stall_o,
// gnt low) until the operation has finished, so a load of WAIT (offset 0x00c) right after the
// CTRL store returns when the result is ready, and so does any other access.
// Since h71 also: an access other than a write of A, B or SCALE waits while such a write is in
// the unit's write pipeline (wpend: 4 cycles after the last one), so it sees the stored word.
// The unit therefore never sees a request while busy, and its busy refusals (ntt_unit.sv) are
// unreachable here; a request it refuses when idle (err_o: an unknown offset, a bad operation
// or mode) or a partial-word access is bad_o. Window: 16 KiB at BASE.
module ntt_obi #(
    parameter logic [31:0] BASE = 32'h1001_0000
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
  logic busy, wpend, err;
  assign sel_o = addr_i[31:14] == BASE[31:14];
  // a write of A, B (0x1000-0x3fff) or SCALE (0x010) goes through the unit's write pipeline
  // (stored 4 cycles later); any other access waits until the words written before it are stored
  wire posted = we_i && (addr_i[13:12] != 2'd0 || addr_i[13:0] == 14'h010);
  assign stall_o = sel_o && (busy || (wpend && !posted));
  // the unit acts on a request of this slot that is granted and a whole word
  wire req = req_i && sel_o && !stall_o && be_i == 4'hf;
  assign bad_o = sel_o && !stall_o && (be_i != 4'hf || err);

  ntt_unit ntt_i (
      .clk_i(clk_i),
      .rst_ni(rst_ni),
      .req_i(req),
      .we_i(we_i),
      .addr_i(addr_i[13:0]),
      .wdata_i(wdata_i),
      .rdata_o(rdata_o),
      .busy_o(busy),
      .wpend_o(wpend),
      .err_o(err)
  );
endmodule
