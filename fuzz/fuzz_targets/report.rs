//! Hunt reports and checkpoints: a report from another machine (`--start`, `--join`) and a
//! checkpoint left by a killed run (`--resume`) are untrusted input. Any bytes are a report
//! whose deals and improvements replay to what it says, a checkpoint whose report is one, or
//! one error, never a panic; an accepted one writes back to the same, joins alone into itself
//! when it is every stream of its hunt, and a hunt resumes or continues from it or refuses.
#![no_main]

use libfuzzer_sys::fuzz_target;
use warsweep::hunt::{Checkpoint, Report};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(saved) = Checkpoint::from_json(text) {
        let again = Checkpoint::from_json(&saved.to_json()).expect("reads back");
        assert_eq!(again, saved);
    }
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
    // Two copies of one report are never one hunt: a stream twice.
    assert!(Report::join(&[report.clone(), report.clone()]).is_err());
    // A hunt of the report's own setting continues it, or starts from its deals, or refuses.
    if let Ok(hunt) = report.hunt() {
        let _ = hunt.games(Some(1)).continuing(&report).map(|h| h.check());
    }
});
