// SPDX-License-Identifier: MIT
//! Memory set-up of the Cortex-M7 estimate (`pqlab-sim --machine mps2-an500 --memory S`).
//!
//! `tcm` (the default): code and data in tightly coupled memory, no wait states, no
//! cache: the machine as the model was written for (docs/sim.md "Cortex-M7 model").
//!
//! `stm32f7` (`stm32f7-icache`: the data cache off; `stm32f7-nocache`: both caches off,
//! as at reset): an STM32F76x running from its embedded flash at 216 MHz with the Cortex-M7
//! L1 caches on, the set-up of ST's own STM32CubeF7 examples for the NUCLEO-F767ZI
//! (`SystemClock_Config`: PLL at 216 MHz, over-drive, `FLASH_LATENCY_7`;
//! `CPU_CACHE_Enable`: `SCB_EnableICache`, `SCB_EnableDCache`):
//! - code (addresses below 0x2000_0000) is fetched through the instruction cache: 16 KB
//!   (STM32F76x datasheet DS11532: "L1-cache: 16 Kbytes I/D cache"), 2-way set
//!   associative, 32-byte lines (Arm Cortex-M7 TRM DDI 0489, "Instruction cache": 2-way,
//!   line length 32 bytes); a miss reads the line from flash with 7 wait states (RM0410
//!   "Relation between CPU clock frequency and Flash memory read time": 7 WS for
//!   210 < HCLK <= 216 MHz at 2.7-3.6 V; one flash read returns 256 bits, a whole line)
//!   and stalls the core `FLASH_WS + 1` = 8 cycles (the access time in HCLK cycles;
//!   the rest of the line fill is taken to overlap with execution: assumed);
//! - data in the first 128 KB of RAM (0x2000_0000-0x2001_FFFF) is the F76x's DTCM (RM0410
//!   memory map: "DTCM-RAM 128 Kbytes"; the default linker scripts place .data, .bss
//!   there first): no wait states, no cache, as before;
//! - constants read from flash (below 0x2000_0000: tables, literal pools) and other data
//!   go through the data cache: 16 KB (DS11532), 4-way set associative,
//!   32-byte lines (Cortex-M7 TRM, "Data cache": 4-way), read and write allocate (the
//!   Armv7-M default memory map's SRAM region is write-back, write-allocate); a miss
//!   stalls the core `FLASH_MISS` cycles for flash and `SRAM_FILL` cycles for RAM (assumed: the AXI line fill from zero-wait-state
//!   SRAM, four 64-bit beats after the address phase; no published figure found);
//!   write-backs of dirty lines are not charged (the store buffer drains them);
//! - replacement: least recently used (assumed; the TRM's policy was not found).
//!
//! Not modelled: the ART accelerator (it serves the ITCM interface at 0x0020_0000,
//! which the default STM32CubeF7 linker scripts do not use: code at 0x0800_0000 via
//! AXIM), flash prefetch, the I-cache's streaming of sequential lines, write-back
//! costs, bus contention.

/// Flash wait states at 216 MHz (RM0410; STM32CubeF7 `FLASH_LATENCY_7`).
pub const FLASH_WS: u64 = 7;
/// Cycles the core waits for a line read from flash: the access time, WS + 1 HCLK cycles.
pub const FLASH_MISS: u64 = FLASH_WS + 1;
/// Cycles the core waits for a data line from AXI SRAM (assumed).
pub const SRAM_FILL: u64 = 6;
/// End of the F76x's DTCM, as mapped onto the machine's RAM.
pub const DTCM_END: u32 = 0x2002_0000;
pub const LINE_SHIFT: u32 = 5;

/// The memory set-ups: `Stm32f7` with the instruction and the data cache enabled or not
/// (the L1 caches are disabled at reset, Cortex-M7 TRM; firmware enables them with
/// CCR.IC / CCR.DC, as `SCB_EnableICache` / `SCB_EnableDCache` do).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Setup {
    Tcm,
    Stm32f7 {
        icache: bool,
        dcache: bool,
    },
    /// Cortex-M4 (mps2-an386): the memory blocks of pqm4's NUCLEO-L4R5ZI (timing/m4mem.rs)
    Stm32l4r5,
}

pub const SETUPS: &str = "tcm, stm32f7, stm32f7-icache, stm32f7-nocache, stm32l4r5";

impl Setup {
    pub fn parse(s: &str) -> Option<Setup> {
        match s {
            "tcm" => Some(Setup::Tcm),
            "stm32f7" => Some(Setup::Stm32f7 {
                icache: true,
                dcache: true,
            }),
            "stm32f7-icache" => Some(Setup::Stm32f7 {
                icache: true,
                dcache: false,
            }),
            "stm32f7-nocache" => Some(Setup::Stm32f7 {
                icache: false,
                dcache: false,
            }),
            "stm32l4r5" => Some(Setup::Stm32l4r5),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Setup::Tcm => "tcm",
            Setup::Stm32f7 {
                icache: true,
                dcache: true,
            } => "stm32f7",
            Setup::Stm32f7 { icache: true, .. } => "stm32f7-icache",
            Setup::Stm32f7 { dcache: false, .. } => "stm32f7-nocache",
            Setup::Stm32f7 { .. } => "stm32f7-dcache",
            Setup::Stm32l4r5 => "stm32l4r5",
        }
    }
}

/// A set-associative cache of line tags with least-recently-used replacement.
pub struct Cache {
    ways: usize,
    sets: u32,
    /// per set, `ways` tags (line address + 1; 0 = empty), most recently used first
    tags: Vec<u32>,
    pub misses: u64,
}

impl Cache {
    pub fn new(bytes: usize, ways: usize) -> Cache {
        let sets = (bytes >> LINE_SHIFT) / ways;
        Cache {
            ways,
            sets: sets as u32,
            tags: vec![0; sets * ways],
            misses: 0,
        }
    }

    /// Look up (and allocate) the line of `addr`: true on a hit.
    #[inline]
    pub fn access(&mut self, addr: u32) -> bool {
        let line = addr >> LINE_SHIFT;
        let set = (line % self.sets) as usize * self.ways;
        let t = line + 1;
        let w = &mut self.tags[set..set + self.ways];
        if w[0] == t {
            return true;
        }
        let pos = w.iter().position(|&x| x == t);
        let hit = pos.is_some();
        let k = pos.unwrap_or(self.ways - 1);
        w.copy_within(0..k, 1);
        w[0] = t;
        if !hit {
            self.misses += 1;
        }
        hit
    }
}

/// The memory system of the Cortex-M7 estimate under `Setup::Stm32f7`.
pub struct Memory {
    pub icache: Cache,
    pub dcache: Cache,
    /// line of the last instruction fetched
    last_line: u32,
}

impl Default for Memory {
    fn default() -> Self {
        Memory::new(true, true)
    }
}

/// Size and ways of the L1 caches (DS11532, Cortex-M7 TRM).
pub const ICACHE: (usize, usize) = (16 << 10, 2);
pub const DCACHE: (usize, usize) = (16 << 10, 4);

impl Memory {
    /// The memory system with the caches on or off; a cache that is off is one line
    /// (assumed: the bus interface keeps the last line read, so that sequential code
    /// and neighbouring data do not pay the access time twice).
    pub fn new(icache: bool, dcache: bool) -> Memory {
        let geo = |on: bool, g: (usize, usize)| if on { g } else { (1 << LINE_SHIFT, 1) };
        let (ib, iw) = geo(icache, ICACHE);
        let (db, dw) = geo(dcache, DCACHE);
        Memory {
            icache: Cache::new(ib, iw),
            dcache: Cache::new(db, dw),
            last_line: u32::MAX,
        }
    }

    /// Stall cycles of fetching the instruction at `pc`.
    #[inline]
    pub fn fetch(&mut self, pc: u32) -> u64 {
        let line = pc >> LINE_SHIFT;
        if line == self.last_line || pc >= 0x2000_0000 {
            return 0;
        }
        self.last_line = line;
        if self.icache.access(pc) {
            0
        } else {
            FLASH_MISS
        }
    }

    /// Stall cycles of a data access at `addr` (load or store single): DTCM and the
    /// device windows none; flash (constants, literal pools: below 0x2000_0000) and the
    /// other RAM through the data cache.
    #[inline]
    pub fn data(&mut self, addr: u32) -> u64 {
        if (0x2000_0000..DTCM_END).contains(&addr) || addr >= 0x4000_0000 {
            return 0;
        }
        if self.dcache.access(addr) {
            0
        } else if addr < 0x2000_0000 {
            FLASH_MISS
        } else {
            SRAM_FILL
        }
    }
}
