// SPDX-License-Identifier: MIT
// pqlab's NTT unit: forward NTT, inverse NTT and pointwise products modulo
// q = 3329 (ML-KEM, FIPS 203: 7-layer incomplete NTT, base multiplication of degree-1 pairs),
// q = 8380417 (ML-DSA, FIPS 204: 8-layer NTT, zeta = 1753) and q = 12289 (FN-DSA / Falcon:
// negacyclic NTT of n = 2^logn, logn 1..10, bit-reversed order as lib/fndsa/modq.c), on two
// coefficient memories of its own (A and B, 1024 canonical residues of 24 bits each).
// Written from the specifications; the software model is pqlab/accel_ntt.py and the register
// map, timing and bus protocol are in docs/accel.md, section "NTT unit".
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
// err_o flags a request the unit refuses (the test bench reports a bus fault): an unknown
// offset, CTRL or a memory window while busy, an unknown operation or mode, a base
// multiplication outside ML-KEM, logn outside 1..10.
//
// Timing: CTRL's write starts the operation at that clock edge; the unit then does one step
// per cycle (one butterfly, one product, or one ML-KEM pair) and is busy for exactly
// layers * n/2 (NTT, inverse), n (pointwise) or 128 (base multiplication) cycles. The step's
// arithmetic is one combinational path (read, modular product, add, write); the products use
// the `%` operator (behavioural: a synthesis would put Barrett reductions there).
module ntt_unit (
    input logic clk_i,
    input logic rst_ni,
    input logic req_i,
    input logic we_i,
    input logic [13:0] addr_i,  // byte offset in the unit's window
    input logic [31:0] wdata_i,
    output logic [31:0] rdata_o,  // combinational read data of addr_i
    output logic busy_o,
    output logic err_o  // combinational: this request is refused
);
  localparam logic [23:0] Q0 = 24'd3329, Q1 = 24'd8380417, Q2 = 24'd12289;

  logic [23:0] mem_a[1024];
  logic [23:0] mem_b[1024];

  logic [1:0] mode_sel;
  logic [3:0] mode_logn;
  logic [23:0] scale;
  logic [3:0] op;
  logic busy;
  logic [31:0] cycles;  // busy cycles of the last operation
  logic [3:0] lg_len;  // log2 of the butterfly half-size of the current layer
  logic [9:0] step;  // step within the layer (or the operation)

  // ---- the current mode ----
  function automatic logic [23:0] q_of(input logic [1:0] s);
    return s == 2'd0 ? Q0 : s == 2'd1 ? Q1 : Q2;
  endfunction
  function automatic logic [3:0] logn_of(input logic [1:0] s, input logic [3:0] l);
    return s == 2'd2 ? l : 4'd8;
  endfunction
  function automatic logic [10:0] rom_base(input logic [1:0] s);
    return s == 2'd0 ? 11'd0 : s == 2'd1 ? 11'd128 : 11'd384;
  endfunction
  wire [23:0] q = q_of(mode_sel);
  wire [3:0] logn = logn_of(mode_sel, mode_logn);
  wire [3:0] min_lg = mode_sel == 2'd0 ? 4'd1 : 4'd0;  // ML-KEM stops at len = 2
  wire [10:0] n = 11'd1 << logn;

  // ---- arithmetic modulo q (canonical inputs and outputs) ----
  function automatic logic [23:0] mulmod(input logic [23:0] a, input logic [23:0] b, input logic [23:0] m);
    logic [47:0] p;
    p = {24'd0, a} * {24'd0, b};
    return 24'(p % {24'd0, m});
  endfunction
  function automatic logic [23:0] addmod(input logic [23:0] a, input logic [23:0] b, input logic [23:0] m);
    logic [24:0] s;
    s = {1'b0, a} + {1'b0, b};
    return s >= {1'b0, m} ? 24'(s - {1'b0, m}) : s[23:0];
  endfunction
  function automatic logic [23:0] submod(input logic [23:0] a, input logic [23:0] b, input logic [23:0] m);
    return a >= b ? a - b : 24'(a + m - b);
  endfunction
  // any int32 to [0, q)
  function automatic logic [23:0] reduce(input logic [31:0] x, input logic [23:0] m);
    logic signed [32:0] r;
    r = $signed({x[31], x}) % $signed({9'd0, m});
    if (r < 0) r = r + $signed({9'd0, m});
    return r[23:0];
  endfunction
  function automatic logic [31:0] centre(input logic [23:0] v, input logic [23:0] m);
    return v > (m >> 1) ? 32'(v) - 32'(m) : 32'(v);
  endfunction

  // ---- bus decode ----
  wire in_regs = addr_i[13:12] == 2'd0;
  wire [9:0] widx = addr_i[11:2];
  wire valid_reg = in_regs && addr_i[11:5] == 7'd0 && addr_i[4:2] <= 3'd5;
  // the operation a CTRL write would start, and whether the unit accepts it
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

  always_comb begin
    rdata_o = 32'd0;
    unique case (addr_i[13:12])
      2'd0:
      unique case (addr_i[4:2])
        3'd0: rdata_o = {20'd0, mode_logn, 6'd0, mode_sel};
        3'd1: rdata_o = {28'd0, op};
        3'd2: rdata_o = {31'd0, busy};
        3'd4: rdata_o = {8'd0, scale};
        3'd5: rdata_o = cycles;
        default: rdata_o = 32'd0;
      endcase
      2'd1: rdata_o = {8'd0, mem_a[widx]};
      2'd2: rdata_o = centre(mem_a[widx], q);
      default: rdata_o = {8'd0, mem_b[widx]};
    endcase
  end

  // ---- the step of the current operation ----
  wire inverse = op[2:0] == 3'd2;
  wire on_b = op[3];
  wire [9:0] len = 10'd1 << lg_len;
  wire [9:0] blk = step >> lg_len;
  wire [9:0] j = step & (len - 10'd1);
  wire [9:0] i0 = 10'((blk << (lg_len + 4'd1)) | j);
  wire [9:0] i1 = i0 + len;
  wire [10:0] zidx = rom_base(mode_sel) + 11'((11'd1 << (logn - lg_len - 4'd1)) + 11'(blk));
  wire [23:0] x0 = on_b ? mem_b[i0] : mem_a[i0];
  wire [23:0] x1 = on_b ? mem_b[i1] : mem_a[i1];
  wire last_layer = lg_len == logn - 4'd1;
  // forward (Cooley-Tukey)
  wire [23:0] zeta, izeta, bz;
  ntt_zetas rom_i (
      .idx_i(zidx),
      .z_o  (zeta),
      .iz_o (izeta)
  );
  wire [23:0] ct_t = mulmod(zeta, x1, q);
  wire [23:0] ct0 = addmod(x0, ct_t, q);
  wire [23:0] ct1 = submod(x0, ct_t, q);
  // inverse (Gentleman-Sande), the last layer times SCALE
  wire [23:0] gs_s = addmod(x0, x1, q);
  wire [23:0] gs_d = mulmod(submod(x0, x1, q), izeta, q);
  wire [23:0] gs0 = last_layer ? mulmod(gs_s, scale, q) : gs_s;
  wire [23:0] gs1 = last_layer ? mulmod(gs_d, scale, q) : gs_d;
  // pointwise
  wire [23:0] pw = mulmod(mulmod(mem_a[step], mem_b[step], q), scale, q);
  // ML-KEM base multiplication of pair `step` (coefficients 2 step, 2 step + 1): the modulus
  // X^2 - gamma, gamma = zeta^(2 brv7(step) + 1) = +- zetas[64 + step / 2]
  ntt_zetas rom_bm_i (
      .idx_i(11'd64 + 11'(step[6:1])),
      .z_o  (bz),
      .iz_o ()
  );
  wire [23:0] gamma = step[0] ? Q0 - bz : bz;
  wire [9:0] p0 = {step[8:0], 1'b0};
  wire [9:0] p1 = {step[8:0], 1'b1};
  wire [23:0] bm0 = mulmod(addmod(mulmod(mem_a[p0], mem_b[p0], Q0), mulmod(mulmod(mem_a[p1], mem_b[p1], Q0), gamma, Q0), Q0), scale, Q0);
  wire [23:0] bm1 = mulmod(addmod(mulmod(mem_a[p0], mem_b[p1], Q0), mulmod(mem_a[p1], mem_b[p0], Q0), Q0), scale, Q0);

  // steps per layer (NTT) or per operation
  wire [9:0] last_step = op[2:0] == 3'd3 ? 10'(n - 11'd1) : op[2:0] == 3'd4 ? 10'd127 : 10'((n >> 1) - 11'd1);
  wire layer_done = step == last_step;
  wire op_done = op[2:0] >= 3'd3 ? layer_done : layer_done && (inverse ? last_layer : lg_len == min_lg);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mode_sel <= 2'd0;
      mode_logn <= 4'd0;
      scale <= 24'd1;
      op <= 4'd0;
      busy <= 1'b0;
      cycles <= 32'd0;
      lg_len <= 4'd0;
      step <= 10'd0;
    end else begin
      if (req_i && we_i && !err_o) begin
        if (in_regs) begin
          unique case (addr_i[4:2])
            3'd0: begin
              mode_sel  <= wdata_i[1:0];
              mode_logn <= wdata_i[11:8];
            end
            3'd1: begin
              op <= wdata_i[3:0];
              busy <= 1'b1;
              cycles <= 32'd0;
              step <= 10'd0;
              lg_len <= wdata_i[2:0] == 3'd2 ? min_lg : logn - 4'd1;
            end
            3'd4: scale <= reduce(wdata_i, q);
            default: ;
          endcase
        end else if (addr_i[13:12] == 2'd3) begin
          mem_b[widx] <= reduce(wdata_i, q);
        end else begin
          mem_a[widx] <= reduce(wdata_i, q);
        end
      end
      if (busy) begin
        cycles <= cycles + 32'd1;
        unique case (op[2:0])
          3'd1: begin
            if (on_b) begin
              mem_b[i0] <= ct0;
              mem_b[i1] <= ct1;
            end else begin
              mem_a[i0] <= ct0;
              mem_a[i1] <= ct1;
            end
          end
          3'd2: begin
            if (on_b) begin
              mem_b[i0] <= gs0;
              mem_b[i1] <= gs1;
            end else begin
              mem_a[i0] <= gs0;
              mem_a[i1] <= gs1;
            end
          end
          3'd3: mem_a[step] <= pw;
          default: begin
            mem_a[p0] <= bm0;
            mem_a[p1] <= bm1;
          end
        endcase
        if (op_done) begin
          busy <= 1'b0;
        end else if (layer_done) begin
          step <= 10'd0;
          lg_len <= inverse ? lg_len + 4'd1 : lg_len - 4'd1;
        end else begin
          step <= step + 10'd1;
        end
      end
    end
  end
endmodule
