//! Hunt reports: a report from another machine (`--start`, `--join`) is untrusted input. Any
//! bytes are a report whose deals are deals of its setting, or one error, never a panic; an
//! accepted one writes back to the same report and joins alone into itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warsweep::hunt::Report;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(report) = Report::from_json(text) else {
        return;
    };
    let again = Report::from_json(&report.to_json()).expect("reads back");
    assert_eq!(again, report);
    let _ = report.deals();
    let _ = report.table();
    if let Ok(joined) = Report::join(std::slice::from_ref(&report)) {
        assert_eq!(joined.games(), report.games());
    }
});
