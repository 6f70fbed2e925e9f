//! Every file of ../shared/golden, replayed through the library and compared byte for byte.

use std::path::PathBuf;
use warsweep::deal::Shuffle;
use warsweep::engine::Engine;
use warsweep::record::GameRow;
use warsweep::rules::{Gather, Preset, Rules};

/// The folder of reference results shipped beside the repository.
pub fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/golden")
}

/// The setting a golden file's name describes: `PRESET[.Np][.GATHER].SHUFFLE[.fromSTART].csv`.
fn setting(name: &str) -> (Rules, Shuffle) {
    let stem = name.strip_suffix(".csv").unwrap();
    let mut preset = None;
    let mut players = None;
    let mut gather = None;
    let mut shuffle = None;
    for part in stem.split('.') {
        if let Some(p) = Preset::from_name(part) {
            preset = Some(p);
        } else if let Some(g) = Gather::from_name(part) {
            gather = Some(g);
        } else if let Some(s) = Shuffle::from_name(part) {
            shuffle = Some(s);
        } else if let Some(n) = part.strip_suffix('p') {
            players = Some(n.parse().unwrap());
        } else {
            assert!(part.starts_with("from"), "unknown part {part} in {name}");
        }
    }
    let rules = Rules::new(preset.unwrap(), players, gather).unwrap();
    (rules, shuffle.unwrap())
}

#[test]
fn every_golden_file_matches_the_library() {
    let mut files = 0;
    for entry in std::fs::read_dir(golden_dir()).expect("../shared/golden is beside the repo") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !name.ends_with(".csv") {
            continue;
        }
        let (rules, shuffle) = setting(&name);
        let expected = std::fs::read_to_string(&path).unwrap();
        let mut engine = Engine::new(rules);
        let mut writer = csv::Writer::from_writer(Vec::new());
        for line in expected.lines().skip(1) {
            let seed: u64 = line.split(',').next().unwrap().parse().unwrap();
            writer
                .serialize(GameRow::new(seed, &engine.play_seed(shuffle, seed)))
                .unwrap();
        }
        let got = String::from_utf8(writer.into_inner().unwrap()).unwrap();
        for (g, e) in got.lines().zip(expected.lines()) {
            assert_eq!(g, e, "{name}");
        }
        assert_eq!(got, expected, "{name}");
        files += 1;
    }
    assert_eq!(files, 9, "every golden file was checked");
}
