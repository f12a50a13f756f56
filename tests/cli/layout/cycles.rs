//! No import cycle between files: a file that names another (a `use`, or a
//! path like `crate::stress::any::tool`) depends on it, and no two files may
//! depend on each other, directly or around a loop. A module and the files
//! of its own submodules are one unit here (a child reaching up with
//! `super::`, a parent declaring and using its children): what is held is
//! that siblings and strangers never lean on each other both ways, which is
//! what lets a layer be read, tested and replaced on its own.
//!
//! The reading is lexical: comments are dropped, `use` trees expanded, and
//! every path resolved to the longest prefix that is a module file. It is
//! the count issue 41 was measured with (three cycles before it, none
//! after), written down so that it stays none.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module: its crate and its path in it (`["stress", "any"]`).
type Module = (String, Vec<String>);

/// The crates read, by the name their paths use, with their source roots.
/// Between crates, Cargo refuses a cycle; within one, this test does.
const CRATES: [(&str, &str); 10] = [
    ("lockstep", "src"),
    ("lockstep_core", "crates/core/src"),
    ("lockstep_reference", "crates/reference/src"),
    ("lockstep_planted", "crates/planted/src"),
    ("lockstep_process", "crates/process/src"),
    ("lockstep_search", "crates/search/src"),
    ("lockstep_judge", "crates/judge/src"),
    ("lockstep_harness", "crates/harness/src"),
    ("lockstep_arena", "crates/arena/src"),
    ("lockstep_registry", "crates/registry/src"),
];

/// Every module file of the crates, by module.
fn modules(root: &Path) -> BTreeMap<Module, PathBuf> {
    let mut out = BTreeMap::new();
    for (name, dir) in CRATES {
        let base = root.join(dir);
        for path in super::walk(&base, "rs", &|_| true) {
            let relative = path.strip_prefix(&base).unwrap().with_extension("");
            let mut parts: Vec<String> = relative
                .iter()
                .map(|p| p.to_string_lossy().into_owned())
                .collect();
            if matches!(
                parts.last().map(String::as_str),
                Some("mod" | "lib" | "main")
            ) {
                parts.pop();
            }
            out.insert((name.to_string(), parts), path);
        }
    }
    out
}

/// The text without comments (doc comments too: a link in prose is not a
/// dependency).
fn code(text: &str) -> String {
    text.lines()
        .map(|line| match line.find("//") {
            Some(i) => &line[..i],
            None => line,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a `use` tree names: `a::{b, c::d}` is `a::b` and `a::c::d`.
pub(super) fn expand(tree: &str, prefix: &[String], out: &mut Vec<Vec<String>>) {
    let tree = tree.trim();
    if let Some(inner) = tree.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[start..i], prefix, out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        expand(&inner[start..], prefix, out);
        return;
    }
    if let Some(i) = tree.find("::{") {
        let mut longer = prefix.to_vec();
        longer.extend(tree[..i].split("::").map(|s| s.trim().to_string()));
        expand(&tree[i + 2..], &longer, out);
        return;
    }
    let mut path = prefix.to_vec();
    let head = tree.split(" as ").next().unwrap_or("");
    path.extend(
        head.split("::")
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty()),
    );
    if !path.is_empty() {
        out.push(path);
    }
}

/// Every path the code names: in `use` items, and written out inline from
/// `crate`, `super`, `self` or another crate of the workspace.
fn named_paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().last();
        let after = &rest[i + 4..];
        rest = after;
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        if let Some(end) = after.find(';') {
            let tree: String = after[..end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            expand(
                &tree.replace(":: ", "::").replace(" ::", "::"),
                &[],
                &mut out,
            );
        }
    }
    let crates: Vec<String> = CRATES.iter().map(|(name, _)| format!("{name}::")).collect();
    let starts: Vec<&str> = ["crate::", "super::", "self::"]
        .into_iter()
        .chain(crates.iter().map(String::as_str))
        .collect();
    let bytes = code.as_bytes();
    for (i, _) in code.char_indices() {
        let boundary = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if !boundary || !starts.iter().any(|s| code[i..].starts_with(s)) {
            continue;
        }
        let path: String = code[i..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
            .collect();
        out.push(
            path.split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
        );
    }
    out
}

/// The module a path names from `from` (a file's module), when it is one
/// of the workspace's: the longest prefix that is a module file.
fn resolve(from: &Module, path: &[String], all: &BTreeMap<Module, PathBuf>) -> Option<Module> {
    let (krate, mut current, mut segs): (String, Vec<String>, &[String]) =
        match path.first()?.as_str() {
            "crate" => (from.0.clone(), Vec::new(), &path[1..]),
            name if CRATES.iter().any(|(krate, _)| *krate == name) => {
                (path[0].clone(), Vec::new(), &path[1..])
            }
            "super" | "self" => (from.0.clone(), from.1.clone(), path),
            _ => {
                // A child module named from its parent.
                let mut child = from.1.clone();
                child.push(path[0].clone());
                if !all.contains_key(&(from.0.clone(), child)) {
                    return None;
                }
                (from.0.clone(), from.1.clone(), path)
            }
        };
    while let Some(first) = segs.first() {
        match first.as_str() {
            "super" => {
                current.pop();
            }
            "self" => {}
            _ => break,
        }
        segs = &segs[1..];
    }
    current.extend(segs.iter().cloned());
    loop {
        let key = (krate.clone(), current.clone());
        if all.contains_key(&key) {
            return Some(key);
        }
        current.pop()?;
    }
}

/// The groups of files that depend on each other around a loop (Tarjan's
/// strongly connected components of more than one file).
fn cycles(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<Vec<Module>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<Module, BTreeSet<Module>>,
        index: BTreeMap<Module, usize>,
        low: BTreeMap<Module, usize>,
        stack: Vec<Module>,
        on_stack: BTreeSet<Module>,
        groups: Vec<Vec<Module>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, v: &Module) {
            let n = self.index.len();
            self.index.insert(v.clone(), n);
            self.low.insert(v.clone(), n);
            self.stack.push(v.clone());
            self.on_stack.insert(v.clone());
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w]);
                    self.low.insert(v.clone(), low);
                } else if self.on_stack.contains(w) {
                    let low = self.low[v].min(self.index[w]);
                    self.low.insert(v.clone(), low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(&w);
                    let done = &w == v;
                    group.push(w);
                    if done {
                        break;
                    }
                }
                if group.len() > 1 {
                    self.groups.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        groups: Vec::new(),
    };
    for v in edges.keys() {
        if !walk.index.contains_key(v) {
            walk.visit(v);
        }
    }
    walk.groups
}

/// The file-level dependencies of the crates.
fn dependencies(
    root: &Path,
) -> (
    BTreeMap<Module, BTreeSet<Module>>,
    BTreeMap<Module, PathBuf>,
) {
    let all = modules(root);
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    for (module, path) in &all {
        let text = code(&std::fs::read_to_string(path).unwrap());
        let targets = edges.entry(module.clone()).or_default();
        for named in named_paths(&text) {
            let Some(target) = resolve(module, &named, &all) else {
                continue;
            };
            // A module and its own submodules are one unit.
            let related = target.0 == module.0
                && (target.1.starts_with(&module.1) || module.1.starts_with(&target.1));
            if !related {
                targets.insert(target);
            }
        }
    }
    (edges, all)
}

#[test]
fn no_two_files_depend_on_each_other() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let (edges, all) = dependencies(root);
    // Not vacuous: the reading finds the layers' real dependencies.
    let module = |krate: &str, path: &[&str]| -> Module {
        (
            krate.to_string(),
            path.iter().map(|s| s.to_string()).collect(),
        )
    };
    let stress = module("lockstep_registry", &["stress"]);
    let judge = module("lockstep_judge", &[]);
    let search = module("lockstep_search", &[]);
    assert!(edges[&stress].contains(&judge), "stress uses the judge");
    assert!(
        edges[&stress].contains(&search),
        "stress uses the search driver"
    );
    assert!(edges.values().map(BTreeSet::len).sum::<usize>() > 300);
    let shown = |m: &Module| all[m].strip_prefix(root).unwrap().display().to_string();
    let problems: Vec<String> = cycles(&edges)
        .iter()
        .map(|group| {
            let names: Vec<String> = group.iter().map(shown).collect();
            let arrows: Vec<String> = group
                .iter()
                .flat_map(|a| {
                    edges[a]
                        .iter()
                        .filter(|b| group.contains(b))
                        .map(move |b| format!("{} -> {}", shown(a), shown(b)))
                })
                .collect();
            format!("{}: {}", names.join(" <-> "), arrows.join(", "))
        })
        .collect();
    assert!(
        problems.is_empty(),
        "import cycles:\n{}",
        problems.join("\n")
    );
}

/// The reading finds a cycle where there is one.
#[test]
fn a_cycle_between_two_files_is_found() {
    let module = |name: &str| ("lockstep".to_string(), vec![name.to_string()]);
    let mut edges: BTreeMap<Module, BTreeSet<Module>> = BTreeMap::new();
    edges.entry(module("a")).or_default().insert(module("b"));
    edges.entry(module("b")).or_default().insert(module("c"));
    edges.entry(module("c")).or_default().insert(module("a"));
    edges.entry(module("d")).or_default().insert(module("a"));
    let found = cycles(&edges);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].len(), 3);
    let mut paths = Vec::new();
    expand(
        "super::{bots::{Brain, Policy}, reading::Reader as R}",
        &[],
        &mut paths,
    );
    assert_eq!(
        paths,
        [
            vec!["super", "bots", "Brain"],
            vec!["super", "bots", "Policy"],
            vec!["super", "reading", "Reader"]
        ]
    );
}
