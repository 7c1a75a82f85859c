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
//   0x10010000-0x10013fff  the NTT unit (hw/accel/ntt/ntt_unit.sv), only when built with
//                          +define+PQLAB_NTT_ACC (docs/accel.md, "NTT unit"): its registers
//                          and coefficient memories; a load of its WAIT register is not
//                          granted while the unit is busy (the core stalls until it is done)
// Anything else is a bus fault. Faults, output and exit go through DPI functions of
// tb_main.cpp, which prints the '#fault' line and ends the run.
module tb_top #(
    parameter int unsigned FPU = 1,  // the F extension (fpnew); -GFPU=0 builds the core without it
    parameter int unsigned MEM_WORDS = 32'h0020_0000,  // 8 MiB
    parameter int unsigned ROM_BASE  = 32'h0000_1000,
    parameter int unsigned RAM_BASE  = 32'h0020_0000,
    parameter int unsigned DEV_BASE  = 32'h1000_0000
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
      .data_rdata_i(data_rdata),
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

`ifdef PQLAB_NTT_ACC
  // the NTT unit: a slave on the data port at NTT_BASE; a WAIT load waits for the grant
  localparam logic [31:0] NTT_BASE = 32'h1001_0000;
  wire ntt_sel = data_addr[31:14] == NTT_BASE[31:14];
  logic [31:0] ntt_rdata;
  logic ntt_busy, ntt_err;
  wire ntt_stall = ntt_sel && !data_we && data_addr[13:0] == 14'h000c && ntt_busy;
  assign data_gnt = data_req && !ntt_stall;
  ntt_unit ntt_i (
      .clk_i(clk_i),
      .rst_ni(rst_ni),
      .req_i(data_gnt && ntt_sel),
      .we_i(data_we),
      .addr_i(data_addr[13:0]),
      .wdata_i(data_wdata),
      .rdata_o(ntt_rdata),
      .busy_o(ntt_busy),
      .err_o(ntt_err)
  );
`else
  assign data_gnt = data_req;
`endif

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

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      instr_rvalid <= 1'b0;
      data_rvalid <= 1'b0;
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
`ifdef PQLAB_NTT_ACC
        end else if (ntt_sel) begin
          // word accesses only; a refused request (unknown register, a memory window or
          // CTRL while busy, a bad operation) is a bus fault
          if (ntt_err || data_be != 4'hf) tb_fault(FAULT_BUS, data_addr, pc_ex);
          else if (!data_we) data_rdata <= ntt_rdata;
`endif
        end else if (data_addr[31:5] == DEV_BASE[31:5]) begin
          unique case (data_addr[4:2])
            3'd0: if (data_we) tb_console({24'h0, data_wdata[7:0]});
            3'd1: if (data_we) tb_exit(data_wdata);
            3'd2: if (!data_we) data_rdata <= tb_input();
            3'd3: if (data_we) guard_lo <= data_wdata;
            3'd4: if (data_we) guard_hi <= data_wdata;
            default: tb_fault(FAULT_BUS, data_addr, pc_ex);
          endcase
        end else begin
          tb_fault(FAULT_BUS, data_addr, pc_ex);
        end
      end
    end
  end
endmodule
