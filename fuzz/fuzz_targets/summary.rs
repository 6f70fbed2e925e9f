//! Summary loading: a summary file from another machine is untrusted input. Any bytes are a
//! summary whose counts agree, or one error, never a panic; an accepted one merges alone into
//! itself and writes back to the same summary.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warsweep::Summary;

fuzz_target!(|data: &[u8]| {
    let Ok(summary) = serde_json::from_slice::<Summary>(data) else {
        return;
    };
    // Merging checks a summary's counts against its histograms, as reading one does.
    if let Ok(again) = Summary::merge(std::slice::from_ref(&summary)) {
        assert_eq!(again.games(), summary.games());
        assert_eq!(again.outcomes(), summary.outcomes());
        assert_eq!(again.seeds(), summary.seeds());
        let written = serde_json::from_str::<Summary>(&again.to_json()).expect("reads back");
        assert_eq!(written, again);
        let _ = summary.table();
    }
});
