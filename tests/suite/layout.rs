//! The library's modules depend on each other in one direction: no two import each other, even
//! through others (a parent and its own submodules aside).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `src/output/summary.rs` -> `output::summary`; `src/engine/mod.rs` -> `engine`.
fn module_of(root: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(root).unwrap().with_extension("");
    let parts: Vec<String> = relative
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| p != "mod")
        .collect();
    parts.join("::")
}

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_modules_import_each_other_in_a_circle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&root, &mut files);
    // The binary's modules: `main` and the `cli` folder.
    let binary = |m: &str| m == "main" || m == "lib" || m == "cli" || m.starts_with("cli::");
    let modules: BTreeMap<String, PathBuf> = files
        .iter()
        .map(|f| (module_of(&root, f), f.clone()))
        .filter(|(m, _)| !binary(m))
        .collect();
    let related =
        |a: &str, b: &str| a.starts_with(&format!("{b}::")) || b.starts_with(&format!("{a}::"));
    let mut uses: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file).unwrap();
        // Unit tests may reach anywhere.
        // Imports and paths in code: comments and doc links aside.
        let code: String = text
            .split("#[cfg(test)]")
            .next()
            .unwrap()
            .lines()
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        let targets = uses.entry(module).or_default();
        // `crate::a::b` names `a::b`; `super::c` in `a::b` names `a::c` (a sibling: siblings
        // that import each other are a circle too).
        let parent = module.rsplit_once("::").map_or("", |(p, _)| p);
        let absolute = code.split("crate::").skip(1).map(|r| (r, String::new()));
        let relative = code
            .split("super::")
            .skip(1)
            .map(|r| (r, parent.to_string()))
            .filter(|(_, parent)| !parent.is_empty());
        for (reference, prefix) in absolute.chain(relative) {
            let path: String = reference
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let path = match prefix.as_str() {
                "" => path,
                prefix => format!("{prefix}::{path}"),
            };
            let parts: Vec<&str> = path.split("::").collect();
            let target = (1..=parts.len())
                .rev()
                .map(|k| parts[..k].join("::"))
                .find(|m| modules.contains_key(m));
            if let Some((target, _)) = target.and_then(|t| modules.get_key_value(&t)) {
                if target != module && !related(module, target) {
                    targets.insert(target.as_str());
                }
            }
        }
    }
    let edges: usize = uses.values().map(BTreeSet::len).sum();
    assert!(
        edges > 40,
        "only {edges} imports found: the scan reads nothing"
    );
    for (&from, targets) in &uses {
        for &to in targets {
            // Is `from` reachable again from `to`?
            let (mut seen, mut stack) = (BTreeSet::new(), vec![to]);
            while let Some(m) = stack.pop() {
                for &next in uses.get(m).into_iter().flatten() {
                    assert!(
                        next != from,
                        "{from} imports {to}, which leads back to {from} through {m}"
                    );
                    if seen.insert(next) {
                        stack.push(next);
                    }
                }
            }
        }
    }
}

/// Files stay small enough to do one thing: no source file over 900 lines (the library, the
/// tests, the benches, the Python crate and package, the fuzz targets), `src/main.rs` at most 300, the README
/// at most 350.
#[test]
fn files_stay_within_their_sizes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["src", "tests", "benches", "python/src", "fuzz/fuzz_targets"] {
        sources(&root.join(dir), &mut files);
    }
    for entry in std::fs::read_dir(root.join("python/warsweep")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "py") {
            files.push(path);
        }
    }
    let lines = |path: &Path| std::fs::read_to_string(path).unwrap().lines().count();
    let mut checked = 0;
    for file in &files {
        let most = if file.ends_with("src/main.rs") {
            300
        } else {
            900
        };
        assert!(
            lines(file) <= most,
            "{} has {} lines, over {most}",
            file.display(),
            lines(file)
        );
        checked += 1;
    }
    assert!(checked > 80, "{checked} source files");
    assert!(
        lines(&root.join("README.md")) <= 350,
        "the README is over 350 lines"
    );
}

/// Every fuzz target has its seeds and its regressions folder in the repository (git keeps no empty
/// folder, so each holds a file), and CI runs it: a target missing either fails CI's fuzz step.
#[test]
fn every_fuzz_target_has_seeds_regressions_and_a_ci_run() {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let ci = std::fs::read_to_string(fuzz.join("../.ci/run")).unwrap();
    let runs = ci
        .lines()
        .find_map(|l| l.strip_prefix("for target in "))
        .and_then(|l| l.strip_suffix("; do"))
        .expect(".ci/run names its fuzz targets on one `for target in ...; do` line");
    let ran: BTreeSet<&str> = runs.split_whitespace().collect();
    let mut checked = 0;
    for entry in std::fs::read_dir(fuzz.join("fuzz_targets")).unwrap() {
        let target = entry.unwrap().path();
        let name = target.file_stem().unwrap().to_string_lossy().into_owned();
        for folder in ["seeds", "regressions"] {
            let dir = fuzz.join(folder).join(&name);
            let files = std::fs::read_dir(&dir)
                .map(Iterator::count)
                .unwrap_or_else(|_| panic!("{} is missing", dir.display()));
            assert!(
                files > 0,
                "{} is empty: git will not keep it",
                dir.display()
            );
        }
        assert!(ran.contains(name.as_str()), ".ci/run does not fuzz {name}");
        checked += 1;
    }
    assert_eq!(
        checked,
        ran.len(),
        ".ci/run fuzzes a target that does not exist"
    );
    assert!(checked >= 5, "{checked} fuzz targets");
}

/// The files whose text names paths and items: Markdown, Rust, Python, shell, CUDA and C++,
/// run records aside (they describe the tree of their day).
fn named_in() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let skip = [
        "target",
        ".git",
        "runs",
        "artifacts",
        "corpus",
        "node_modules",
    ];
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if !skip.contains(&name.as_str()) && !name.starts_with('.') || name == ".ci" {
                    stack.push(path);
                }
            } else if ["md", "rs", "py", "sh", "pyi", "cu", "cpp"]
                .iter()
                .any(|e| path.extension().is_some_and(|x| x == *e))
                || name == "run"
            {
                files.push(path);
            }
        }
    }
    files
}

/// Every path the documentation and the comments name exists: Markdown links (relative to their
/// file) and paths in backticks from the root (as `docs/rules.md`). Paths above the root
/// (`../shared/...`) name what lies beside the repository, and are not checked.
#[test]
fn every_path_named_in_docs_and_comments_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let files = named_in();
    let tops = [
        "src/", "tests/", "docs/", "scripts/", "data/", "benches/", "python/", "fuzz/",
    ];
    let (mut checked, mut missing) = (0, Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let here = file.parent().unwrap();
        let mut named: Vec<PathBuf> = Vec::new();
        // `a/b.rs` in backticks, from the root.
        for quoted in text.split('`').skip(1).step_by(2) {
            let ok = |c: char| c.is_ascii_alphanumeric() || "_.-/".contains(c);
            if tops.iter().any(|t| quoted.starts_with(t)) && quoted.chars().all(ok) {
                named.push(root.join(quoted));
            }
        }
        // [text](path) in Markdown, from the file's folder.
        if file.extension().is_some_and(|e| e == "md") {
            for link in text.split("](").skip(1) {
                let target = link
                    .split([')', ' '])
                    .next()
                    .unwrap()
                    .split('#')
                    .next()
                    .unwrap();
                if !target.is_empty() && !target.contains("://") && !target.starts_with("mailto:") {
                    named.push(here.join(target));
                }
            }
        }
        for path in named {
            checked += 1;
            if !path.exists() {
                missing.push(format!("{} names {}", file.display(), path.display()));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    assert!(
        checked > 100,
        "only {checked} paths found: the scan reads nothing"
    );
}

/// The file or folder of the crate's module `path` (`gpu::plan` -> `src/gpu/plan.rs`, the
/// suite's `hunt_durable` -> `tests/suite/hunt_durable.rs`), found as the end of a path; the
/// longest leading part of `path` that names one, where the rest are modules inside a file
/// (`deal::tests`); [`None`] where no part does (`std::fs`, another crate's).
fn module_source(root: &Path, path: &[&str]) -> Option<PathBuf> {
    let mut all = Vec::new();
    for top in ["src", "tests/suite", "fuzz/fuzz_targets"] {
        let mut stack = vec![root.join(top)];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).unwrap() {
                let p = entry.unwrap().path();
                if p.is_dir() {
                    stack.push(p.clone());
                }
                all.push(p);
            }
        }
    }
    (1..=path.len()).rev().find_map(|n| {
        let want: PathBuf = path[..n].iter().collect();
        let mut found: Vec<&PathBuf> = (all.iter())
            .filter(|p| {
                let stem = p.with_extension("");
                stem.ends_with(&want) && (p.is_dir() || p.extension().is_some_and(|e| e == "rs"))
            })
            .collect();
        // The one nearest the root: `deal` is `src/deal/`, not `src/hunt/deal.rs`.
        found.sort_by_key(|p| p.components().count());
        let depth = |i: usize| found.get(i).map(|p| p.components().count());
        (depth(0).is_some() && depth(0) != depth(1)).then(|| found[0].clone())
    })
}

/// Every item the documentation and the comments name as `module::item` (`plan::Step`,
/// `hunt_durable::join_keeps_every_distinct_cycle`) exists: its name is a word of its module's
/// source (its file, or its folder's files). Names whose module is not the crate's, its tests'
/// or its fuzz targets' (`std::fs`) are not checked.
#[test]
fn every_item_named_in_docs_and_comments_exists() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (mut checked, mut missing) = (0, Vec::new());
    let mut sources_of = BTreeMap::new();
    for file in named_in() {
        let text = std::fs::read_to_string(&file).unwrap();
        for quoted in text.split('`').skip(1).step_by(2) {
            let segments: Vec<&str> = quoted.split("::").collect();
            let word = |s: &&str| {
                !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            };
            if segments.len() < 2 || !segments.iter().all(word) {
                continue;
            }
            let modules: Vec<&str> = (segments[..segments.len() - 1].iter())
                .copied()
                .filter(|s| !["crate", "super", "self", "warsweep"].contains(s))
                .collect();
            let Some(source) = module_source(root, &modules) else {
                continue;
            };
            let text = sources_of.entry(source.clone()).or_insert_with(|| {
                let mut files = Vec::new();
                if source.is_dir() {
                    sources(&source, &mut files);
                } else {
                    files.push(source.clone());
                }
                files
                    .iter()
                    .map(|f| std::fs::read_to_string(f).unwrap())
                    .collect::<String>()
            });
            let item = segments[segments.len() - 1];
            let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
            checked += 1;
            if !text.split(|c: char| !is_word(c)).any(|w| w == item) {
                missing.push(format!("{} names {quoted}", file.display()));
            }
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    assert!(
        checked > 50,
        "only {checked} items found: the scan reads nothing"
    );
}

/// The first line of a function's definition (`pub(crate) const fn name(`), else `None`.
fn fn_name(line: &str) -> Option<&str> {
    let mut rest = line.trim_start();
    for prefix in [
        "pub(crate) ",
        "pub(super) ",
        "pub ",
        "const ",
        "unsafe ",
        "async ",
    ] {
        rest = rest.strip_prefix(prefix).unwrap_or(rest);
    }
    let rest = rest.strip_prefix("fn ")?;
    Some(&rest[..rest.find(['(', '<']).unwrap_or(rest.len())])
}

/// The functions of `src/` longer than 80 lines are exactly the hot loops that
/// docs/architecture.md lists under "Long functions" (as `crowd::run_three`: the function's
/// file or folder, then its name), each saying in its doc comment how long it is: a long
/// function is a measured choice, not an accident, and the list cannot go stale.
#[test]
fn long_functions_are_the_listed_hot_loops() {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest.join("src");
    let architecture = std::fs::read_to_string(manifest.join("docs/architecture.md")).unwrap();
    let section = architecture
        .split("\n## Long functions\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("docs/architecture.md has a section \"Long functions\"");
    let listed: BTreeSet<&str> = (section.split('`').skip(1).step_by(2))
        .filter(|q| q.contains("::"))
        .collect();
    let mut files = Vec::new();
    sources(&root, &mut files);
    let (mut measured, mut long, mut wrong) = (0, BTreeSet::new(), Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // `crowd/three.rs` names its functions `three::f` and `crowd::f`.
        let folder = file
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_string_lossy();
        let stem = file.file_stem().unwrap().to_string_lossy();
        let mut i = 0;
        while i < lines.len() {
            let Some(name) = fn_name(lines[i]) else {
                i += 1;
                continue;
            };
            let indent = &lines[i][..lines[i].len() - lines[i].trim_start().len()];
            // The line that opens the body; a declaration or an empty body has none.
            let opens = (i..lines.len()).find(|&j| {
                let l = lines[j].trim_end();
                l.ends_with('{') || l.ends_with("{}") || l.ends_with(';')
            });
            let Some(open) = opens.filter(|&j| lines[j].trim_end().ends_with('{')) else {
                i += 1;
                continue;
            };
            let close = format!("{indent}}}");
            let end = (open + 1..lines.len())
                .find(|&k| lines[k] == close)
                .unwrap();
            measured += 1;
            if end - i + 1 > 80 {
                let at = file.strip_prefix(&root).unwrap().display();
                let keys = [format!("{stem}::{name}"), format!("{folder}::{name}")];
                match keys.iter().find(|k| listed.contains(k.as_str())) {
                    Some(key) => {
                        long.insert(key.clone());
                    }
                    None => wrong.push(format!("{at}: {name} ({} lines)", end - i + 1)),
                }
                let doc: String = (lines[..i].iter().rev())
                    .map(|l| l.trim_start())
                    .take_while(|l| l.starts_with("///") || l.starts_with("#["))
                    .collect();
                if !doc.contains(" lines") {
                    wrong.push(format!(
                        "{at}: {name}'s doc comment says not how long it is"
                    ));
                }
            }
            i = end + 1;
        }
    }
    assert!(
        measured > 500,
        "only {measured} functions found: the scan reads nothing"
    );
    assert!(
        wrong.is_empty(),
        "functions over 80 lines that docs/architecture.md does not list: {wrong:?}"
    );
    let stale: Vec<&&str> = listed.iter().filter(|l| !long.contains(**l)).collect();
    assert!(
        stale.is_empty(),
        "docs/architecture.md lists {stale:?} as long functions, which are not over 80 lines"
    );
    assert!(listed.len() >= 4, "{} long functions listed", listed.len());
}
