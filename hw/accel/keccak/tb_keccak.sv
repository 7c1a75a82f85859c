// SPDX-License-Identifier: MIT
// Unit test bench of keccak_f1600.sv (tests/test_accel_keccak.py builds it with
// `verilator --binary` and compares its output with a software model).
// The unit's clock is gated as in the patched CV32E40P (keccak_insn.sv runs on the core's gated
// clock, which does not run while the core is in reset): rst_n is low from time 0, with no clock
// edge, and the clock starts after rst_n goes high; so the unit must work from its flip-flops'
// power-up values (h102: a flip-flop whose reset value mattered broke the first sponge call).
// Reads states from the file named by +in=<file>: one state per line, 400 hex digits,
// the 1600-bit vector state[1599:0] (word 49 first). For each, in the order of the sponge
// firmware (lib/native/rv32acc/keccak_acc.c): writes the 50 words through the write port (ksw:
// over the previous state's result), starts a permutation in the next cycle, counts the cycles
// busy_o is high, from the first cycle after it XORs the input state's words into the result
// (kxw, xor_i: absorb), starts a permutation right after the last kxw and waits for it; prints
// "<cycles> <state after the first permutation> <after the XOR> <after the second permutation>"
// (400 hex digits each) to the file named by +out=<file>.
module tb_keccak;
  logic clk = 1'b0, run = 1'b0, rst_n = 1'b0;
  logic we = 1'b0, start = 1'b0, xw = 1'b0, busy;
  logic [5:0] widx = '0;
  logic [31:0] wdata = '0;
  logic [1599:0] st, in_state;
  wire gclk = clk & run;  // run changes while clk is low: no glitch
  keccak_f1600 dut (
      .clk_i(gclk), .rst_ni(rst_n), .we_i(we), .widx_i(widx), .wdata_i(wdata), .xor_i(xw),
      .start_i(start), .busy_o(busy), .state_o(st)
  );
  always #5 clk = ~clk;

  initial begin
    string fin, fout;
    int fi, fo, n, cycles;
    if (!$value$plusargs("in=%s", fin) || !$value$plusargs("out=%s", fout)) $fatal(1, "need +in= and +out=");
    fi = $fopen(fin, "r");
    fo = $fopen(fout, "w");
    if (fi == 0 || fo == 0) $fatal(1, "cannot open %s or %s", fin, fout);
    repeat (3) @(negedge clk);
    rst_n = 1'b1;
    @(negedge clk);
    run = 1'b1;
    while ($fscanf(fi, "%h\n", in_state) == 1) begin
      for (int w = 0; w < 50; w++) begin
        we = 1'b1; widx = w[5:0]; wdata = in_state[32*w+:32];
        @(negedge clk);
      end
      we = 1'b0;
      start = 1'b1;
      @(negedge clk);
      start = 1'b0;
      cycles = 0;
      while (busy) begin
        cycles++;
        @(negedge clk);
      end
      $fwrite(fo, "%0d %h ", cycles, st);
      for (int w = 0; w < 50; w++) begin
        we = 1'b1; xw = 1'b1; widx = w[5:0]; wdata = in_state[32*w+:32];
        @(negedge clk);
      end
      we = 1'b0; xw = 1'b0;
      $fwrite(fo, "%h ", st);
      start = 1'b1;
      @(negedge clk);
      start = 1'b0;
      while (busy) @(negedge clk);
      $fwrite(fo, "%h\n", st);
    end
    $fclose(fo);
    $finish;
  end
endmodule
