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
//     busy_o);
//   - start_i: at this clock edge begin a permutation; busy_o is then high for 24 cycles,
//     one round Rnd(A, i_r) = iota(chi(pi(rho(theta(A)))), i_r) per cycle, i_r = 0..23;
//   - state_o: the state (valid whenever busy_o is low).
// The round constants are computed at elaboration from rc(t) (FIPS 202 Algorithm 5).
module keccak_f1600 (
    input  logic          clk_i,
    input  logic          rst_ni,
    input  logic          we_i,
    input  logic [5:0]    widx_i,
    input  logic [31:0]   wdata_i,
    input  logic          start_i,
    output logic          busy_o,
    output logic [1599:0] state_o
);
  // rc(t), FIPS 202 Algorithm 5: R = 10000000 (R[0] = 1), t mod 255 steps of
  // R = 0 || R; R[0] ^= R[8]; R[4] ^= R[8]; R[5] ^= R[8]; R[6] ^= R[8]; R = Trunc8(R)
  function automatic logic rc_bit(input int t);
    logic [8:0] r;
    r = 9'b000000001;
    for (int i = 0; i < t % 255; i++) begin
      r = {r[7:0], 1'b0};
      r[0] = r[0] ^ r[8];
      r[4] = r[4] ^ r[8];
      r[5] = r[5] ^ r[8];
      r[6] = r[6] ^ r[8];
      r[8] = 1'b0;
    end
    return r[0];
  endfunction

  // RC for round i_r (Algorithm 6): bit 2^j - 1 is rc(j + 7 i_r), j = 0..6
  function automatic logic [63:0] round_constant(input int ir);
    logic [63:0] rc;
    rc = 64'h0;
    for (int j = 0; j <= 6; j++) rc[(1<<j)-1] = rc_bit(j + 7 * ir);
    return rc;
  endfunction

  // rho offsets (FIPS 202 Algorithm 2): (t+1)(t+2)/2 mod 64 along (x, y) -> (y, 2x+3y)
  function automatic int rho_offset(input int x, input int y);
    int cx, cy, nx;
    cx = 1;
    cy = 0;
    if (x == 0 && y == 0) return 0;
    for (int t = 0; t < 24; t++) begin
      if (cx == x && cy == y) return ((t + 1) * (t + 2) / 2) % 64;
      nx = cy;
      cy = (2 * cx + 3 * cy) % 5;
      cx = nx;
    end
    return 0;
  endfunction

  function automatic logic [63:0] rotl(input logic [63:0] v, input int n);
    return n == 0 ? v : ((v << n) | (v >> (64 - n)));
  endfunction

  logic [1599:0] a;
  logic [4:0] round;
  logic busy;
  logic [63:0] rc_table[24];
  assign busy_o = busy;
  assign state_o = a;

  for (genvar i = 0; i < 24; i++) begin : g_rc
    localparam logic [63:0] RC = round_constant(i);
    assign rc_table[i] = RC;
  end

  // one round, combinational
  logic [63:0] c[5], d[5], b[25], s[25];
  logic [1599:0] next;
  always_comb begin
    // theta
    for (int x = 0; x < 5; x++)
      c[x] = a[64*x+:64] ^ a[64*(x+5)+:64] ^ a[64*(x+10)+:64] ^ a[64*(x+15)+:64] ^ a[64*(x+20)+:64];
    for (int x = 0; x < 5; x++) d[x] = c[(x+4)%5] ^ rotl(c[(x+1)%5], 1);
    // rho and pi: B[y, 2x+3y] = rotl(A[x, y] ^ D[x], r[x, y])
    for (int x = 0; x < 5; x++)
      for (int y = 0; y < 5; y++)
        b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[64*(x+5*y)+:64] ^ d[x], rho_offset(x, y));
    // chi
    for (int x = 0; x < 5; x++)
      for (int y = 0; y < 5; y++)
        s[x+5*y] = b[x+5*y] ^ (~b[(x+1)%5+5*y] & b[(x+2)%5+5*y]);
    // iota
    s[0] = s[0] ^ rc_table[round];
    for (int i = 0; i < 25; i++) next[64*i+:64] = s[i];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a <= '0;
      round <= '0;
      busy <= 1'b0;
    end else if (busy) begin
      a <= next;
      round <= round + 5'd1;
      if (round == 5'd23) busy <= 1'b0;
    end else if (start_i) begin
      busy <= 1'b1;
      round <= '0;
    end else if (we_i && widx_i < 6'd50) begin
      a[32*widx_i+:32] <= wdata_i;
    end
  end
endmodule
