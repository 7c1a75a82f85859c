// SPDX-License-Identifier: MIT
// pqlab's NTT unit: forward NTT, inverse NTT and pointwise products modulo
// q = 3329 (ML-KEM, FIPS 203: 7-layer incomplete NTT, base multiplication of degree-1 pairs),
// q = 8380417 (ML-DSA, FIPS 204: 8-layer NTT, zeta = 1753) and q = 12289 (FN-DSA / Falcon:
// negacyclic NTT of n = 2^logn, logn 1..10, bit-reversed order as lib/fndsa/modq.c), on two
// coefficient memories of its own (A and B, 1024 residues of 24 bits each).
// Written from the specifications; the software model is pqlab/accel_ntt.py (and pqlab-sim's
// sim/src/rv32/ntt_acc.rs); the register map, timing and bus protocol are in docs/accel.md,
// section "NTT unit".
//
// Bus side (a slave on the test bench's data port, word accesses, 16 KiB window):
//   0x0000 MODE    rw  [1:0] modulus (0 ML-KEM, 1 ML-DSA, 2 FN-DSA), [11:8] logn (FN-DSA)
//   0x0004 CTRL    w   start an operation: [2:0] 1 NTT, 2 inverse NTT, 3 pointwise A = A o B S,
//                      4 base multiplication (ML-KEM) A = A o B S; [3] NTT / inverse NTT on B
//                  r   the last operation written
//   0x0008 STATUS  r   [0] busy
//   0x000c WAIT    r   0; the test bench holds the request (no grant) while the unit is busy
//   0x0010 SCALE   rw  S: multiplies the inverse NTT's last layer and the pointwise products
//   0x0014 CYCLES  r   busy cycles of the last operation
//   0x1000-0x1fff  A: write any int32 (stored reduced mod q), read canonical [0, q)
//   0x2000-0x2fff  A: the same words, read centred (-(q-1)/2 .. (q-1)/2, sign-extended)
//   0x3000-0x3fff  B: as A's first window
// err_o (combinational) flags a request the unit refuses (the test bench reports a bus fault):
// an unknown offset, CTRL or a memory window while busy, an unknown operation or mode, a base
// multiplication outside ML-KEM, logn outside 1..10. A register write (MODE, CTRL) takes effect
// at the request's clock edge; a write of A, B or SCALE goes through the write pipeline (m1
// reduces it) and is stored 4 cycles later, wpend_o high meanwhile (since h71; ntt_obi.sv holds
// any other access until then). Reads are registered (the memories are synchronous block RAMs):
// rdata_o is the word read by the request of the previous cycle (the OBI rvalid cycle).
//
// Hardware structure (FPGA-shaped; Yosys 0.23 `read_verilog -sv` and Verilator read it):
// - memories: A and B are each two banks of 512 x 24 bits, index i in bank parity(i) (the XOR
//   of its ten bits) at address i >> 1. A butterfly's two indices differ in one bit, and so do
//   a base multiplication's pair (2k, 2k + 1), so every step reads each bank at most once and
//   writes it at most once: each bank is a simple dual-port RAM (one synchronous read port,
//   one write port), one RAMB18. The twiddle ROM (ntt_zetas.sv) is read synchronously too.
// - modular products: ntt_mulmod, a 24 x 24 product and Barrett's reduction (Barrett, CRYPTO
//   '86; Menezes, van Oorschot, Vanstone, Handbook of Applied Cryptography, Algorithm 14.42,
//   base b = 2) for ML-KEM and FN-DSA, ML-DSA's special form 2^23 = 2^13 - 1 mod q: one
//   reducer for the three moduli, selected by the mode (ntt_barrett3; the quotient products
//   are shifts and adds, the 24 x 24 product is the only DSP); 4 cycles, registered at the
//   multiplier inputs, product and quotient estimate. No `%`. m1 also reduces the bus writes.
// - the datapath is a pipeline, one step (butterfly, product, one word of an ML-KEM pair)
//   issued per cycle: issue (read addresses) -> operands (cycle 1) -> multiplier level 1
//   (t = z x1, d z^-1, a b, two products of an ML-KEM pair) -> level 2 (ML-KEM's a1 b1 gamma)
//   -> level 3 (times SCALE) -> write in cycle DW = 13 after the issue. Within a layer the butterflies are
//   independent; the next layer's step p needs the current layer's steps up to p + n/4, so
//   layers follow each other without a gap when n/4 >= DW + 1 (every n >= 64; smaller FN-DSA
//   sizes wait DW + 1 - n/4 cycles between layers).
// Busy cycles of an operation: issue cycles (steps, plus the gaps) + DW:
//   NTT / inverse: layers * n/2 + (layers - 1) * gap + 13; pointwise n + 13; base mult.
//   2 x 128 + 13 = 269 (two steps per pair).
module ntt_unit (
    input logic clk_i,
    input logic rst_ni,
    input logic req_i,
    input logic we_i,
    input logic [13:0] addr_i,  // byte offset in the unit's window
    input logic [31:0] wdata_i,
    output logic [31:0] rdata_o,  // registered: the read of the previous cycle's request
    output logic busy_o,
    output logic wpend_o,  // a bus write is on its way to A, B or SCALE (not yet stored)
    output logic err_o  // combinational: this request is refused
);
  localparam logic [23:0] Q0 = 24'd3329, Q1 = 24'd8380417, Q2 = 24'd12289;
  localparam logic [4:0] DW = 5'd13;  // issue to write: 1 (read) + 3 x 4 (products)

  logic [1:0] mode_sel;
  logic [3:0] mode_logn;
  logic [23:0] scale;
  logic [3:0] op;
  logic busy, issuing;
  logic [31:0] cycles;  // busy cycles of the last operation
  logic [3:0] lg_len;  // log2 of the butterfly half-size of the current layer
  logic [9:0] step;  // step within the layer (or the operation)
  logic [4:0] gap_cnt, drain;

  // ---- the current mode ----
  wire [23:0] q = mode_sel == 2'd0 ? Q0 : mode_sel == 2'd1 ? Q1 : Q2;
  wire [3:0] logn = mode_sel == 2'd2 ? mode_logn : 4'd8;
  wire [10:0] rom_base = mode_sel == 2'd0 ? 11'd0 : mode_sel == 2'd1 ? 11'd128 : 11'd384;
  wire [3:0] min_lg = mode_sel == 2'd0 ? 4'd1 : 4'd0;  // ML-KEM stops at len = 2
  wire [10:0] n = 11'd1 << logn;
  wire [10:0] n_q = n >> 2;
  wire [4:0] gap = n_q >= 11'd14 ? 5'd0 : 5'd14 - n_q[4:0];

  // ---- bus decode ----
  wire in_regs = addr_i[13:12] == 2'd0;
  wire [9:0] widx = addr_i[11:2];
  wire valid_reg = in_regs && addr_i[11:5] == 7'd0 && addr_i[4:2] <= 3'd5;
  wire [2:0] new_kind = wdata_i[2:0];
  wire op_ok = (new_kind >= 3'd1 && new_kind <= 3'd4) && !(new_kind == 3'd4 && mode_sel != 2'd0)
      && !(wdata_i[3] && new_kind > 3'd2) && wdata_i[31:4] == 28'd0;
  wire mode_ok = mode_sel != 2'd3 && (mode_sel != 2'd2 || (mode_logn >= 4'd1 && mode_logn <= 4'd10));
  wire is_ctrl = in_regs && addr_i[11:2] == 10'd1;
  always_comb begin
    err_o = 1'b0;
    if (req_i) begin
      if (in_regs) begin
        if (!valid_reg) err_o = 1'b1;
        else if (is_ctrl && we_i && (busy || !op_ok || !mode_ok)) err_o = 1'b1;
        else if (we_i && addr_i[4:2] == 3'd0 && busy) err_o = 1'b1;  // MODE while busy
        else if (we_i && addr_i[4:2] == 3'd4 && busy) err_o = 1'b1;  // SCALE while busy
      end else if (busy) begin
        err_o = 1'b1;
      end
    end
  end
  assign busy_o = busy;
  wire bus_wr = req_i && we_i && !err_o;
  // Bus writes of A, B and SCALE are reduced by m1 (idle while the unit is): u = x + 2^31 =
  // uh 2^20 + ul, p = uh (2^20 mod q) + ul + (-2^31 mod q) = x mod q, p < 2^24 (ML-KEM), 2^28
  // (FN-DSA), 2^33 (ML-DSA), within each reducer's exact range. The word is stored when m1's
  // result comes, 4 cycles after the request (wp: valid, target 1 A / 2 B / 3 SCALE, index);
  // until then wpend_o is high and the slot holds every access but such a write.
  wire bus_post = bus_wr && (!in_regs || addr_i[4:2] == 3'd4);
  wire [31:0] bus_u = {~wdata_i[31], wdata_i[30:0]};
  wire [23:0] bus_b = mode_sel == 2'd0 ? 24'd3270 : mode_sel == 2'd1 ? 24'd1048576 : 24'd4011;
  wire [23:0] bus_d = mode_sel == 2'd0 ? 24'd988 : mode_sel == 2'd1 ? 24'd6283521 : 24'd6813;
  wire [23:0] bus_c = {4'd0, bus_u[19:0]} + bus_d;
  wire [1:0] bus_tgt = in_regs ? 2'd3 : addr_i[13:12] == 2'd3 ? 2'd2 : 2'd1;
  wire [12:0] wp4;  // the write's {valid, target, index} in its fourth cycle
  ntt_delay #(.W(13), .N(4)) wp_i (.clk_i(clk_i), .d_i({bus_post, bus_tgt, widx}), .q_o(wp4));
  logic [2:0] wp_v;  // valid in cycles 1 to 3
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wp_v <= 3'd0;
    else wp_v <= {wp_v[1:0], bus_post};
  end
  assign wpend_o = |wp_v || wp4[12];

  // ---- issue: the step's indices and twiddle ----
  wire [2:0] kind = op[2:0];
  wire k_ntt = kind == 3'd1, k_intt = kind == 3'd2, k_pwm = kind == 3'd3, k_bm = kind == 3'd4;
  wire on_b = op[3];
  wire [9:0] len = 10'd1 << lg_len;
  wire [9:0] lmask = len - 10'd1;
  wire [9:0] bf_i0 = ((step & ~lmask) << 1) | (step & lmask);
  wire [9:0] blk = step >> lg_len;
  wire [3:0] zsh = logn - lg_len - 4'd1;
  wire [10:0] zidx_bf = rom_base + (11'd1 << zsh) + {1'b0, blk};
  // base multiplication: two steps per pair k = step >> 1, both reading a0, a1, b0, b1;
  // step[0] = 0 computes and writes the odd word 2k + 1, step[0] = 1 the even word 2k
  wire [9:0] iss_i0 = k_pwm ? step : (k_bm ? {step[9:1], 1'b0} : bf_i0);
  wire [9:0] iss_i1 = k_pwm ? step ^ 10'd1 : (k_bm ? {step[9:1], 1'b1} : bf_i0 | len);
  wire [9:0] iss_w0 = k_bm ? {step[9:1], ~step[0]} : iss_i0;  // the (first) word written
  wire [10:0] zidx = k_bm ? 11'd64 + {5'd0, step[7:2]} : zidx_bf;
  wire last_layer = lg_len == logn - 4'd1;
  wire iss_v = busy && issuing && gap_cnt == 5'd0;

  // steps per layer (NTT) or per operation
  wire [9:0] n_m1 = n[9:0] - 10'd1;
  wire [9:0] half_m1 = n[10:1] - 10'd1;
  wire [9:0] last_step = k_pwm ? n_m1 : k_bm ? 10'd255 : half_m1;
  wire layer_done = step == last_step;
  wire op_done = (k_pwm || k_bm) ? layer_done : layer_done && (k_intt ? last_layer : lg_len == min_lg);

  wire [23:0] m1_r, kx_r, m2_r, m3_r;  // the four multipliers' results (below)

  // ---- memories: banks by index parity; read addresses from the issue (busy) or the bus ----
  wire [9:0] rd_i0 = busy ? iss_i0 : widx;
  wire [9:0] rd_i1 = busy ? iss_i1 : widx ^ 10'd1;
  wire rd_par = ^rd_i0;
  logic rd_par_q;
  wire [8:0] ra0 = rd_par ? rd_i1[9:1] : rd_i0[9:1];  // bank 0: even parity
  wire [8:0] ra1 = rd_par ? rd_i0[9:1] : rd_i1[9:1];
  // write side: the pipeline's write (busy) or the bus
  logic wv;  // pipeline write valid (cycle DW)
  logic [9:0] w_i0, w_i1;
  logic [23:0] wd0, wd1;
  wire bus_wa = wp4[12] && wp4[11:10] == 2'd1;
  wire bus_wb = wp4[12] && wp4[11:10] == 2'd2;
  wire [9:0] wr_i0 = busy ? w_i0 : wp4[9:0];
  wire [9:0] wr_i1 = w_i1;
  wire [23:0] wr_d0 = busy ? wd0 : m1_r;
  wire we0 = busy ? wv : 1'b1;  // gated per memory below
  wire we1 = busy && wv && !k_pwm && !k_bm;
  wire wr_a = busy ? (wv && !(on_b && (k_ntt || k_intt))) : bus_wa;
  wire wr_b = busy ? (wv && on_b && (k_ntt || k_intt)) : bus_wb;
  wire wr_par = ^wr_i0;
  wire [8:0] wa0 = wr_par ? wr_i1[9:1] : wr_i0[9:1];
  wire [8:0] wa1 = wr_par ? wr_i0[9:1] : wr_i1[9:1];
  wire [23:0] wdat0 = wr_par ? wd1 : wr_d0;
  wire [23:0] wdat1 = wr_par ? wr_d0 : wd1;
  wire wen0 = wr_par ? we1 : we0;
  wire wen1 = wr_par ? we0 : we1;
  wire [23:0] a_q0, a_q1, b_q0, b_q1;
  ntt_bank a0_i (.clk_i(clk_i), .raddr_i(ra0), .rdata_o(a_q0), .we_i(wr_a && wen0), .waddr_i(wa0), .wdata_i(wdat0));
  ntt_bank a1_i (.clk_i(clk_i), .raddr_i(ra1), .rdata_o(a_q1), .we_i(wr_a && wen1), .waddr_i(wa1), .wdata_i(wdat1));
  ntt_bank b0_i (.clk_i(clk_i), .raddr_i(ra0), .rdata_o(b_q0), .we_i(wr_b && wen0), .waddr_i(wa0), .wdata_i(wdat0));
  ntt_bank b1_i (.clk_i(clk_i), .raddr_i(ra1), .rdata_o(b_q1), .we_i(wr_b && wen1), .waddr_i(wa1), .wdata_i(wdat1));
  // the words at index 0 / 1 of the step (or at the bus index), one cycle after the read
  wire [23:0] a_x0 = rd_par_q ? a_q1 : a_q0;
  wire [23:0] a_x1 = rd_par_q ? a_q0 : a_q1;
  wire [23:0] b_x0 = rd_par_q ? b_q1 : b_q0;
  wire [23:0] b_x1 = rd_par_q ? b_q0 : b_q1;

  // twiddle ROM, read synchronously: {z, z^-1} of the issued step
  wire [23:0] rom_z, rom_iz;
  ntt_zetas rom_i (
      .idx_i(zidx),
      .z_o  (rom_z),
      .iz_o (rom_iz)
  );
  logic [23:0] z_q, iz_q;

  // ---- cycle 1: operands of the first multiplier level ----
  // Multipliers: m1 (level 1), m2 (level 3; level 2 in a base multiplication), m3 (level 3),
  // all 24 x 24, and kx (level 1, ML-KEM's 12 x 12). A base multiplication issues a pair's
  // two steps in consecutive cycles; each step gives each multiplier at most one input, at a
  // fixed level (cycle issue + 4j - 3 for level j), so no multiplier gets two in one cycle:
  //   odd word (step[0] = 0): m1 a0 b1, kx a1 b0 (level 1), m3 (sum) S (level 3);
  //   even word (step[0] = 1): m1 a0 b0, kx a1 b1 (level 1), m2 (a1 b1) gamma (level 2),
  //   m3 (a0 b0 + a1 b1 gamma) S (level 3).
  logic v1, last1, odd1, ph1;
  logic [9:0] i0_1, i1_1;
  wire [23:0] x0 = on_b ? b_x0 : a_x0;
  wire [23:0] x1 = on_b ? b_x1 : a_x1;
  wire [23:0] s1 = addmod(x0, x1, q);
  wire [23:0] d1 = submod(x0, x1, q);
  wire [23:0] gamma1 = odd1 ? Q0 - z_q : z_q;
  wire bm_odd1 = k_bm && !ph1;  // the odd word's step: m1 takes a0 b1 on 12-bit operands
  wire [23:0] m1_a = !busy ? {12'd0, bus_u[31:20]} : k_ntt ? z_q : k_intt ? iz_q : bm_odd1 ? {12'd0, a_x0[11:0]} : a_x0;
  wire [23:0] m1_b = !busy ? bus_b : k_ntt ? x1 : k_intt ? d1 : bm_odd1 ? {12'd0, b_x1[11:0]} : b_x0;
  wire [23:0] carry1 = k_ntt ? x0 : s1;
  ntt_mulmod #(.ALL(1)) m1_i (
      .clk_i(clk_i),
      .sel_i(mode_sel),
      .a_i(m1_a),
      .b_i(m1_b),
      .c_i(busy ? 24'd0 : bus_c),
      .r_o(m1_r)
  );
  ntt_mulmod #(.ALL(0)) kx_i (
      .clk_i(clk_i),
      .sel_i(2'd0),
      .a_i(a_x1),
      .b_i(ph1 ? b_x1 : b_x0),
      .c_i(24'd0),
      .r_o(kx_r)
  );
  wire [23:0] carry5, gamma5;
  ntt_delay #(.W(48), .N(4)) d15_i (.clk_i(clk_i), .d_i({carry1, gamma1}), .q_o({carry5, gamma5}));
  wire [22:0] ctl9;
  ntt_delay #(.W(23), .N(8)) c19_i (.clk_i(clk_i), .d_i({ph1, v1, last1, i0_1, i1_1}), .q_o(ctl9));

  // ---- cycle 5: second level (a base multiplication's a1 b1 gamma on m2) ----
  wire [23:0] u5 = addmod(m1_r, kx_r, Q0);  // the odd word: a0 b1 + a1 b0
  wire [23:0] m1_9, carry9, u9;
  ntt_delay #(.W(72), .N(4)) d59_i (.clk_i(clk_i), .d_i({m1_r, carry5, u5}), .q_o({m1_9, carry9, u9}));

  // ---- cycle 9: third level (times SCALE) ----
  wire last9 = ctl9[20];
  wire ph9 = ctl9[22];
  wire [23:0] v0_9 = k_ntt ? addmod(carry9, m1_9, q) : k_intt ? carry9 : m1_9;
  wire [23:0] v1_9 = k_ntt ? submod(carry9, m1_9, q) : k_intt ? m1_9 : ph9 ? addmod(m1_9, m2_r, Q0) : u9;
  wire sc9 = k_pwm || k_bm || (k_intt && last9);
  ntt_mulmod #(.ALL(1)) m2_i (
      .clk_i(clk_i),
      .sel_i(mode_sel),
      .a_i(k_bm ? kx_r : v0_9),
      .b_i(k_bm ? gamma5 : scale),
      .c_i(24'd0),
      .r_o(m2_r)
  );
  ntt_mulmod #(.ALL(1)) m3_i (
      .clk_i(clk_i),
      .sel_i(mode_sel),
      .a_i(v1_9),
      .b_i(scale),
      .c_i(24'd0),
      .r_o(m3_r)
  );
  wire [23:0] v0_13, v1_13;
  wire [21:0] ctl13;
  ntt_delay #(.W(70), .N(4)) d913_i (
      .clk_i(clk_i),
      .d_i({v0_9, v1_9, ctl9[21], sc9, ctl9[19:0]}),
      .q_o({v0_13, v1_13, ctl13})
  );

  // ---- cycle 13: write back ----
  assign wv = ctl13[21];
  assign w_i0 = ctl13[19:10];
  assign w_i1 = ctl13[9:0];
  assign wd0 = k_bm ? m3_r : ctl13[20] ? m2_r : v0_13;
  assign wd1 = ctl13[20] ? m3_r : v1_13;

  // ---- bus read data (registered) ----
  logic [1:0] rwin_q;
  logic [31:0] rreg_q;
  logic [31:0] rreg;
  always_comb begin
    case (addr_i[4:2])
      3'd0: rreg = {20'd0, mode_logn, 6'd0, mode_sel};
      3'd1: rreg = {28'd0, op};
      3'd2: rreg = {31'd0, busy};
      3'd4: rreg = {8'd0, scale};
      3'd5: rreg = cycles;
      default: rreg = 32'd0;
    endcase
  end
  wire [31:0] a_centred = a_x0 > {1'b0, q[23:1]} ? {8'd0, a_x0} - {8'd0, q} : {8'd0, a_x0};
  always_comb begin
    case (rwin_q)
      2'd0: rdata_o = rreg_q;
      2'd1: rdata_o = {8'd0, a_x0};
      2'd2: rdata_o = a_centred;
      default: rdata_o = {8'd0, b_x0};
    endcase
  end

  // ---- modular addition and subtraction (one correction: canonical for canonical inputs) ----
  function [23:0] addmod(input [23:0] a, input [23:0] b, input [23:0] m);
    reg [24:0] s;
    begin
      s = {1'b0, a} + {1'b0, b};
      addmod = s >= {1'b0, m} ? s[23:0] - m : s[23:0];
    end
  endfunction
  function [23:0] submod(input [23:0] a, input [23:0] b, input [23:0] m);
    begin
      submod = a >= b ? a - b : a + m - b;
    end
  endfunction

  always_ff @(posedge clk_i) begin
    rd_par_q <= rd_par;
    z_q <= rom_z;
    iz_q <= rom_iz;
    v1 <= iss_v;
    last1 <= last_layer;
    odd1 <= k_bm ? step[1] : step[0];
    ph1 <= step[0];
    i0_1 <= iss_w0;
    i1_1 <= iss_i1;
    rwin_q <= addr_i[13:12];
    rreg_q <= rreg;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_sel <= 2'd0;
      mode_logn <= 4'd0;
      scale <= 24'd1;
      op <= 4'd0;
      busy <= 1'b0;
      issuing <= 1'b0;
      cycles <= 32'd0;
      lg_len <= 4'd0;
      step <= 10'd0;
      gap_cnt <= 5'd0;
      drain <= 5'd0;
    end else begin
      if (bus_wr && in_regs) begin
        case (addr_i[4:2])
          3'd0: begin
            mode_sel  <= wdata_i[1:0];
            mode_logn <= wdata_i[11:8];
          end
          3'd1: begin
            op <= wdata_i[3:0];
            busy <= 1'b1;
            issuing <= 1'b1;
            cycles <= 32'd0;
            step <= 10'd0;
            gap_cnt <= 5'd0;
            lg_len <= wdata_i[2:0] == 3'd2 ? min_lg : logn - 4'd1;
          end
          default: ;
        endcase
      end
      if (wp4[12] && wp4[11:10] == 2'd3) scale <= m1_r;
      if (busy) begin
        cycles <= cycles + 32'd1;
        if (issuing) begin
          if (gap_cnt != 5'd0) begin
            gap_cnt <= gap_cnt - 5'd1;
          end else if (op_done) begin
            issuing <= 1'b0;
            drain <= DW;
          end else if (layer_done) begin
            step <= 10'd0;
            lg_len <= k_intt ? lg_len + 4'd1 : lg_len - 4'd1;
            gap_cnt <= gap;
          end else begin
            step <= step + 10'd1;
          end
        end else begin
          drain <= drain - 5'd1;
          if (drain == 5'd1) busy <= 1'b0;
        end
      end
    end
  end
endmodule

// One coefficient bank: 512 x 24 bits, a synchronous read port and a write port (a simple
// dual-port block RAM; a read of the address being written returns the old word).
module ntt_bank (
    input logic clk_i,
    input logic [8:0] raddr_i,
    output logic [23:0] rdata_o,
    input logic we_i,
    input logic [8:0] waddr_i,
    input logic [23:0] wdata_i
);
  logic [23:0] mem[512];
  always_ff @(posedge clk_i) begin
    if (we_i) mem[waddr_i] <= wdata_i;
    rdata_o <= mem[raddr_i];
  end
endmodule

// A W-bit shift register of N stages (SRL-shaped).
module ntt_delay #(
    parameter integer W = 1,
    parameter integer N = 1
) (
    input logic clk_i,
    input logic [W-1:0] d_i,
    output logic [W-1:0] q_o
);
  logic [W*N-1:0] sr;
  generate
    if (N == 1) begin : g_one
      always_ff @(posedge clk_i) sr <= d_i;
    end else begin : g_more
      always_ff @(posedge clk_i) sr <= {sr[W*(N-1)-1:0], d_i};
    end
  endgenerate
  assign q_o = sr[W*N-1:W*(N-1)];
endmodule

// a * b mod q with Barrett's reduction: ALL = 1 the three moduli in one reducer
// (ntt_barrett3), selected by sel_i (0: 3329, 1: 8380417, 2: 12289); ALL = 0 only 3329 with
// 12-bit operands (ML-KEM's 12 x 12 product; the words' bits above 11 are ignored, zero for
// canonical words). Operands in cycle c, the result in cycle c + 4: registered operands, the
// registered 24 x 24 product (the DSP), then the reducer's two stages. Exact (a b mod q) for a, b < q;
// other inputs give the deterministic value of the same steps (pqlab/accel_ntt.py mulmod_hw).
module ntt_mulmod #(
    parameter integer ALL = 1
) (
    input logic clk_i,
    input logic [1:0] sel_i,
    input logic [23:0] a_i,
    input logic [23:0] b_i,
    input logic [23:0] c_i,  // added to the product (m1: a bus write's low part)
    output logic [23:0] r_o
);
  logic [23:0] a_q, b_q, c_q;
  logic [47:0] p_q;
  logic [1:0] sel_1, sel_2;
  always_ff @(posedge clk_i) begin
    a_q <= ALL != 0 ? a_i : {12'd0, a_i[11:0]};
    b_q <= ALL != 0 ? b_i : {12'd0, b_i[11:0]};
    c_q <= c_i;
    p_q <= a_q * b_q + {24'd0, c_q};
    sel_1 <= sel_i;
    sel_2 <= sel_1;
  end
  generate
    if (ALL != 0) begin : g_all
      ntt_barrett3 br_i (.clk_i(clk_i), .sel_i(sel_2), .p_i(p_q), .r_o(r_o));
    end else begin : g_kem
      ntt_barrett #(.K(12), .Q(24'd3329)) br_i (.clk_i(clk_i), .p_i(p_q), .r_o(r_o));
    end
  endgenerate
endmodule

// Barrett reduction of a product p < q^2 < 2^(2K) modulo the K-bit q (HAC Algorithm 14.42 with
// b = 2, k = K): q1 = p >> (K-1) (K+1 bits), q3 = (q1 mu) >> (K+1) with mu = floor(2^(2K) / q),
// r = (p - q3 q) mod 2^(K+2) < 3q, then at most two subtractions of q. The product q1 mu
// (shifts and adds, ntt_mulmu) is registered, then the correction and the result. p in cycle c, r in cycle c + 2.
module ntt_barrett #(
    parameter integer K = 12,
    parameter logic [23:0] Q = 24'd3329
) (
    input logic clk_i,
    input logic [47:0] p_i,
    output logic [23:0] r_o
);
  localparam logic [K+1:0] QK = Q[K+1:0];
  logic [2*K+1:0] q2_q;
  logic [K+1:0] plo_q;
  wire [K:0] q1 = p_i[2*K-1:K-1];
  wire [2*K+1:0] q2;  // q1 mu, shifts and adds (no DSP)
  ntt_mulmu #(.K(K)) mm_i (.x_i(q1), .r_o(q2));
  always_ff @(posedge clk_i) begin
    q2_q <= q2;
    plo_q <= p_i[K+1:0];
  end
  wire [K:0] q3 = q2_q[2*K+1:K+1];
  wire [K+1:0] q3q;  // q3 q mod 2^(K+2), shifts and adds (the three q are sparse)
  ntt_mulq #(.W(K + 2), .Q(Q)) mq_i (.x_i({1'b0, q3}), .r_o(q3q));
  wire [K+1:0] r0 = plo_q - q3q;
  wire [K+1:0] ra = r0 >= QK ? r0 - QK : r0;
  wire [K+1:0] rb = ra >= QK ? ra - QK : ra;
  wire [31:0] rw = {{(30 - K) {1'b0}}, rb};
  always_ff @(posedge clk_i) r_o <= rw[23:0];
endmodule

// The reducer of the three moduli, selected by sel_i (the mode of the product p_i), p in cycle
// c, r in cycle c + 2. ML-KEM and FN-DSA: ntt_barrett's steps (the quotient estimate q3 of the
// selected modulus, its own q1 mu in shifts and adds, is registered, then one remainder and
// correction path with q and the remainder's width K+2 multiplexed). ML-DSA (since h71): the
// special form 2^23 = 2^13 - 1 mod q, f = (f mod 2^23) + (f >> 23)(2^13 - 1), folded three times
// (p < 2^48 -> < 2^38 + 2^23 -> < 2^29 + 2^23 -> < 2^23 + 2^20 < 2q) and one subtraction of q:
// exact, a b mod q, for any 24-bit words (no Barrett estimate, no wide remainder path).
module ntt_barrett3 (
    input logic clk_i,
    input logic [1:0] sel_i,
    input logic [47:0] p_i,
    output logic [23:0] r_o
);
  localparam logic [23:0] QD = 24'd8380417;
  wire [25:0] q2_0;
  wire [29:0] q2_2;
  ntt_mulmu #(.K(12)) mm0_i (.x_i(p_i[23:11]), .r_o(q2_0));
  ntt_mulmu #(.K(14)) mm2_i (.x_i(p_i[27:13]), .r_o(q2_2));
  wire [38:0] f1 = {16'd0, p_i[22:0]} + ({14'd0, p_i[47:23]} << 13) - {14'd0, p_i[47:23]};
  wire [29:0] f2 = {7'd0, f1[22:0]} + ({14'd0, f1[38:23]} << 13) - {14'd0, f1[38:23]};
  logic [14:0] q3_q;
  logic [15:0] plo_q;
  logic [29:0] f2_q;
  logic [1:0] sel_q;
  always_ff @(posedge clk_i) begin
    q3_q <= sel_i == 2'd0 ? {2'd0, q2_0[25:13]} : q2_2[29:15];
    plo_q <= p_i[15:0];
    f2_q <= f2;
    sel_q <= sel_i;
  end
  wire [23:0] f3 = {1'b0, f2_q[22:0]} + ({17'd0, f2_q[29:23]} << 13) - {17'd0, f2_q[29:23]};
  wire [23:0] rd = f3 >= QD ? f3 - QD : f3;
  wire [13:0] q3q_0;
  wire [15:0] q3q_2;
  ntt_mulq #(.W(14), .Q(24'd3329)) mq0_i (.x_i({1'b0, q3_q[12:0]}), .r_o(q3q_0));
  ntt_mulq #(.W(16), .Q(24'd12289)) mq2_i (.x_i({1'b0, q3_q[14:0]}), .r_o(q3q_2));
  wire [15:0] q3q = sel_q == 2'd0 ? {2'd0, q3q_0} : q3q_2;
  wire [15:0] mask = sel_q == 2'd0 ? 16'h3fff : 16'hffff;
  wire [15:0] qs = sel_q == 2'd0 ? 16'd3329 : 16'd12289;
  wire [15:0] r0 = (plo_q - q3q) & mask;  // (p - q3 q) mod 2^(K+2)
  wire [15:0] ra = r0 >= qs ? r0 - qs : r0;
  wire [15:0] rb = ra >= qs ? ra - qs : ra;
  always_ff @(posedge clk_i) r_o <= sel_q == 2'd1 ? rd : {8'd0, rb};
endmodule

// x q mod 2^W for ML-KEM's and FN-DSA's moduli, as shifts and adds: 3329 = 2^11 + 2^10 + 2^8 + 1,
// 12289 = 2^13 + 2^12 + 1.
module ntt_mulq #(
    parameter integer W = 14,
    parameter logic [23:0] Q = 24'd3329
) (
    input logic [W-1:0] x_i,
    output logic [W-1:0] r_o
);
  generate
    if (Q == 24'd3329) begin : g_kem
      assign r_o = (x_i << 11) + (x_i << 10) + (x_i << 8) + x_i;
    end else begin : g_fn
      assign r_o = (x_i << 13) + (x_i << 12) + x_i;
    end
  endgenerate
endmodule

// Barrett's q1 mu for mu = floor(2^(2K) / q) of ML-KEM's and FN-DSA's moduli, as shifts and
// adds (q1 < 2^(K+1); the product has 2K+2 bits): 5039 = 2^12 + 2^10 - 2^6 - 2^4 - 1 (K = 12),
// 21843 = 5 x 17 x 257 - 2 (K = 14).
module ntt_mulmu #(
    parameter integer K = 12
) (
    input logic [K:0] x_i,
    output logic [2*K+1:0] r_o
);
  wire [2*K+1:0] x = {{(K + 1) {1'b0}}, x_i};
  generate
    if (K == 12) begin : g_kem
      assign r_o = (x << 12) + (x << 10) - (x << 6) - (x << 4) - x;
    end else begin : g_fn
      wire [2*K+1:0] x5 = x + (x << 2);
      wire [2*K+1:0] x85 = x5 + (x5 << 4);
      assign r_o = x85 + (x85 << 8) - (x << 1);
    end
  endgenerate
endmodule
