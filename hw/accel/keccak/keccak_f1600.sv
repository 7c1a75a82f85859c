// SPDX-License-Identifier: MIT
// Keccak-f[1600] (FIPS 202, section 3.3 and Algorithm 7), one round per clock cycle.
//
// The 1600-bit state is held here. Lane (x, y) is state[64*(x+5y) +: 64], bit z of the lane
// is bit z of that 64-bit field (the standard little-endian lane convention of FIPS 202
// section 3.1.2 and Appendix B.1), so 32-bit word w of the state is the w-th little-endian
// word of the 200-byte string S.
//
// Interface:
//   - we_i / widx_i / wdata_i: write 32-bit word widx_i (0..49) of the state (ignored while
//     busy_o or with start_i); with xor_i the word becomes word ^ wdata_i (the kxw instruction,
//     keccak_insn.sv: each word XORs its own value, no read multiplexer in the write path);
//   - start_i: at this clock edge begin a permutation; busy_o is then high for 24 cycles,
//     one round Rnd(A, i_r) = iota(chi(pi(rho(theta(A)))), i_r) per cycle, i_r = 0..23;
//   - state_o: the state (valid whenever busy_o is low).
// The round constants are computed at elaboration from rc(t) (FIPS 202 Algorithm 5).
// Structure (h70, for area: docs/accel.md "Area"): theta's column parities once, then per state
// bit one small function (keccak_bit: chi of three bits, iota folded into lane (0, 0)'s theta
// term, or the written bit) and a clock enable per word for hold.
module keccak_f1600 (
    input  logic          clk_i,
    input  logic          rst_ni,
    input  logic          we_i,
    input  logic [5:0]    widx_i,
    input  logic [31:0]   wdata_i,
    input  logic          xor_i,
    input  logic          start_i,
    output logic          busy_o,
    output logic [1599:0] state_o
);
  // rc(t), FIPS 202 Algorithm 5: R = 10000000 (R[0] = 1), t mod 255 steps of
  // R = 0 || R; R[0] ^= R[8]; R[4] ^= R[8]; R[5] ^= R[8]; R[6] ^= R[8]; R = Trunc8(R)
  // (Verilog-2005 style functions: Yosys 0.23 reads them too)
  function automatic [0:0] rc_bit(input integer t);
    reg [8:0] r;
    integer i;
    begin
      r = 9'b000000001;
      for (i = 0; i < t % 255; i = i + 1) begin
        r = {r[7:0], 1'b0};
        r[0] = r[0] ^ r[8];
        r[4] = r[4] ^ r[8];
        r[5] = r[5] ^ r[8];
        r[6] = r[6] ^ r[8];
        r[8] = 1'b0;
      end
      rc_bit = r[0];
    end
  endfunction

  // RC for round i_r (Algorithm 6): bit 2^j - 1 is rc(j + 7 i_r), j = 0..6
  function automatic [63:0] round_constant(input integer ir);
    integer j;
    begin
      round_constant = 64'h0;
      for (j = 0; j <= 6; j = j + 1) round_constant[(1<<j)-1] = rc_bit(j + 7 * ir);
    end
  endfunction

  // rho offsets (FIPS 202 Algorithm 2): (t+1)(t+2)/2 mod 64 along (x, y) -> (y, 2x+3y)
  function automatic integer rho_offset(input integer x, input integer y);
    integer cx, cy, nx, t;
    begin
      rho_offset = 0;
      cx = 1;
      cy = 0;
      for (t = 0; t < 24; t = t + 1) begin
        if (cx == x && cy == y) rho_offset = ((t + 1) * (t + 2) / 2) % 64;
        nx = cy;
        cy = (2 * cx + 3 * cy) % 5;
        cx = nx;
      end
    end
  endfunction

  logic [1599:0] a;
  logic [4:0] round;
  logic busy;
  assign busy_o = busy;
  assign state_o = a;

  // the round constant of the current round: a 24-entry table computed at elaboration
  wire [24*64-1:0] rc_table;
  for (genvar i = 0; i < 24; i++) begin : g_rc
    localparam logic [63:0] RC = round_constant(i);
    assign rc_table[64*i+:64] = RC;
  end
  wire [63:0] rc = rc_table[64*round+:64];

  // theta's column parities, computed once and shared by every bit: C[x] = xor of column x,
  // D[x] = C[x-1] ^ rot(C[x+1], 1) (lanes 64 bits wide, lane i at [64*i +: 64])
  wire [5*64-1:0] c, d;
  for (genvar x = 0; x < 5; x++) begin : g_theta
    assign c[64*x+:64] = a[64*x+:64] ^ a[64*(x+5)+:64] ^ a[64*(x+10)+:64] ^ a[64*(x+15)+:64] ^ a[64*(x+20)+:64];
    assign d[64*x+:64] = c[64*((x+4)%5)+:64] ^ {c[64*((x+1)%5)+:63], c[64*((x+1)%5)+63]};
  end
  // iota folded into theta for lane (0, 0)'s own chi term: B[0, 0] = A[0, 0] ^ D[0] (rho 0, pi
  // to itself), so A'[0, 0] = (A[0, 0] ^ (D[0] ^ RC)) ^ (~B[1, 0] & B[2, 0])
  wire [63:0] d00 = d[63:0] ^ rc;

  // The state's next value, per bit (keccak_bit): one round, rho and pi as wiring, or the written
  // word. Bit z of B[X, Y] (pi: B[y, 2x+3y] = rot(A[x, y] ^ D[x], r[x, y])) is bit z - r of
  // A[x, y] ^ D[x] with x = 3 (Y - 3X) mod 5, y = X.
  wire [1599:0] nxt;
  wire write = we_i && !start_i;
  for (genvar Y = 0; Y < 5; Y++) begin : g_y
    for (genvar X = 0; X < 5; X++) begin : g_x
      for (genvar z = 0; z < 64; z++) begin : g_z
        wire [2:0] src_a, src_d;
        for (genvar k = 0; k < 3; k++) begin : g_k
          localparam integer BX = (X + k) % 5;  // chi's operand B[X + k, Y]
          localparam integer SX = (3 * (Y - 3 * BX + 15)) % 5, SY = BX;
          localparam integer SZ = (z - rho_offset(SX, SY) + 64) % 64;
          assign src_a[k] = a[64*(SX+5*SY)+SZ];
          if (X == 0 && Y == 0 && k == 0) begin : g_iota
            assign src_d[k] = d00[SZ];
          end else begin : g_theta_d
            assign src_d[k] = d[64*SX+SZ];
          end
        end
        keccak_bit b_i (
            .a_i(src_a),
            .d_i(src_d),
            .busy_i(busy),
            .xor_i(xor_i),
            .q_i(a[64*(X+5*Y)+z]),
            .w_i(wdata_i[z%32]),
            .d_o(nxt[64*(X+5*Y)+z])
        );
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      round <= '0;
      busy <= 1'b0;
    end else if (busy) begin
      round <= round + 5'd1;
      if (round == 5'd23) busy <= 1'b0;
    end else if (start_i) begin
      busy <= 1'b1;
      round <= '0;
    end
  end
  // the state words: each loads nxt while busy or when written, else holds (a flip-flop clock
  // enable per word)
  for (genvar w = 0; w < 50; w++) begin : g_w
    wire en = busy || (write && widx_i == 6'(w));
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) a[32*w+:32] <= '0;
      else if (en) a[32*w+:32] <= nxt[32*w+:32];
    end
  end
endmodule

// One state bit's next value: while busy, chi of the three B bits b_k = a_i[k] ^ d_i[k]
// (theta, rho and pi are in the wiring; iota in d_i of lane (0, 0)), b_0 ^ (~b_1 & b_2); else the
// written bit, w_i (ksw) or q_i ^ w_i (kxw, xor_i). Six inputs for the round, five for the
// selection: a LUT6 and a LUT5 on an FPGA.
module keccak_bit (
    input  logic [2:0] a_i,
    input  logic [2:0] d_i,
    input  logic       busy_i,
    input  logic       xor_i,
    input  logic       q_i,
    input  logic       w_i,
    output logic       d_o
);
  wire [2:0] b = a_i ^ d_i;
  wire r = b[0] ^ (~b[1] & b[2]);
  assign d_o = busy_i ? r : (xor_i & q_i) ^ w_i;
endmodule
