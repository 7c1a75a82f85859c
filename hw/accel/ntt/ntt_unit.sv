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
// at the request's clock edge; a write of A, B or SCALE goes through the write pipeline (the
// multiplier reduces it) and is stored 4 cycles later, wpend_o high meanwhile (since h71; ntt_obi.sv holds
// any other access until then). Reads are registered (the memories are synchronous block RAMs):
// rdata_o is the word read by the request of the previous cycle (the OBI rvalid cycle).
//
// Hardware structure (FPGA-shaped; Yosys 0.23 `read_verilog -sv` and Verilator read it):
// - memories: A and B are each two banks of 512 x 24 bits, index i in bank parity(i) (the XOR
//   of its ten bits) at address i >> 1. A butterfly's two indices differ in one bit, and so do
//   a base multiplication's pair (2k, 2k + 1), so every step reads each bank at most once and
//   writes it at most once: each bank is a simple dual-port RAM (one synchronous read port,
//   one write port), one RAMB18. The twiddle ROM (ntt_zetas.sv) is read synchronously too.
// - one modular multiplier (since h82; three 24 x 24 ones and a 12 x 12 one before): ntt_mulmod,
//   a 24 x 24 product (DSP48E2s) and Barrett's reduction (Barrett, CRYPTO '86; Menezes, van
//   Oorschot, Vanstone, Handbook of Applied Cryptography, Algorithm 14.42, base b = 2) of the
//   three moduli in one reducer, its shifts and constants selected by the mode and its two
//   quotient products on DSP48E2s too (ntt_barrett3); 4 cycles, registered at the multiplier
//   inputs, product, quotient estimate and result. No `%`. It also reduces the bus writes.
// - one modular adder and one subtractor (addmod, submod), on the operands (inverse NTT:
//   x0 + x1, x0 - x1) or on the product (NTT: x0 + t, x0 - t; base multiplication: the sums).
// - the datapath is a pipeline, one step issued per cycle, each step one product: issue (read
//   addresses) -> operands (cycle 1) -> the product -> write in cycle DW = 5 after the issue.
//   NTT: one butterfly per step (t = z x1). Inverse NTT: one butterfly per step ((x0 - x1)
//   z^-1), then a scale pass (every word times SCALE, one per step). Pointwise product: a
//   product pass (a b, one word per step), then the scale pass. Base multiplication (ML-KEM):
//   five steps per pair (a1 b1, a0 b1, a1 b0, a0 b0, then (a1 b1) zeta on the first step's
//   result, which leaves the multiplier as the fifth step's operands are taken), the fifth
//   writing a0 b0 +- (a1 b1) zeta and a0 b1 + a1 b0, then the scale pass. Within a layer the
//   butterflies are independent; the next layer's step p needs the current layer's steps up to
//   p + n/4, so layers follow each other without a gap when n/4 >= DW + 1 (every n >= 32;
//   smaller FN-DSA sizes wait DW + 1 - n/4 cycles between layers); the scale pass waits DW + 1 -
//   n/2 (inverse) or DW + 1 - n (product) cycles when that is positive (n < 12, n < 6).
// Busy cycles of an operation: issue cycles (steps, plus the gaps) + DW:
//   NTT: layers * n/2 + (layers - 1) * gap + 5; inverse: the same + scale gap + n; pointwise
//   2 n + gap + 5; base multiplication 5 x 128 + 256 + 5 = 901.
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
  localparam logic [4:0] DW = 5'd5;  // issue to write: 1 (read) + 4 (the product)

  logic [1:0] mode_sel;
  logic [3:0] mode_logn;
  logic [23:0] scale;
  logic [3:0] op;
  logic busy, issuing;
  logic [13:0] cycles;  // busy cycles of the last operation (at most 6,149: FN-DSA n = 1024)
  logic [3:0] lg_len;  // log2 of the butterfly half-size of the current layer
  logic [9:0] step;  // step within the layer or pass (a base multiplication: the pair)
  logic [2:0] sub;  // a base multiplication's product within the pair, 0..4
  logic spass;  // the scale pass (words times SCALE) of an inverse NTT or a product
  logic [4:0] gap_cnt, drain;

  // ---- the current mode ----
  wire [23:0] q = mode_sel == 2'd0 ? Q0 : mode_sel == 2'd1 ? Q1 : Q2;
  wire [3:0] logn = mode_sel == 2'd2 ? mode_logn : 4'd8;
  wire [10:0] rom_base = mode_sel == 2'd0 ? 11'd0 : mode_sel == 2'd1 ? 11'd128 : 11'd384;
  wire [3:0] min_lg = mode_sel == 2'd0 ? 4'd1 : 4'd0;  // ML-KEM stops at len = 2
  wire [10:0] n = 11'd1 << logn;
  wire [10:0] n_h = n >> 1;
  wire [10:0] n_q = n >> 2;
  wire [4:0] gap = n_q >= 11'd6 ? 5'd0 : 5'd6 - n_q[4:0];  // between layers: DW + 1 - n/4

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
  // Bus writes of A, B and SCALE are reduced by the multiplier (idle while the unit is): u =
  // x + 2^31 = uh 2^20 + ul, p = uh (2^20 mod q) + ul + (-2^31 mod q) = x mod q, p < 2^24
  // (ML-KEM), 2^28 (FN-DSA), 2^33 (ML-DSA), within each reduction's exact range. The word is
  // stored when the product's result comes, 4 cycles after the request (wp: valid, target 1 A
  // / 2 B / 3 SCALE, index); until then wpend_o is high and the slot holds every access but
  // such a write.
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
  // the step's two read indices (always in different banks) and the index its first word is
  // written to: a butterfly (i0, i0 + len); a product or scale step reads its word `step` as
  // the second word (the first, step ^ 1, unused) and writes it; a base multiplication's five
  // steps of pair k = step all read (2k, 2k + 1)
  wire lin = k_pwm || spass;  // one word per step
  wire [9:0] iss_i0 = lin ? step ^ 10'd1 : (k_bm ? {step[8:0], 1'b0} : bf_i0);
  wire [9:0] iss_i1 = lin ? step : (k_bm ? {step[8:0], 1'b1} : bf_i0 | len);
  wire [9:0] iss_w0 = lin ? step : iss_i0;
  wire [10:0] zidx = k_bm ? 11'd64 + {5'd0, step[6:1]} : zidx_bf;
  wire last_layer = lg_len == logn - 4'd1;
  wire iss_v = busy && issuing && gap_cnt == 5'd0;

  // the end of a layer (NTT, inverse), of the product pass or of the scale pass
  wire [9:0] n_m1 = n[9:0] - 10'd1;
  wire [9:0] half_m1 = n[10:1] - 10'd1;
  wire [9:0] last_step = lin ? n_m1 : k_bm ? 10'd127 : half_m1;
  wire bm_sub = k_bm && !spass;
  wire layer_done = step == last_step && (!bm_sub || sub == 3'd4);
  wire main_done = spass || k_pwm || k_bm ? layer_done : layer_done && (k_intt ? last_layer : lg_len == min_lg);
  // idle cycles before the scale pass: its step p reads the word the main pass's step p (a
  // product) or p mod n/2 (the inverse's last layer) wrote DW cycles after its issue
  wire [4:0] gap_s = k_intt ? (n_h >= 11'd6 ? 5'd0 : 5'd6 - n_h[4:0]) : k_pwm ? (n >= 11'd6 ? 5'd0 : 5'd6 - n[4:0]) : 5'd0;

  wire [23:0] m_r;  // the multiplier's result (below)

  // ---- memories: banks by index parity; read addresses from the issue (busy) or the bus ----
  wire [9:0] rd_i0 = busy ? iss_i0 : widx;
  wire [9:0] rd_i1 = busy ? iss_i1 : widx ^ 10'd1;
  wire rd_par = ^rd_i0;
  logic rd_par_q;
  wire [8:0] ra0 = rd_par ? rd_i1[9:1] : rd_i0[9:1];  // bank 0: even parity
  wire [8:0] ra1 = rd_par ? rd_i0[9:1] : rd_i1[9:1];
  // write side: the pipeline's write (busy) or the bus
  logic wv0, wv1;  // pipeline writes of word 0 / word 1 (cycle DW)
  logic [9:0] w_i0, w_i1;
  logic [23:0] wd0, wd1;
  wire bus_wa = wp4[12] && wp4[11:10] == 2'd1;
  wire bus_wb = wp4[12] && wp4[11:10] == 2'd2;
  wire [9:0] wr_i0 = busy ? w_i0 : wp4[9:0];
  wire [9:0] wr_i1 = w_i1;
  wire [23:0] wr_d0 = busy ? wd0 : m_r;
  wire we0 = busy ? wv0 : 1'b1;  // gated per memory below
  wire we1 = busy && wv1;
  wire to_b = on_b && (k_ntt || k_intt);
  wire wr_a = busy ? !to_b : bus_wa;
  wire wr_b = busy ? to_b : bus_wb;
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
  // the words at index 0 / 1 of the step (or at the bus index), one cycle after the read: x
  // from the operation's memory (A, or B for an NTT / inverse on B; a bus read: its window's),
  // and B's words for the products
  logic [1:0] rwin_q;
  wire xb = busy ? on_b : rwin_q == 2'd3;
  wire [23:0] x0 = xb ? (rd_par_q ? b_q1 : b_q0) : (rd_par_q ? a_q1 : a_q0);
  wire [23:0] x1 = xb ? (rd_par_q ? b_q0 : b_q1) : (rd_par_q ? a_q0 : a_q1);
  wire [23:0] b_x0 = rd_par_q ? b_q1 : b_q0;
  wire [23:0] b_x1 = rd_par_q ? b_q0 : b_q1;

  // twiddle ROM, read synchronously: z (z^-1 for the inverse) of the issued step
  wire [23:0] rom_w;
  ntt_zetas rom_i (
      .idx_i({k_intt, zidx}),
      .w_o  (rom_w)
  );
  logic [23:0] w_q;

  // ---- cycle 1: the operands of the one multiplier, the inverse's sum and difference ----
  // One modular multiplier, one product per cycle (issued with the step): NTT z x1; inverse
  // (x0 - x1) z^-1; product a b; scale pass S x; base multiplication of pair k in five steps
  // (sub 0..4): a1 b1, a0 b1, a1 b0, a0 b0, then (a1 b1) zeta_k on sub 0's result, which
  // comes out of the multiplier in the cycle sub 4's operands are taken. One modular adder
  // and one subtractor, on the operands in cycle 1 (inverse: x0 + x1, x0 - x1) or on the
  // product in cycle DW (NTT: x0 + t, x0 - t; base multiplication: a0 b1 + a1 b0 and a0 b0
  // +- a1 b1 zeta_k, with the previous cycle's product).
  logic v1, sp1, pk1;
  logic [2:0] sub1;
  logic [9:0] i0_1, i1_1;
  logic [23:0] r_prev;  // the multiplier's result of the previous cycle
  wire [23:0] carry5;  // x0 (NTT) or x0 + x1 (inverse), DW - 1 cycles later
  wire [23:0] op_a = k_intt ? x0 : k_bm ? r_prev : carry5;
  wire [23:0] op_b = k_intt ? x1 : m_r;
  wire [23:0] sum = addmod(op_a, op_b, q);
  wire [23:0] dif = submod(op_a, op_b, q);
  logic [23:0] m_a, m_b;
  always_comb begin
    if (!busy) begin  // a bus write
      m_a = {12'd0, bus_u[31:20]};
      m_b = bus_b;
    end else if (sp1) begin
      m_a = scale;
      m_b = x1;
    end else if (k_ntt) begin
      m_a = w_q;
      m_b = x1;
    end else if (k_intt) begin
      m_a = w_q;
      m_b = dif;
    end else if (sub1 == 3'd4) begin
      m_a = w_q;
      m_b = m_r;
    end else begin  // a product (sub1 = 0: the word `step`, read as x1) or a pair's sub 0..3
      m_a = sub1[0] ? x0 : x1;
      m_b = sub1[1] ? b_x0 : b_x1;
    end
  end
  ntt_mulmod m_i (
      .clk_i(clk_i),
      .sel_i(mode_sel),
      .a_i(m_a),
      .b_i(m_b),
      .c_i(busy ? 24'd0 : bus_c),
      .r_o(m_r)
  );
  ntt_delay #(.W(24), .N(4)) d15_i (.clk_i(clk_i), .d_i(k_intt ? sum : x0), .q_o(carry5));
  wire [24:0] ctl5;
  ntt_delay #(.W(25), .N(4)) c15_i (.clk_i(clk_i), .d_i({v1, sp1, sub1 == 3'd2, sub1 == 3'd4, pk1, i0_1, i1_1}), .q_o(ctl5));

  // ---- cycle DW: write back ----
  wire v5 = ctl5[24], sp5 = ctl5[23], bmo5 = ctl5[22], bmw5 = ctl5[21], pk5 = ctl5[20];
  logic [23:0] odd_q;  // a base multiplication's odd word a0 b1 + a1 b0, until sub 4 writes it
  wire bm5 = k_bm && !sp5;
  assign wv0 = v5 && (!bm5 || bmw5);
  assign wv1 = v5 && !sp5 && (k_ntt || k_intt || (k_bm && bmw5));
  assign w_i0 = ctl5[19:10];
  assign w_i1 = ctl5[9:0];
  assign wd0 = sp5 || k_pwm ? m_r : k_intt ? carry5 : (k_bm && pk5) ? dif : sum;
  assign wd1 = k_ntt ? dif : k_intt ? m_r : odd_q;

  // ---- bus read data (registered) ----
  logic [31:0] rreg_q;
  logic [31:0] rreg;
  always_comb begin
    case (addr_i[4:2])
      3'd0: rreg = {20'd0, mode_logn, 6'd0, mode_sel};
      3'd1: rreg = {28'd0, op};
      3'd2: rreg = {31'd0, busy};
      3'd4: rreg = {8'd0, scale};
      3'd5: rreg = {18'd0, cycles};
      default: rreg = 32'd0;
    endcase
  end
  // the centred read: x0 - q (25 bits, sign-extended) above (q - 1) / 2
  wire [24:0] x0_mq = {1'b0, x0} - {1'b0, q};
  always_comb begin
    if (rwin_q == 2'd0) rdata_o = rreg_q;
    else if (rwin_q == 2'd2 && x0 > {1'b0, q[23:1]}) rdata_o = {{7{x0_mq[24]}}, x0_mq};
    else rdata_o = {8'd0, x0};
  end

  // ---- modular addition and subtraction (one correction: canonical for canonical inputs;
  // the borrow of the subtraction chooses, so each is one adder and one subtractor) ----
  function [23:0] addmod(input [23:0] a, input [23:0] b, input [23:0] m);
    reg [24:0] s;
    reg [25:0] t;
    begin
      s = {1'b0, a} + {1'b0, b};
      t = {1'b0, s} - {2'b0, m};
      addmod = t[25] ? s[23:0] : t[23:0];
    end
  endfunction
  function [23:0] submod(input [23:0] a, input [23:0] b, input [23:0] m);
    reg [24:0] d;
    begin
      d = {1'b0, a} - {1'b0, b};
      submod = d[24] ? d[23:0] + m : d[23:0];
    end
  endfunction

  always_ff @(posedge clk_i) begin
    rd_par_q <= rd_par;
    w_q <= rom_w;
    v1 <= iss_v;
    sp1 <= spass;
    pk1 <= step[0];
    sub1 <= bm_sub ? sub : 3'd0;
    i0_1 <= iss_w0;
    i1_1 <= iss_i1;
    r_prev <= m_r;
    if (bm5 && bmo5) odd_q <= sum;
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
      cycles <= 14'd0;
      lg_len <= 4'd0;
      step <= 10'd0;
      sub <= 3'd0;
      spass <= 1'b0;
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
            cycles <= 14'd0;
            step <= 10'd0;
            sub <= 3'd0;
            spass <= 1'b0;
            gap_cnt <= 5'd0;
            lg_len <= wdata_i[2:0] == 3'd2 ? min_lg : logn - 4'd1;
          end
          default: ;
        endcase
      end
      if (wp4[12] && wp4[11:10] == 2'd3) scale <= m_r;
      if (busy) begin
        cycles <= cycles + 14'd1;
        if (issuing) begin
          if (gap_cnt != 5'd0) begin
            gap_cnt <= gap_cnt - 5'd1;
          end else if (main_done) begin
            if (spass || k_ntt) begin
              issuing <= 1'b0;
              drain <= DW;
            end else begin
              spass <= 1'b1;
              step <= 10'd0;
              gap_cnt <= gap_s;
            end
          end else if (layer_done) begin
            step <= 10'd0;
            lg_len <= k_intt ? lg_len + 4'd1 : lg_len - 4'd1;
            gap_cnt <= gap;
          end else if (bm_sub && sub != 3'd4) begin
            sub <= sub + 3'd1;
          end else begin
            sub <= 3'd0;
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

// a * b (+ c) mod q with Barrett's reduction, the modulus selected by sel_i (0: 3329, 1:
// 8380417, 2: 12289). Operands in cycle c, the result in cycle c + 4: registered operands, the
// registered 24 x 24 product (DSP48E2s), then the reducer's two stages (ntt_barrett3). Exact
// (a b mod q) for a, b < q and for the bus writes' p (< 2^2K); other inputs give the
// deterministic value of the same steps (pqlab/accel_ntt.py mulmod_hw).
module ntt_mulmod (
    input logic clk_i,
    input logic [1:0] sel_i,
    input logic [23:0] a_i,
    input logic [23:0] b_i,
    input logic [23:0] c_i,  // added to the product (a bus write's low part)
    output logic [23:0] r_o
);
  logic [23:0] a_q, b_q, c_q;
  logic [47:0] p_q;
  logic [1:0] sel_1, sel_2;
  always_ff @(posedge clk_i) begin
    a_q <= a_i;
    b_q <= b_i;
    c_q <= c_i;
    p_q <= a_q * b_q + {24'd0, c_q};
    sel_1 <= sel_i;
    sel_2 <= sel_1;
  end
  ntt_barrett3 br_i (.clk_i(clk_i), .sel_i(sel_2), .p_i(p_q), .r_o(r_o));
endmodule

// Barrett's reduction (P. Barrett, CRYPTO '86; Menezes, van Oorschot, Vanstone, Handbook of
// Applied Cryptography, Algorithm 14.42 with b = 2, k = K) of p < 2^(2K) modulo the K-bit q of
// the mode: K = 12, 23, 14, mu = floor(2^(2K) / q) = 5039, 8396807, 21843. q1 = p >> (K-1)
// (K+1 bits), q3 = (q1 mu) >> (K+1), r = (p - q3 q) mod 2^(K+2) < 3q, then r, r - q or r - 2q.
// One reducer for the three moduli: the shifts and constants are multiplexed by the mode and
// both products, q1 mu (registered) and q3 q, are DSP multiplications (since h82; until h82
// shifts and adds per modulus and ML-DSA's special-form folds, about 470 LUTs). p in cycle c,
// r in cycle c + 2.
module ntt_barrett3 (
    input logic clk_i,
    input logic [1:0] sel_i,
    input logic [47:0] p_i,
    output logic [23:0] r_o
);
  wire [23:0] q1 = sel_i == 2'd0 ? {11'd0, p_i[23:11]} : sel_i == 2'd1 ? p_i[45:22] : {9'd0, p_i[27:13]};
  wire [23:0] mu = sel_i == 2'd0 ? 24'd5039 : sel_i == 2'd1 ? 24'd8396807 : 24'd21843;
  logic [47:0] q2_q;
  logic [24:0] plo_q;
  logic [1:0] sel_q;
  always_ff @(posedge clk_i) begin
    q2_q <= q1 * mu;
    plo_q <= p_i[24:0];
    sel_q <= sel_i;
  end
  wire [23:0] q3 = sel_q == 2'd0 ? {11'd0, q2_q[25:13]} : sel_q == 2'd1 ? q2_q[47:24] : {9'd0, q2_q[29:15]};
  wire [23:0] qs = sel_q == 2'd0 ? 24'd3329 : sel_q == 2'd1 ? 24'd8380417 : 24'd12289;
  wire [24:0] mask = sel_q == 2'd0 ? 25'h3fff : sel_q == 2'd1 ? 25'h1ffffff : 25'hffff;
  wire [47:0] q3q = q3 * qs;
  wire [24:0] r0 = (plo_q - q3q[24:0]) & mask;  // (p - q3 q) mod 2^(K+2)
  wire [25:0] r1 = {1'b0, r0} - {2'd0, qs};
  wire [25:0] r2 = {1'b0, r0} - {1'd0, qs, 1'b0};
  always_ff @(posedge clk_i) r_o <= !r2[25] ? r2[23:0] : !r1[25] ? r1[23:0] : r0[23:0];
endmodule
