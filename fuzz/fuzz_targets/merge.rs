//! `merge`: two summaries cut from the input (at its first NUL byte) merge into one whose counts
//! add up, or are refused with one error, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warsweep::Summary;

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(2, |&b| b == 0);
    let (Some(a), Some(b)) = (parts.next(), parts.next()) else {
        return;
    };
    let (Ok(a), Ok(b)) = (
        serde_json::from_slice::<Summary>(a),
        serde_json::from_slice::<Summary>(b),
    ) else {
        return;
    };
    if let Ok(merged) = Summary::merge(&[a.clone(), b.clone()]) {
        assert_eq!(merged.games(), a.games() + b.games());
        Summary::merge(std::slice::from_ref(&merged)).expect("a merged summary is consistent");
        let _ = merged.table();
    }
});
