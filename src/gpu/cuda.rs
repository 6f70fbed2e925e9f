//! The kernel on an NVIDIA GPU, through cudarc: the driver and NVRTC are loaded at run time, so
//! a build with the `gpu` feature starts on any machine and says when it finds no GPU.

use super::{Launch, Plan, Walker, CAPACITY, PER_THREAD};
use cudarc::driver::PushKernelArg;
use cudarc::driver::{CudaContext, CudaFunction, CudaSlice, CudaStream, LaunchConfig};
use cudarc::nvrtc::{compile_ptx_with_opts, CompileOptions, Ptx};
use std::sync::Arc;

/// Threads a block: the histograms are shared by a block's threads.
const BLOCK: u32 = 256;

/// Why NVRTC could not be used.
const NO_NVRTC: &str = "NVRTC (libnvrtc.so, from the CUDA toolkit) was not found: install the CUDA toolkit or add its lib64 folder to LD_LIBRARY_PATH";

/// `plan`'s kernel compiled by NVRTC into PTX for GPUs of compute capability `major.minor`.
/// It needs NVRTC alone, not a driver or a GPU, so tests compile it on any machine with NVRTC.
pub(crate) fn compile(plan: &Plan, major: i32, minor: i32) -> Result<Ptx, String> {
    // SAFETY: the call only tries to load the shared library (dlopen) and reports whether it
    // could; nothing is called through it yet.
    if !unsafe { cudarc::nvrtc::sys::is_culib_present() } {
        return Err(NO_NVRTC.to_string());
    }
    // NVRTC takes the architecture as a static string; one plan is compiled per sweep.
    let arch: &'static str = Box::leak(format!("sm_{major}{minor}").into_boxed_str());
    let mut options = vec!["-std=c++14".to_string()];
    if let Some(every) = deal_every(std::env::var_os("WARSWEEP_GPU_DEAL_EVERY").as_deref())? {
        options.push(format!("-DWS_DEAL_EVERY={every}"));
    }
    let options = CompileOptions {
        arch: Some(arch),
        options,
        ..CompileOptions::default()
    };
    compile_ptx_with_opts(&plan.source, options)
        .map_err(|e| format!("the kernel did not compile for {arch}: {e}"))
}

/// The rounds between a thread's deal points when the environment sets them (`text`, from
/// `WARSWEEP_GPU_DEAL_EVERY`, for timing the kernel; the counts do not depend on it).
fn deal_every(text: Option<&std::ffi::OsStr>) -> Result<Option<u32>, String> {
    let Some(text) = text else {
        return Ok(None);
    };
    match text.to_str().and_then(|t| t.parse::<u32>().ok()) {
        Some(every) if every >= 1 => Ok(Some(every)),
        _ => Err(format!(
            "WARSWEEP_GPU_DEAL_EVERY must be a whole number of rounds from 1, not {text:?}"
        )),
    }
}

/// A GPU with one plan's kernel loaded, and its buffers.
pub(crate) struct Cuda {
    stream: Arc<CudaStream>,
    walk: CudaFunction,
    tallies: CudaSlice<u64>,
    deferred: CudaSlice<u64>,
}

impl Cuda {
    /// The first GPU of this machine with `plan`'s kernel compiled for it.
    pub(crate) fn open(plan: &Plan) -> Result<Cuda, String> {
        // SAFETY: the call only tries to load the shared library (dlopen) and reports whether
        // it could; nothing is called through it yet.
        if !unsafe { cudarc::driver::sys::is_culib_present() } {
            return Err("no NVIDIA driver was found (libcuda.so): sweep on the CPU, or on a machine with an NVIDIA GPU".to_string());
        }
        fn failed(what: &'static str) -> impl Fn(cudarc::driver::DriverError) -> String {
            move |e| format!("{what}: {e}")
        }
        let ctx = CudaContext::new(0).map_err(failed("no GPU could be opened"))?;
        let (major, minor) = ctx
            .compute_capability()
            .map_err(failed("the GPU did not answer"))?;
        let ptx = compile(plan, major, minor)?;
        let module = ctx
            .load_module(ptx)
            .map_err(failed("the kernel did not load"))?;
        let walk = module
            .load_function("ws_walk")
            .map_err(failed("the kernel has no walk"))?;
        let stream = ctx.default_stream();
        let tallies = stream
            .alloc_zeros::<u64>(super::plan::TALLIES)
            .map_err(failed("no GPU memory for the tallies"))?;
        let deferred = stream
            .alloc_zeros::<u64>(CAPACITY)
            .map_err(failed("no GPU memory for the deals handed back"))?;
        Ok(Cuda {
            stream,
            walk,
            tallies,
            deferred,
        })
    }
}

impl Walker for Cuda {
    fn walk(&mut self, first: u64, count: u64) -> Result<Launch, String> {
        let failed = |e: cudarc::driver::DriverError| format!("the GPU failed: {e}");
        self.stream
            .memset_zeros(&mut self.tallies)
            .map_err(failed)?;
        let threads = count.div_ceil(PER_THREAD);
        let blocks = u32::try_from(threads.div_ceil(u64::from(BLOCK)))
            .map_err(|_| "a launch of more blocks than a grid holds".to_string())?;
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
            .arg(&mut self.deferred)
            .arg(&capacity);
        // SAFETY: the arguments are those `ws_walk` takes, in its order and types (three u64,
        // two pointers to u64, one u64); `tallies` holds `TALLIES` counts, the layout the
        // plan's prelude gives the kernel, and `deferred` holds `capacity` seeds, past which
        // the kernel writes none. Every thread's deals lie within `first..first + count`,
        // below the deck's deal count (the sweep checked its seeds).
        unsafe { launch.launch(config) }.map_err(failed)?;
        let tallies = self.stream.clone_dtoh(&self.tallies).map_err(failed)?;
        let handed = tallies[super::plan::DEFERRED] as usize;
        let deferred = match handed <= CAPACITY {
            true => Some(
                self.stream
                    .clone_dtoh(&self.deferred.slice(..handed))
                    .map_err(failed)?,
            ),
            false => None,
        };
        Ok(Launch { tallies, deferred })
    }
}

#[cfg(test)]
mod tests {
    use super::deal_every;
    use std::ffi::OsStr;

    /// A spacing of deal points is a whole number of rounds from 1; anything else is refused
    /// in one sentence that names the variable.
    #[test]
    fn deal_points_are_a_whole_number_of_rounds() {
        assert_eq!(deal_every(None), Ok(None));
        assert_eq!(deal_every(Some(OsStr::new("16"))), Ok(Some(16)));
        let refused = ["0", "-3", "eight", "", "1.5"];
        for text in refused {
            let why = deal_every(Some(OsStr::new(text))).unwrap_err();
            assert!(why.starts_with("WARSWEEP_GPU_DEAL_EVERY must be"), "{why}");
            assert!(!why.contains('\n'));
        }
        assert_eq!(refused.len(), 5);
    }
}
