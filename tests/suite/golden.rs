//! Every file of `tests/data/golden/` (the shared reference results, copied), replayed through
//! the library and compared byte for byte.

use warsweep::Engine;
use warsweep::GameRow;
use warsweep::Shuffle;
use warsweep::{Deal, Deck, Gather, Preset, Ranking, Rules, Settings};

use crate::common::golden_dir;

/// The setting a golden file's name describes: `PRESET[.Np][.GATHER].SHUFFLE[.fromSTART].csv`.
fn setting(name: &str) -> (Rules, Shuffle) {
    let stem = name.strip_suffix(".csv").unwrap();
    let mut preset = None;
    let mut players = None;
    let mut gather = None;
    let mut shuffle = None;
    for part in stem.split('.') {
        if let Ok(p) = part.parse::<Preset>() {
            preset = Some(p);
        } else if let Ok(g) = part.parse::<Gather>() {
            gather = Some(g);
        } else if let Ok(s) = part.parse::<Shuffle>() {
            shuffle = Some(s);
        } else if let Some(n) = part.strip_suffix('p') {
            players = Some(n.parse().unwrap());
        } else {
            assert!(part.starts_with("from"), "unknown part {part} in {name}");
        }
    }
    let rules = Settings::new(preset.unwrap())
        .players(players)
        .gather(gather)
        .build()
        .unwrap();
    (rules, shuffle.unwrap())
}

/// The setting the sweep flags of `variants/FLAGS` describe.
fn setting_of_flags(flags: &str) -> (Rules, Shuffle, Vec<u64>) {
    let words: Vec<&str> = flags.split_whitespace().collect();
    let preset = words
        .iter()
        .position(|&w| w == "--rules")
        .map_or(Preset::Shortened, |i| {
            words[i + 1].parse::<Preset>().unwrap()
        });
    let mut knobs = Settings::new(preset);
    let mut shuffle = Shuffle::Lcg;
    let mut seeds = Vec::new();
    for pair in words.chunks(2) {
        let value = pair[1];
        match pair[0] {
            "--rules" => {}
            "--deck" => knobs = knobs.deck(Deck::parse(value).unwrap()),
            "--players" => knobs = knobs.players(value.parse::<usize>().unwrap()),
            "--face-down" => knobs = knobs.face_down(value.parse::<usize>().unwrap()),
            "--gather" => knobs = knobs.gather(value.parse::<Gather>().unwrap()),
            "--deal" => knobs = knobs.deal(value.parse::<Deal>().unwrap()),
            "--ranking" => knobs = knobs.ranking(value.parse::<Ranking>().unwrap()),
            "--shuffle" => shuffle = value.parse::<Shuffle>().unwrap(),
            "--seeds" => {
                let (a, b) = value.split_once("..").unwrap();
                seeds = (a.parse().unwrap()..b.parse().unwrap()).collect();
            }
            other => panic!("unknown flag {other} in FLAGS"),
        }
    }
    (knobs.build().unwrap(), shuffle, seeds)
}

/// The per-game CSV the library gives for the sweep flags of a `FLAGS` line.
fn library_csv(flags: &str) -> String {
    let (rules, shuffle, seeds) = setting_of_flags(flags);
    let mut engine = Engine::new(rules);
    let mut writer = csv::Writer::from_writer(Vec::new());
    for seed in seeds {
        writer
            .serialize(GameRow::new(
                seed,
                &engine.play_seed(shuffle, seed).unwrap(),
            ))
            .unwrap();
    }
    String::from_utf8(writer.into_inner().unwrap()).unwrap()
}

#[test]
fn every_variant_golden_file_matches_the_library() {
    let dir = golden_dir().join("variants");
    let flags =
        std::fs::read_to_string(dir.join("FLAGS")).expect("tests/data/golden/variants/FLAGS");
    let mut files = 0;
    for line in flags.lines().filter(|l| !l.trim().is_empty()) {
        let (name, flags) = line.split_once('|').unwrap();
        let expected = std::fs::read_to_string(dir.join(name)).unwrap();
        assert_eq!(library_csv(flags), expected, "{name}");
        files += 1;
    }
    assert_eq!(files, 9, "every variant file was checked");
}

#[test]
fn every_golden_file_matches_the_library() {
    let mut files = 0;
    for entry in std::fs::read_dir(golden_dir()).expect("tests/data/golden") {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        if !name.ends_with(".csv") || path.is_dir() {
            continue;
        }
        let (rules, shuffle) = setting(&name);
        let expected = std::fs::read_to_string(&path).unwrap();
        let mut engine = Engine::new(rules);
        let mut writer = csv::Writer::from_writer(Vec::new());
        for line in expected.lines().skip(1) {
            let seed: u64 = line.split(',').next().unwrap().parse().unwrap();
            writer
                .serialize(GameRow::new(
                    seed,
                    &engine.play_seed(shuffle, seed).unwrap(),
                ))
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

/// The rules of the literature (`literature/FLAGS`: the loser-first and pair-first gathers, the
/// cyclic ranking), through the binary (1 and 2 threads) and the library, byte for byte.
#[test]
fn literature_golden_files_match() {
    let dir = golden_dir().join("literature");
    let flags = std::fs::read_to_string(dir.join("FLAGS")).expect("literature/FLAGS");
    let mut matched = 0;
    for line in flags.lines().filter(|l| !l.trim().is_empty()) {
        let (name, flags) = line.split_once('|').unwrap();
        let args: Vec<&str> = flags.split_whitespace().collect();
        let expected = std::fs::read_to_string(dir.join(name)).unwrap();
        for threads in ["1", "2"] {
            let out = crate::common::warsweep()
                .arg("sweep")
                .args(&args)
                .args(["--csv", "-", "-q", "--threads", threads])
                .output()
                .unwrap();
            assert!(out.status.success(), "{name}");
            assert_eq!(String::from_utf8(out.stdout).unwrap(), expected, "{name}");
        }
        assert_eq!(library_csv(flags), expected, "{name}");
        matched += 1;
    }
    assert_eq!(matched, 4);
}
