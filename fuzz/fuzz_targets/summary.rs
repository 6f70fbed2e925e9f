//! Summary loading: a summary file from another machine is untrusted input. Any bytes are a
//! summary whose counts agree, or one error, never a panic; an accepted one writes back to the
//! same summary.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warsweep::output::summary::Summary;

fuzz_target!(|data: &[u8]| {
    let Ok(summary) = serde_json::from_slice::<Summary>(data) else {
        return;
    };
    if let Ok(acc) = summary.accumulator() {
        let again = Summary::new(
            &summary.setting(),
            summary.seeds,
            &acc,
            summary.elapsed_seconds,
        );
        assert_eq!(again.games, summary.games);
        assert_eq!(again.wins, summary.wins);
        assert_eq!(again.records, summary.records);
        let _ = summary.table();
    }
});
