//! The shape of the workspace (docs/ARCHITECTURE.md): no source file outside tests over
//! 1,200 lines, and no cycle among the top-level modules of any crate (a module that uses
//! `crate::b` depends on `b`), so that each rule has one home and a change shows what it
//! may touch.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use stone_test::tools::workspace_root;

const MAX_LINES: usize = 1200;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

fn crate_sources() -> Vec<(String, PathBuf)> {
    let crates = workspace_root().join("crates");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(&crates)
        .expect("crates/ is readable")
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                e.path().join("src"),
            )
        })
        .filter(|(_, src)| src.is_dir())
        .collect();
    out.sort();
    out
}

#[test]
fn no_source_file_outside_tests_passes_the_line_limit() {
    let mut long = Vec::new();
    for (name, src) in crate_sources() {
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a source file is readable");
            // A file's own unit tests (`#[cfg(test)] mod tests`) do not count.
            let code = text
                .split("#[cfg(test)]\nmod tests")
                .next()
                .unwrap_or_default();
            let lines = code.lines().count();
            if lines > MAX_LINES {
                long.push(format!("{name}: {} ({lines} lines)", file.display()));
            }
        }
    }
    assert!(
        long.is_empty(),
        "split these by responsibility (docs/ARCHITECTURE.md): {long:#?}"
    );
}

/// The top-level module a source file belongs to (`src/state/pushes.rs` → `state`), `None`
/// for the crate root.
fn top_module(src: &Path, file: &Path) -> Option<String> {
    let first = file.strip_prefix(src).ok()?.components().next()?;
    let first = first.as_os_str().to_string_lossy();
    let name = first.strip_suffix(".rs").unwrap_or(&first).to_owned();
    (name != "lib" && name != "main").then_some(name)
}

/// Dependencies between the top-level modules of one crate: `a` → `b` when a file of `a`
/// names `crate::b` outside comments and unit tests.
fn module_graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Some(module) = top_module(src, &file) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("a source file is readable");
        let code = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or_default();
        let deps = graph.entry(module.clone()).or_default();
        for line in code.lines() {
            let line = line.split("//").next().unwrap_or_default();
            for (i, _) in line.match_indices("crate::") {
                let rest = &line[i + "crate::".len()..];
                let target: String = rest
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !target.is_empty() && target != module {
                    deps.insert(target);
                }
            }
        }
    }
    graph
}

/// A cycle of `graph` as the list of its modules, if it has one.
fn find_cycle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = path.iter().position(|n| n == node) {
            let mut cycle = path[start..].to_vec();
            cycle.push(node.to_owned());
            return Some(cycle);
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_owned());
        for next in graph.get(node).into_iter().flatten() {
            if let Some(cycle) = visit(next, graph, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        done.insert(node.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|node| visit(node, graph, &mut Vec::new(), &mut done))
}

#[test]
fn no_crate_has_a_cycle_among_its_top_level_modules() {
    let mut cycles = Vec::new();
    for (name, src) in crate_sources() {
        if let Some(cycle) = find_cycle(&module_graph(&src)) {
            cycles.push(format!("{name}: {}", cycle.join(" → ")));
        }
    }
    assert!(
        cycles.is_empty(),
        "module cycles (move the shared part below both, docs/ARCHITECTURE.md): {cycles:#?}"
    );
}

#[test]
fn the_cycle_finder_finds_a_cycle() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec![]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(
        find_cycle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    let mut acyclic = graph.clone();
    acyclic.insert("c".into(), BTreeSet::new());
    assert_eq!(find_cycle(&acyclic), None);
}
