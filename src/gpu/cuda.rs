//! The kernel on an NVIDIA GPU, through cudarc: the driver and NVRTC are loaded at run time, so
//! a build with the `gpu` feature starts on any machine and says when it finds no GPU.

use super::plan::{KERNEL, PRELUDE};
use super::{DeviceError, Launch, Plan, Walker, CAPACITY, PER_THREAD};
use cudarc::driver::PushKernelArg;
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, LaunchConfig};
use cudarc::nvrtc::{result as nvrtc, sys as nvrtc_sys, Ptx};
use std::ffi::{c_char, c_int, CString};
use std::sync::Arc;

/// Threads a block: the histograms are shared by a block's threads.
const BLOCK: u32 = 256;

/// What NVRTC made of a plan for one GPU.
pub(crate) struct Compiled {
    /// What it was compiled for: `sm_XY`, the GPU's own architecture, or `compute_XY`, the
    /// newest one NVRTC knows below a GPU newer than itself.
    pub(crate) arch: String,
    /// The PTX (NVRTC's assembly), which a driver assembles for its GPU.
    pub(crate) ptx: String,
    /// The GPU's own code (a cubin), where NVRTC knows the GPU's architecture. A driver loads
    /// it even when it is older than NVRTC (within one CUDA major version), which it would
    /// refuse PTX from; [`None`] for a `compute_XY` compile, whose PTX the driver assembles.
    pub(crate) cubin: Option<Vec<u8>>,
}

impl Compiled {
    /// What the driver loads: the cubin, or the PTX where there is none.
    fn image(self) -> Ptx {
        match self.cubin {
            Some(cubin) => Ptx::from_binary(cubin),
            None => Ptx::from_src(self.ptx),
        }
    }
}

/// `plan`'s kernel compiled by NVRTC for GPUs of compute capability `major.minor`. It needs
/// NVRTC alone, not a driver or a GPU, so tests compile it on any machine with NVRTC.
pub(crate) fn compile(plan: &Plan, major: i32, minor: i32) -> Result<Compiled, DeviceError> {
    // SAFETY: the call only tries to load the shared library (dlopen) and reports whether it
    // could; nothing is called through it yet.
    if !unsafe { nvrtc_sys::is_culib_present() } {
        return Err(DeviceError::NoNvrtc);
    }
    let arch = architecture(&nvrtc_architectures()?, major, minor)?;
    let mut options = vec![
        "-std=c++14".to_string(),
        format!("--gpu-architecture={arch}"),
    ];
    if let Some(every) = deal_every(std::env::var_os("WARSWEEP_GPU_DEAL_EVERY").as_deref())? {
        options.push(format!("-DWS_DEAL_EVERY={every}"));
    }
    let program = Program::new(plan)?;
    program
        .compile(&options)
        .map_err(|log| DeviceError::Compile {
            arch: arch.clone(),
            log,
        })?;
    Ok(Compiled {
        ptx: program.ptx()?,
        cubin: match arch.starts_with("sm_") {
            true => Some(program.cubin()?),
            false => None,
        },
        arch,
    })
}

/// The architecture to compile for a GPU of compute capability `major.minor`, of those NVRTC
/// `knows` (as 90 for 9.0): the GPU's own, for a cubin; else the newest below it, as
/// `compute_XY`, whose PTX the driver assembles for the newer GPU (as CuPy does).
fn architecture(knows: &[c_int], major: i32, minor: i32) -> Result<String, DeviceError> {
    let wanted = major * 10 + minor;
    if knows.contains(&wanted) {
        return Ok(format!("sm_{wanted}"));
    }
    match knows.iter().filter(|&&arch| arch < wanted).max() {
        Some(below) => Ok(format!("compute_{below}")),
        None => Err(DeviceError::TooOld {
            nvrtc: nvrtc_version(),
            oldest: knows
                .iter()
                .min()
                .map_or("none".to_string(), |a| format!("{}.{}", a / 10, a % 10)),
            gpu: format!("{major}.{minor}"),
        }),
    }
}

/// The architectures this NVRTC compiles for, as 90 for `sm_90`.
fn nvrtc_architectures() -> Result<Vec<c_int>, DeviceError> {
    let failed = |e: nvrtc::NvrtcError| {
        DeviceError::Failed(format!("NVRTC did not list its architectures: {e}"))
    };
    let mut count: c_int = 0;
    // SAFETY: NVRTC writes one int through the pointer, which points at `count`.
    unsafe { nvrtc_sys::nvrtcGetNumSupportedArchs(&mut count) }
        .result()
        .map_err(failed)?;
    let mut archs: Vec<c_int> = vec![0; usize::try_from(count).unwrap_or(0)];
    // SAFETY: NVRTC writes `count` ints, the length of `archs`, which it has just reported.
    unsafe { nvrtc_sys::nvrtcGetSupportedArchs(archs.as_mut_ptr()) }
        .result()
        .map_err(failed)?;
    Ok(archs)
}

/// NVRTC's version, as `12.9`.
fn nvrtc_version() -> String {
    let (mut major, mut minor): (c_int, c_int) = (0, 0);
    // SAFETY: NVRTC writes one int through each pointer, which point at `major` and `minor`.
    match unsafe { nvrtc_sys::nvrtcVersion(&mut major, &mut minor) }.result() {
        Ok(()) => format!("{major}.{minor}"),
        Err(_) => "(of an unknown version)".to_string(),
    }
}

/// The CUDA version of the driver, as `12.4`.
fn driver_version() -> String {
    let mut version: c_int = 0;
    // SAFETY: the driver writes one int through the pointer, which points at `version`; the
    // library was found loadable before any call (`Cuda::open`).
    match unsafe { cudarc::driver::sys::cuDriverGetVersion(&mut version) }.result() {
        Ok(()) => format!("{}.{}", version / 1000, version % 1000 / 10),
        Err(_) => "(of an unknown version)".to_string(),
    }
}

/// One NVRTC program: the kernel's source with its prelude as the header it includes, so that
/// NVRTC's log names `kernel.cu`'s own lines; compiled once, then its PTX and cubin read.
struct Program {
    handle: nvrtc_sys::nvrtcProgram,
    /// The texts and names, which NVRTC may read until the program is destroyed.
    _texts: [CString; 4],
}

impl Program {
    fn new(plan: &Plan) -> Result<Program, DeviceError> {
        let c = |text: &str| {
            CString::new(text).map_err(|_| {
                DeviceError::Failed("the kernel's source holds a NUL byte".to_string())
            })
        };
        let texts = [c(KERNEL)?, c("kernel.cu")?, c(&plan.prelude)?, c(PRELUDE)?];
        let headers = [texts[2].as_ptr()];
        let names = [texts[3].as_ptr()];
        let mut handle = std::mem::MaybeUninit::uninit();
        // SAFETY: NVRTC writes the program's handle through the first pointer; the source, its
        // name, and the one header and its name are NUL-terminated strings that `texts` keeps
        // alive as long as the program, and the two arrays hold one pointer each, as counted.
        unsafe {
            nvrtc_sys::nvrtcCreateProgram(
                handle.as_mut_ptr(),
                texts[0].as_ptr(),
                texts[1].as_ptr(),
                1,
                headers.as_ptr(),
                names.as_ptr(),
            )
        }
        .result()
        .map_err(|e| DeviceError::Failed(format!("NVRTC did not take the kernel: {e}")))?;
        Ok(Program {
            // SAFETY: NVRTC wrote the handle, as its success says.
            handle: unsafe { handle.assume_init() },
            _texts: texts,
        })
    }

    /// Compiles the program with `options`; the error is NVRTC's log.
    fn compile(&self, options: &[String]) -> Result<(), String> {
        // SAFETY: `handle` was created by `nvrtcCreateProgram` and is destroyed only on drop.
        let compiled = unsafe { nvrtc::compile_program(self.handle, options) };
        compiled.map_err(|e| {
            // SAFETY: as above.
            let log = unsafe { nvrtc::get_program_log(self.handle) }.unwrap_or_default();
            format!("{e}\n{}", text(&log))
        })
    }

    /// The PTX of a compiled program.
    fn ptx(&self) -> Result<String, DeviceError> {
        // SAFETY: `handle` was created by `nvrtcCreateProgram`, compiled, and not yet destroyed.
        let ptx = unsafe { nvrtc::get_ptx(self.handle) }
            .map_err(|e| DeviceError::Failed(format!("NVRTC gave no PTX: {e}")))?;
        Ok(text(&ptx))
    }

    /// The cubin of a program compiled for an `sm_XY` architecture.
    fn cubin(&self) -> Result<Vec<u8>, DeviceError> {
        let failed =
            |e: nvrtc::NvrtcError| DeviceError::Failed(format!("NVRTC gave no cubin: {e}"));
        let mut size = 0usize;
        // SAFETY: `handle` is a compiled program not yet destroyed; NVRTC writes one usize
        // through the pointer, which points at `size`.
        unsafe { nvrtc_sys::nvrtcGetCUBINSize(self.handle, &mut size) }
            .result()
            .map_err(failed)?;
        let mut cubin = vec![0u8; size];
        // SAFETY: NVRTC writes `size` bytes, the length of `cubin`, which it has just reported.
        unsafe { nvrtc_sys::nvrtcGetCUBIN(self.handle, cubin.as_mut_ptr().cast::<c_char>()) }
            .result()
            .map_err(failed)?;
        Ok(cubin)
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        // SAFETY: `handle` was created by `nvrtcCreateProgram` and is destroyed here only.
        let _ = unsafe { nvrtc::destroy_program(self.handle) };
    }
}

/// NVRTC's text (a log, or PTX) up to its terminating NUL.
fn text(chars: &[c_char]) -> String {
    let bytes: Vec<u8> = chars
        .iter()
        .map(|&c| c as u8)
        .take_while(|&b| b != 0)
        .collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The rounds between a thread's deal points when the environment sets them (`text`, from
/// `WARSWEEP_GPU_DEAL_EVERY`, for timing the kernel; the counts do not depend on it).
fn deal_every(text: Option<&std::ffi::OsStr>) -> Result<Option<u32>, DeviceError> {
    let Some(text) = text else {
        return Ok(None);
    };
    match text.to_str().and_then(|t| t.parse::<u32>().ok()) {
        Some(every) if every >= 1 => Ok(Some(every)),
        _ => Err(DeviceError::DealEvery(text.to_string_lossy().into_owned())),
    }
}

/// A GPU with one plan's kernel loaded, and its buffers.
pub(crate) struct Cuda {
    stream: Arc<CudaStream>,
    walk: CudaFunction,
    tallies: CudaSlice<u64>,
    listed: CudaSlice<u64>,
    window: u64,
}

impl Cuda {
    /// The first GPU of this machine with `plan`'s kernel compiled for it.
    pub(crate) fn open(plan: &Plan) -> Result<Cuda, DeviceError> {
        // SAFETY: the call only tries to load the shared library (dlopen) and reports whether
        // it could; nothing is called through it yet.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err(DeviceError::NoDriver);
        }
        let failed = |e: cudarc::driver::DriverError| DeviceError::Failed(e.to_string());
        let ctx = CudaContext::new(0).map_err(|e| DeviceError::NoDevice(e.to_string()))?;
        let (major, minor) = ctx.compute_capability().map_err(failed)?;
        let compiled = compile(plan, major, minor)?;
        let arch = compiled.arch.clone();
        let module = ctx
            .load_module(compiled.image())
            .map_err(|e| DeviceError::Load {
                arch,
                why: e.to_string(),
                driver: driver_version(),
                nvrtc: nvrtc_version(),
            })?;
        let walk = module.load_function("ws_walk").map_err(failed)?;
        let stream = ctx.default_stream();
        let tallies = stream
            .alloc_zeros::<u64>(super::plan::TALLIES)
            .map_err(failed)?;
        let listed = stream.alloc_zeros::<u64>(2 * CAPACITY).map_err(failed)?;
        Ok(Cuda {
            stream,
            walk,
            tallies,
            listed,
            window: plan.window,
        })
    }
}

impl Walker for Cuda {
    fn walk(&mut self, first: u64, count: u64, least: u64) -> Result<Launch, DeviceError> {
        let failed = |e: cudarc::driver::DriverError| DeviceError::Failed(e.to_string());
        self.stream
            .memset_zeros(&mut self.tallies)
            .map_err(failed)?;
        let threads = count.div_ceil(PER_THREAD);
        let blocks = u32::try_from(threads.div_ceil(u64::from(BLOCK))).map_err(|_| {
            DeviceError::Failed("a launch of more blocks than a grid holds".to_string())
        })?;
        let config = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (BLOCK, 1, 1),
            shared_mem_bytes: 0,
        };
        let capacity = CAPACITY as u64;
        let mut launch = self.stream.launch_builder(&self.walk);
        launch
            .arg(&first)
            .arg(&count)
            .arg(&PER_THREAD)
            .arg(&mut self.tallies)
            .arg(&mut self.listed)
            .arg(&capacity)
            .arg(&least);
        // SAFETY: the arguments are those `ws_walk` takes, in its order and types (three u64,
        // two pointers to u64, two u64); `tallies` holds `TALLIES` counts, the layout the
        // plan's prelude gives the kernel, and `listed` holds `capacity` games of two numbers,
        // past which the kernel writes none. Every thread's deals lie within `first..first + count`,
        // below the deck's deal count (the sweep checked its seeds).
        unsafe { launch.launch(config) }.map_err(failed)?;
        let tallies = self.stream.clone_dtoh(&self.tallies).map_err(failed)?;
        let games = tallies[super::plan::LISTED] as usize;
        let listed = match games <= CAPACITY {
            true => Some(
                self.stream
                    .clone_dtoh(&self.listed.slice(..2 * games))
                    .map_err(failed)?,
            ),
            false => None,
        };
        Ok(Launch { tallies, listed })
    }

    fn window(&self) -> u64 {
        self.window
    }
}

#[cfg(test)]
mod tests {
    use super::{architecture, deal_every};
    use std::ffi::OsStr;

    /// A spacing of deal points is a whole number of rounds from 1; anything else is refused
    /// in one sentence that names the variable.
    #[test]
    fn deal_points_are_a_whole_number_of_rounds() {
        assert_eq!(deal_every(None), Ok(None));
        assert_eq!(deal_every(Some(OsStr::new("16"))), Ok(Some(16)));
        let refused = ["0", "-3", "eight", "", "1.5"];
        for text in refused {
            let why = deal_every(Some(OsStr::new(text))).unwrap_err().to_string();
            assert!(why.contains("WARSWEEP_GPU_DEAL_EVERY must be"), "{why}");
            assert!(!why.contains('\n'));
        }
    }

    /// A GPU that NVRTC knows gets its own code; a newer one the PTX of the newest architecture
    /// below it; one older than all of them a sentence (which names NVRTC's version: the test
    /// needs NVRTC, and says so where it cannot load it rather than panic inside cudarc).
    #[test]
    fn each_gpu_gets_the_code_its_driver_loads() {
        // SAFETY: the call only tries to load the shared library (dlopen) and reports whether
        // it could; nothing is called through it.
        if !unsafe { super::nvrtc_sys::is_culib_present() } {
            return crate::gpu::tests::skipped(
                "cuda::tests::each_gpu_gets_the_code_its_driver_loads",
                "NVRTC cannot be loaded (LD_LIBRARY_PATH should name the folder of libnvrtc)",
            );
        }
        let knows = [75, 80, 86, 89, 90, 100, 120];
        let cases = [
            ((9, 0), Ok("sm_90")),
            ((8, 9), Ok("sm_89")),
            ((12, 0), Ok("sm_120")),
            ((8, 7), Ok("compute_86")),
            ((12, 1), Ok("compute_120")),
            ((13, 0), Ok("compute_120")),
            (
                (7, 0),
                Err("compiles for GPUs of compute capability 7.5 and newer, and this GPU's is 7.0"),
            ),
        ];
        for ((major, minor), want) in cases {
            let got = architecture(&knows, major, minor).map_err(|e| e.to_string());
            let want = want.map_err(|e| format!("NVRTC {} {e}", super::nvrtc_version()));
            assert_eq!(got.as_deref(), want.as_deref());
        }
    }
}
