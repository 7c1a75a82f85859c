// SPDX-License-Identifier: MIT
// pqlab's test bench around the OpenHW CV32E40P core (cv32e40p_top, RV32IMFC with the
// FPU): memories and devices on the core's two OBI ports (OBI 1.x: address phase
// req/gnt, response phase rvalid).
//
// Memory timing, the zero-wait-state timing of PULPino's single-cycle SRAMs:
//   - gnt is given in the cycle of req (combinationally), so every request is accepted;
//   - rvalid and rdata follow in the next cycle;
//   - instruction and data ports are independent (two ports, no contention).
// Memory map (tb_main.cpp loads the ELF into it and checks the same map):
//   0x00000000-0x00000fff  unmapped (a NULL pointer's page): an access is a bus fault
//   0x00001000-0x001fffff  code and constants (read-only: a store is a bus fault)
//   0x00200000-0x007fffff  RAM (data, bss, stack)
//   0x10000000             console: a store writes its low byte to stdout
//   0x10000004             exit: a store ends the run with that exit code
//   0x10000008             input: a load returns the next byte of ./pqlab.in,
//                          0x100 at its end, 0x200 when it cannot be read
//   0x1000000c, 0x10000010 stack guard [low, high): a store inside is a stack overflow
//   0x10010000-0x10013fff  slot 0: the NTT unit (NTT=1 only; hw/accel/ntt/ntt_obi.sv): its
//                          registers and coefficient memories; a load of its WAIT register
//                          waits (no grant) while the unit is busy
// Accelerators on the data port (docs/accel.md) sit in slots: each decodes its own window,
// may hold gnt low while it is busy and answers reads like memory. Without them (the
// default parameters) gnt = req and the test bench is the base platforms' one. (The Keccak
// unit is not here: it is custom instructions inside the patched core, keccak-insn.patch.)
// Anything else is a bus fault. Faults, output and exit go through DPI functions of
// tb_main.cpp, which prints the '#fault' line and ends the run.
module tb_top #(
    parameter int unsigned FPU = 1,  // the F extension (fpnew); -GFPU=0 builds the core without it
    parameter int unsigned MEM_WORDS = 32'h0020_0000,  // 8 MiB
    parameter int unsigned ROM_BASE  = 32'h0000_1000,
    parameter int unsigned RAM_BASE  = 32'h0020_0000,
    parameter int unsigned DEV_BASE  = 32'h1000_0000,
    parameter int unsigned NTT = 0,  // 1: the NTT unit in accelerator slot 0 (-GNTT=1)
    parameter logic [31:0] NTT_BASE = 32'h1001_0000
) (
    input logic clk_i,
    input logic rst_ni,
    output logic core_sleep_o,
    output logic [31:0] pc_ex_o  // for the driver's timeout and sleep reports
);
  import "DPI-C" function int unsigned tb_image_word(input int unsigned index);
  import "DPI-C" function void tb_console(input int unsigned c);
  import "DPI-C" function void tb_exit(input int unsigned code);
  import "DPI-C" function int unsigned tb_input();
  import "DPI-C" function int unsigned tb_writes_on();
  import "DPI-C" function void tb_write(
    input int unsigned kind,
    input int unsigned what,
    input int unsigned value
  );
  import "DPI-C" function void tb_fault(
    input int unsigned kind,
    input int unsigned addr,
    input int unsigned pc
  );

  localparam int unsigned FAULT_BUS = 1, FAULT_ROM_WRITE = 2, FAULT_STACK = 3, FAULT_FETCH = 4;

  logic [31:0] mem[MEM_WORDS];
  initial begin
    for (int unsigned i = 0; i < MEM_WORDS; i++) mem[i] = tb_image_word(i);
  end

  logic instr_req, instr_rvalid;
  logic [31:0] instr_addr, instr_rdata;
  logic data_req, data_gnt, data_rvalid, data_we;
  logic [3:0] data_be;
  logic [31:0] data_addr, data_wdata, data_rdata;

  // accelerator slots on the data port (the slot convention: hw/accel/ntt/ntt_obi.sv)
  localparam int unsigned NACC = 1;  // slot 0: NTT; a new unit adds a slot
  logic [NACC-1:0] acc_sel, acc_stall, acc_bad;
  logic [31:0] acc_rdata[NACC];
  if (NTT != 0) begin : g_ntt
    ntt_obi #(
        .BASE(NTT_BASE)
    ) ntt_i (
        .clk_i(clk_i),
        .rst_ni(rst_ni),
        .req_i(data_req),
        .we_i(data_we),
        .be_i(data_be),
        .addr_i(data_addr),
        .wdata_i(data_wdata),
        .sel_o(acc_sel[0]),
        .stall_o(acc_stall[0]),
        .bad_o(acc_bad[0]),
        .rdata_o(acc_rdata[0])
    );
  end else begin : g_no_ntt
    assign acc_sel[0] = 1'b0;
    assign acc_stall[0] = 1'b0;
    assign acc_bad[0] = 1'b0;
    assign acc_rdata[0] = 32'h0;
  end
  // the request waits while the unit it addresses is busy
  assign data_gnt = data_req && !(|(acc_sel & acc_stall));
  logic [31:0] acc_rdata_sel;
  always_comb begin
    acc_rdata_sel = 32'h0;
    for (int unsigned k = 0; k < NACC; k++) if (acc_sel[k]) acc_rdata_sel = acc_rdata[k];
  end
  // Slots with registered reads (a synchronous memory, as an FPGA block RAM): their rdata_o is
  // the word of the read granted in the previous cycle, valid in its rvalid cycle, instead of
  // combinational at the grant. Slot 0 (the NTT unit) is one; the timing is the same (rvalid
  // in the cycle after the grant).
  localparam logic [NACC-1:0] ACC_RLATE = 1'b1;
  logic [NACC-1:0] acc_late_q;  // the read granted in the previous cycle went to these slots
  logic [31:0] acc_rdata_late, core_rdata;
  always_comb begin
    acc_rdata_late = 32'h0;
    for (int unsigned k = 0; k < NACC; k++) if (acc_late_q[k]) acc_rdata_late = acc_rdata[k];
  end
  assign core_rdata = |acc_late_q ? acc_rdata_late : data_rdata;

  cv32e40p_top #(
      .COREV_PULP(0),
      .COREV_CLUSTER(0),
      .FPU(FPU),
      .FPU_ADDMUL_LAT(0),
      .FPU_OTHERS_LAT(0),
      .ZFINX(0),
      .NUM_MHPMCOUNTERS(1)
  ) top_i (
      .clk_i(clk_i),
      .rst_ni(rst_ni),
      .pulp_clock_en_i(1'b1),
      .scan_cg_en_i(1'b0),
      .boot_addr_i(ROM_BASE),
      .mtvec_addr_i(32'h0),  // a trap before start-up installs its handler: fetch fault
      .dm_halt_addr_i(32'h0),
      .hart_id_i(32'h0),
      .dm_exception_addr_i(32'h0),
      .instr_req_o(instr_req),
      .instr_gnt_i(instr_req),
      .instr_rvalid_i(instr_rvalid),
      .instr_addr_o(instr_addr),
      .instr_rdata_i(instr_rdata),
      .data_req_o(data_req),
      .data_gnt_i(data_gnt),
      .data_rvalid_i(data_rvalid),
      .data_we_o(data_we),
      .data_be_o(data_be),
      .data_addr_o(data_addr),
      .data_wdata_o(data_wdata),
      .data_rdata_i(core_rdata),
      .irq_i(32'h0),
      .irq_ack_o(),
      .irq_id_o(),
      .debug_req_i(1'b0),
      .debug_havereset_o(),
      .debug_running_o(),
      .debug_halted_o(),
      .fetch_enable_i(1'b1),
      .core_sleep_o(core_sleep_o)
  );

  // the PC of the instruction in EX (the one that issues a load or store): the PC of the
  // last instruction that left ID
  logic [31:0] pc_ex;
  logic [31:0] guard_lo, guard_hi;
  assign pc_ex_o = pc_ex;
  wire id_leaves = top_i.core_i.id_valid && top_i.core_i.is_decoding;
  wire [31:0] pc_id = top_i.core_i.pc_id;
  wire [31:0] rom_end = RAM_BASE;
  wire [31:0] mem_end = MEM_WORDS * 4;

  function automatic logic [31:0] merge(input logic [31:0] old, input logic [31:0] wdata, input logic [3:0] be);
    return {
      be[3] ? wdata[31:24] : old[31:24],
      be[2] ? wdata[23:16] : old[23:16],
      be[1] ? wdata[15:8] : old[15:8],
      be[0] ? wdata[7:0] : old[7:0]
    };
  endfunction

  // Functional lockstep (tb_main.cpp --writes FILE; docs/cv32e40p.md): every register write
  // and every byte the data port writes, in program order per stream. A register write is
  // recorded when it is final: the write port of the WB stage (loads) once the response is
  // complete (WB ready, not the first half of a split access), the ALU write port (everything
  // else) in the cycle its instruction leaves EX; x0 never. The WB write is the older
  // instruction's, so it is recorded first.
  logic writes_on;
  initial writes_on = tb_writes_on() != 0;
  wire wb_we = top_i.core_i.ex_stage_i.regfile_we_wb_o && top_i.core_i.ex_stage_i.wb_ready_i &&
      !top_i.core_i.ex_stage_i.data_misaligned_ex_i;
  wire [5:0] wb_waddr = top_i.core_i.ex_stage_i.regfile_waddr_wb_o;
  wire [31:0] wb_wdata = top_i.core_i.ex_stage_i.regfile_wdata_wb_o;
  wire alu_we = top_i.core_i.ex_stage_i.regfile_alu_we_fw_o && top_i.core_i.ex_stage_i.ex_valid_o;
  wire [5:0] alu_waddr = top_i.core_i.ex_stage_i.regfile_alu_waddr_fw_o;
  wire [31:0] alu_wdata = top_i.core_i.ex_stage_i.regfile_alu_wdata_fw_o;
  always_ff @(posedge clk_i) begin
    if (writes_on && rst_ni) begin
      if (wb_we && wb_waddr != 6'd0) tb_write(1, {26'h0, wb_waddr}, wb_wdata);
      if (alu_we && alu_waddr != 6'd0) tb_write(1, {26'h0, alu_waddr}, alu_wdata);
      if (data_gnt && data_we)
        for (int unsigned k = 0; k < 4; k++)
          if (data_be[k]) tb_write(2, {24'h0, data_wdata[8*k+:8]}, {data_addr[31:2], 2'b00} + k);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      instr_rvalid <= 1'b0;
      data_rvalid <= 1'b0;
      acc_late_q <= '0;
      pc_ex <= 32'h0;
      guard_lo <= 32'h0;
      guard_hi <= 32'h0;
    end else begin
      // instruction port: only code is fetched; the prefetcher runs ahead sequentially, so a
      // fetch outside [ROM_BASE, RAM_BASE) means a jump or trap there (a NULL function
      // pointer, a trap before start-up set mtvec, a corrupted return address)
      instr_rvalid <= instr_req;
      if (instr_req) begin
        if (instr_addr >= ROM_BASE && instr_addr < rom_end) instr_rdata <= mem[instr_addr[22:2]];
        else tb_fault(FAULT_FETCH, instr_addr, pc_ex);
      end
      if (id_leaves) pc_ex <= pc_id;
      // data port
      data_rvalid <= data_gnt;
      acc_late_q <= data_gnt && !data_we && !(|acc_bad) ? acc_sel & ACC_RLATE : '0;
      if (data_gnt) begin
        if (data_addr >= RAM_BASE && data_addr < mem_end) begin
          if (data_we) begin
            if (data_addr < guard_hi && data_addr >= guard_lo) tb_fault(FAULT_STACK, data_addr, pc_ex);
            mem[data_addr[22:2]] <= merge(mem[data_addr[22:2]], data_wdata, data_be);
          end else begin
            data_rdata <= mem[data_addr[22:2]];
          end
        end else if (data_addr >= ROM_BASE && data_addr < rom_end) begin
          if (data_we) tb_fault(FAULT_ROM_WRITE, data_addr, pc_ex);
          else data_rdata <= mem[data_addr[22:2]];
        end else if (data_addr[31:5] == DEV_BASE[31:5]) begin
          unique case (data_addr[4:2])
            3'd0: if (data_we) tb_console({24'h0, data_wdata[7:0]});
            3'd1: if (data_we) tb_exit(data_wdata);
            3'd2: if (!data_we) data_rdata <= tb_input();
            3'd3: if (data_we) guard_lo <= data_wdata;
            3'd4: if (data_we) guard_hi <= data_wdata;
            default: tb_fault(FAULT_BUS, data_addr, pc_ex);
          endcase
        end else if (|acc_sel && !(|acc_bad)) begin
          if (!data_we) data_rdata <= acc_rdata_sel;
        end else begin
          tb_fault(FAULT_BUS, data_addr, pc_ex);
        end
      end
    end
  end
endmodule
