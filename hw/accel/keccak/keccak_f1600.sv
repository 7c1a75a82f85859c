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
// Structure (h97, fixed in h102; for area measured flattened, docs/accel.md "Flattened area
// reached: h97's restructuring fixed (h102)"): theta's column parities C once (a LUT5 each);
// then per state bit two small functions, each one LUT: keccak_b, the bit of
// B = pi(rho(theta(A))) at that position (its source bit of A and two bits of C), shared by the
// three chi terms that use it, or while not busy kxw's term xor_i & (the state bit at that
// position); and keccak_bit, chi of three B bits (and iota's round-constant bit in lane (0, 0))
// while busy, else B ^ the written bit. Hold is a clock enable per word; the state's reset is
// asynchronous (the flip-flops' clear input: no LUT per bit).
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
  logic busy, wsel;
  assign busy_o = busy;
  assign state_o = a;

  // the round constant's 7 bits that can be 1 (bit 2^j - 1, j = 0..6) in the current round: a
  // table computed at elaboration (rounds 24..31 do not occur while busy: zeros)
  wire [32*7-1:0] rc_table;
  for (genvar i = 0; i < 32; i++) begin : g_rc
    localparam logic [63:0] RC = i < 24 ? round_constant(i) : 64'h0;
    assign rc_table[7*i+:7] = {RC[63], RC[31], RC[15], RC[7], RC[3], RC[1], RC[0]};
  end
  wire [6:0] rcj = rc_table[7*round+:7];

  // theta's column parities, computed once and shared: C[x] = xor of column x (lanes 64 bits
  // wide, lane i at [64*i +: 64]); D[x] = C[x-1] ^ rot(C[x+1], 1) is folded into keccak_b
  wire [5*64-1:0] c;
  for (genvar x = 0; x < 5; x++) begin : g_theta
    assign c[64*x+:64] = a[64*x+:64] ^ a[64*(x+5)+:64] ^ a[64*(x+10)+:64] ^ a[64*(x+15)+:64] ^ a[64*(x+20)+:64];
  end

  // B[X, Y] (pi: B[y, 2x+3y] = rot(A[x, y] ^ D[x], r[x, y])): bit z of B[X, Y] is bit z - r of
  // A[x, y] ^ D[x] with x = 3 (Y - 3X) mod 5, y = X; D[x] at bit s is C[x-1][s] ^ C[x+1][s-1].
  // While not busy the bit is xor_i & A[X, Y][z] instead, the term kxw adds to the written word.
  wire [1599:0] b;
  for (genvar Y = 0; Y < 5; Y++) begin : g_by
    for (genvar X = 0; X < 5; X++) begin : g_bx
      localparam integer SX = (3 * (Y - 3 * X + 15)) % 5, SY = X;
      for (genvar z = 0; z < 64; z++) begin : g_bz
        localparam integer SZ = (z - rho_offset(SX, SY) + 64) % 64;
        keccak_b b_i (
            .a_i(a[64*(SX+5*SY)+SZ]),
            .c_i({c[64*((SX+1)%5)+(SZ+63)%64], c[64*((SX+4)%5)+SZ]}),
            .wsel_i(wsel),
            .xor_i(xor_i),
            .q_i(a[64*(X+5*Y)+z]),
            .b_o(b[64*(X+5*Y)+z])
        );
      end
    end
  end

  // The state's next value, per bit (keccak_bit): one round (chi of B[X], B[X+1], B[X+2] in
  // row Y, and iota in lane (0, 0)) or the written word.
  wire [1599:0] nxt;
  for (genvar Y = 0; Y < 5; Y++) begin : g_y
    for (genvar X = 0; X < 5; X++) begin : g_x
      for (genvar z = 0; z < 64; z++) begin : g_z
        wire rc;
        if (X == 0 && Y == 0 && (z == 0 || z == 1 || z == 3 || z == 7 || z == 15 || z == 31 || z == 63))
        begin : g_iota
          assign rc = rcj[$clog2(z+1)];
        end else begin : g_no_rc
          assign rc = 1'b0;
        end
        keccak_bit bit_i (
            .b_i({b[64*((X+2)%5+5*Y)+z], b[64*((X+1)%5+5*Y)+z], b[64*(X+5*Y)+z]}),
            .rc_i(rc),
            .busy_i(busy),
            .w_i(wdata_i[z%32]),
            .d_o(nxt[64*(X+5*Y)+z])
        );
      end
    end
  end

  // busy and wsel = !busy, two flip-flops: keccak_b's selection (xor_i while not busy) has its
  // own, so that synthesis cannot see that in keccak_bit's busy branch every B bit is the
  // round's (with one signal it folds that in and computes chi from unshared B bits: 8,986 LUTs
  // instead of one LUT per B bit, measured h97). wsel loads !busy's next value at every clock
  // edge, not only when busy changes (h102): in the core the unit's clock is gated off during
  // reset, and in the Verilated core the asynchronous reset has no edge (rst_ni is low from
  // time 0), so a flip-flop's reset value is not applied there; h97's wsel, set only at the end
  // of a permutation, stayed 0 from power-up until the first permutation ended and every write
  // before it XORed a B bit of the round into the word (the first sponge call's hash wrong).
  // Now wsel is right from the first clock edge whatever its initial value, and every other
  // flip-flop's reset value is 0.
  wire busy_d = busy ? round != 5'd23 : start_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      round <= '0;
      busy <= 1'b0;
      wsel <= 1'b1;
    end else begin
      busy <= busy_d;
      wsel <= !busy_d;
      if (busy) round <= round + 5'd1;
      else if (start_i) round <= '0;
    end
  end
  // the state words: each loads nxt while busy or when written, else holds (a flip-flop clock
  // enable per word); reset asynchronously to 0 (h102: h97's synchronous reset from a flip-flop
  // on the gated clock, which does not run in reset, would not clear the state in the core;
  // Yosys 0.23 puts one INV per flip-flop on the active-low reset, which Vivado folds into the
  // flip-flop's inverted clear: not LUTs)
  wire write = we_i && !start_i;
  for (genvar w = 0; w < 50; w++) begin : g_w
    wire en = busy || (write && widx_i == 6'(w));
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) a[32*w+:32] <= '0;
      else if (en) a[32*w+:32] <= nxt[32*w+:32];
    end
  end
endmodule

// One bit of B = pi(rho(theta(A))) while busy: a_i ^ c_i[0] ^ c_i[1] (the source bit of A and
// D's two column-parity bits); while not busy (wsel_i) xor_i & q_i, q_i the state bit at B's
// own position: the term kxw adds to the written word (ksw: 0). Six inputs: one LUT6.
module keccak_b (
    input  logic       a_i,
    input  logic [1:0] c_i,
    input  logic       wsel_i,
    input  logic       xor_i,
    input  logic       q_i,
    output logic       b_o
);
  assign b_o = wsel_i ? xor_i & q_i : a_i ^ c_i[0] ^ c_i[1];
endmodule

// One state bit's next value: while busy, chi of its three B bits and iota,
// b_0 ^ (~b_1 & b_2) ^ rc_i; else the written bit, b_0 ^ w_i (b_0 is xor_i & q then: kxw's
// q ^ w or ksw's w). Five inputs, six in lane (0, 0)'s bits with a round-constant bit: one LUT.
module keccak_bit (
    input  logic [2:0] b_i,
    input  logic       rc_i,
    input  logic       busy_i,
    input  logic       w_i,
    output logic       d_o
);
  assign d_o = busy_i ? b_i[0] ^ (~b_i[1] & b_i[2]) ^ rc_i : b_i[0] ^ w_i;
endmodule
