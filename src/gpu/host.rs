//! The kernel built for the CPU by the host's C++ compiler (`c++`), which the tests compare
//! with the library's own sweeps: the code that runs on a GPU, checked where there is none.

use super::plan::{KERNEL, PRELUDE};
use super::{DeviceError, Launch, Plan, Walker, PER_THREAD};
use std::path::{Path, PathBuf};
use std::process::Command;

/// The kernel of one plan, compiled for this machine.
pub(crate) struct Host {
    exe: PathBuf,
    /// Games listed that a launch has room for.
    pub(crate) capacity: usize,
    /// Deals a sweep walks in one window.
    pub(crate) window: u64,
    /// Games the kernel counted itself, games it listed with their results, deals it handed
    /// back, and launches, over every walk.
    pub(crate) counted: u64,
    pub(crate) listed: u64,
    pub(crate) handed: u64,
    pub(crate) launches: u64,
    _dir: tempfile::TempDir,
}

/// Writes the kernel's files into `dir` as a compiler reads them: `kernel.cu` as it is, its
/// prelude as `prelude.h`, and `name`, which holds `first`, then includes the kernel, then
/// holds `last`; so that a compiler's errors name `kernel.cu`'s own lines.
fn write_sources(dir: &Path, plan: &Plan, name: &str, first: &str, last: &str) -> PathBuf {
    std::fs::write(dir.join("kernel.cu"), KERNEL).expect("the kernel written");
    std::fs::write(dir.join(PRELUDE), &plan.prelude).expect("the prelude written");
    let main = dir.join(name);
    let text = format!("{first}\n#include \"kernel.cu\"\n{last}");
    std::fs::write(&main, text).expect("the source written");
    main
}

impl Host {
    /// Compiles `plan`'s kernel with `host.cpp`'s driver.
    pub(crate) fn build(plan: &Plan) -> Host {
        Host::build_with(plan, &[])
    }

    /// [`Host::build`] with the compiler's `options` too (such as `-DWS_DEAL_EVERY=1`).
    pub(crate) fn build_with(plan: &Plan, options: &[&str]) -> Host {
        match Host::try_build(plan, options) {
            Ok(host) => host,
            Err(why) => panic!("the kernel does not compile for the CPU:\n{why}"),
        }
    }

    /// [`Host::build_with`], or the compiler's errors.
    pub(crate) fn try_build(plan: &Plan, options: &[&str]) -> Result<Host, String> {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let source = write_sources(dir.path(), plan, "walk.cpp", "", include_str!("host.cpp"));
        let exe = dir.path().join("walk");
        let built = Command::new("c++")
            .args(["-O2", "-std=c++14", "-Wall", "-Werror"])
            .args(options)
            .arg("-o")
            .arg(&exe)
            .arg(&source)
            .output()
            .expect("a C++ compiler (c++) on the PATH");
        if !built.status.success() {
            return Err(String::from_utf8_lossy(&built.stderr).into_owned());
        }
        Ok(Host {
            exe,
            capacity: super::CAPACITY,
            window: plan.window,
            counted: 0,
            listed: 0,
            handed: 0,
            launches: 0,
            _dir: dir,
        })
    }
}

impl Host {
    /// The executable: `FIRST COUNT PER_THREAD CAPACITY` walks, as `host.cpp` says.
    pub(crate) fn exe(&self) -> &Path {
        &self.exe
    }
}

impl Walker for Host {
    fn walk(&mut self, first: u64, count: u64, least: u64) -> Result<Launch, DeviceError> {
        let args = [first, count, PER_THREAD, self.capacity as u64, least];
        let out = Command::new(&self.exe)
            .args(args.map(|n| n.to_string()))
            .output()
            .map_err(|e| DeviceError::Failed(e.to_string()))?;
        if !out.status.success() {
            let why = String::from_utf8_lossy(&out.stderr);
            return Err(DeviceError::Failed(format!(
                "the kernel's walk failed: {why}"
            )));
        }
        let text = String::from_utf8(out.stdout).expect("numbers");
        let mut lines = text.lines().map(|line| {
            line.split_whitespace()
                .map(|n| n.parse::<u64>().expect("a number"))
                .collect::<Vec<u64>>()
        });
        let tallies = lines.next().expect("the tallies");
        let games = tallies[super::plan::LISTED] as usize;
        self.launches += 1;
        let listed = lines.next().unwrap_or_default();
        let listed = (games <= self.capacity).then(|| {
            assert_eq!(listed.len(), 2 * games, "every game listed is printed");
            self.counted += tallies[super::plan::GAMES];
            let handed = listed.chunks(2);
            let handed = handed.filter(|pair| super::plan::listed_result(pair[1]).is_none());
            let handed = handed.count() as u64;
            self.handed += handed;
            self.listed += games as u64 - handed;
            listed
        });
        Ok(Launch { tallies, listed })
    }

    fn capacity(&self) -> usize {
        self.capacity
    }

    fn window(&self) -> u64 {
        self.window
    }
}

/// What NVRTC provides and clang's CUDA front end lacks without CUDA's headers: the qualifiers
/// and the few intrinsics the kernel calls, as clang's NVPTX builtins.
const CLANG_SHIM: &str = r#"
#define __CUDACC__ 1
#include <__clang_cuda_builtin_vars.h>
#define __forceinline__ __attribute__((always_inline))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
__device__ inline unsigned long long atomicAdd(unsigned long long *p, unsigned long long v) {
    return __nvvm_atom_add_gen_ll((long long *)p, (long long)v);
}
__device__ inline unsigned atomicAdd(unsigned *p, unsigned v) {
    return __nvvm_atom_add_gen_i((int *)p, (int)v);
}
__device__ inline unsigned long long atomicMax(unsigned long long *p, unsigned long long v) {
    return __nvvm_atom_max_gen_ull(p, v);
}
__device__ inline int __ffsll(long long x) { return __builtin_ffsll(x); }
__device__ inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__device__ inline unsigned long long __umul64hi(unsigned long long a, unsigned long long b) {
    return __nvvm_mulhi_ull(a, b);
}
"#;

/// Compiles `plan`'s kernel as CUDA for a GPU (PTX for sm_80) with clang, the GPU's side of
/// the source checked where there is no GPU; [`None`] where clang is not installed.
pub(crate) fn compile_for_a_gpu(plan: &Plan) -> Option<Result<(), String>> {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let source = write_sources(dir.path(), plan, "walk.cu", CLANG_SHIM, "");
    let built = Command::new("clang")
        .args([
            "-x",
            "cuda",
            "--cuda-gpu-arch=sm_80",
            "--cuda-device-only",
            "-nocudainc",
        ])
        .args(["-nocudalib", "-std=c++14", "-Wall", "-Werror", "-S", "-o"])
        .arg(dir.path().join("walk.ptx"))
        .arg(&source)
        .output()
        .ok()?;
    if !built.status.success() {
        return Some(Err(String::from_utf8_lossy(&built.stderr).into_owned()));
    }
    // The launch's entry point is there: the GPU's side was compiled, not the CPU's.
    let ptx = std::fs::read_to_string(dir.path().join("walk.ptx")).expect("the PTX written");
    Some(match ptx.contains(".entry ws_walk(") {
        true => Ok(()),
        false => Err("the PTX has no entry point ws_walk".to_string()),
    })
}
