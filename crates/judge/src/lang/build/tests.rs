use super::*;

#[test]
fn lines_expand_with_words_that_need_no_shell() {
    let line = expand(
        "g++ -o {exe} {src} && echo {name} {dir}",
        Path::new("/a/b/sol.cpp"),
        Path::new("/cache/x"),
    );
    assert_eq!(
        line,
        "g++ -o /cache/x/sol /a/b/sol.cpp && echo sol /cache/x"
    );
    let spaced = expand("python3 {src}", Path::new("/my dir/s.py"), Path::new("/c"));
    assert_eq!(spaced, "python3 '/my dir/s.py'");
    // A cache under a home with a space, a class name with one: each
    // placeholder is one word, and the line still runs `java` itself.
    let java = expand(
        "java -cp {dir} {name}",
        Path::new("/src/My Sol.java"),
        Path::new("/home/a b/.cache/j"),
    );
    assert_eq!(java, "java -cp '/home/a b/.cache/j' 'My Sol'");
    let words = lockstep_process::program_words(&java);
    assert_eq!(words, ["java", "-cp", "/home/a b/.cache/j", "My Sol"]);
    assert!(lockstep_process::runs_a_jvm(&words));
}

#[test]
fn a_scaled_limit_saturates_instead_of_overflowing() {
    let python = Runnable {
        time_factor: 3.0,
        ..Runnable::command("x")
    };
    assert_eq!(
        python.scaled(Duration::from_millis(2000)),
        Duration::from_secs(6)
    );
    let longest = Duration::from_millis(u64::MAX);
    assert!(python.scaled(longest) > longest);
    // What `Duration::mul_f64` panics on.
    assert_eq!(python.scaled(Duration::MAX), Duration::MAX);
    let slowest = Runnable {
        time_factor: *super::super::TIME_FACTORS.end(),
        ..python
    };
    assert!(slowest.scaled(longest) > longest);
}

#[test]
fn the_key_changes_with_any_part() {
    let key = fnv(&[b"cpp", b"g++ x", b"int main(){}"]);
    assert_ne!(key, fnv(&[b"cpp", b"g++ -O2 x", b"int main(){}"]));
    assert_ne!(key, fnv(&[b"cpp", b"g++ x", b"int main() {}"]));
    // Parts are separated: moving a byte across a boundary changes it.
    assert_ne!(fnv(&[b"ab", b"c"]), fnv(&[b"a", b"bc"]));
}

/// A compile error shows the compiler's first lines, however long its
/// stderr: the start is kept, not the end (a run's stderr keeps its end).
#[test]
fn a_long_compile_error_shows_its_first_lines() {
    let language = Language {
        name: "noisy".to_string(),
        extensions: vec!["noisy".to_string()],
        compile: Some(
            "echo 'first.cpp:1: error: the real one' >&2; seq 1 100000 >&2; exit 1".to_string(),
        ),
        run: "{exe}".to_string(),
        time: 1.0,
    };
    let dir = std::env::temp_dir();
    let error = compile_into(Path::new("/x/first.noisy"), &language, &dir).unwrap_err();
    assert!(matches!(error, JudgeError::Compile(_)), "{error:?}");
    let error = error.to_string();
    assert!(
        error.starts_with("CE: /x/first.noisy does not compile (exit code 1"),
        "{error}"
    );
    assert!(
        error.contains("first.cpp:1: error: the real one"),
        "{error}"
    );
    assert!(error.contains("    1\n"), "{error}");
    assert!(error.contains("lines or more in all"), "{error}");
}

/// A half-made build older than a compile may take is removed; a young
/// one (a compile under way) and the finished builds stay.
#[test]
fn stale_half_made_builds_are_removed_and_nothing_else() {
    let builds = std::env::temp_dir().join(format!("lockstep-stale-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&builds);
    for dir in [".new-1-0-aa", ".new-2-0-bb", "cpp-00aa"] {
        std::fs::create_dir_all(builds.join(dir).join("inner")).unwrap();
    }
    let long_ago = std::time::SystemTime::now() - 2 * COMPILE_TIME;
    for dir in [".new-1-0-aa", "cpp-00aa"] {
        let file = std::fs::File::open(builds.join(dir)).unwrap();
        file.set_modified(long_ago).unwrap();
    }
    remove_stale(&builds, COMPILE_TIME);
    let mut left: Vec<String> = std::fs::read_dir(&builds)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, [".new-2-0-bb", "cpp-00aa"]);
    std::fs::remove_dir_all(&builds).unwrap();
}

/// The same bytes under another name are another build: its `{exe}` is
/// named after the file. The directory does not count.
#[test]
fn the_key_holds_the_file_name_not_its_directory() {
    let languages = super::super::Languages::defaults(PathBuf::from("/nowhere"));
    let cpp = languages.of_path(Path::new("x.cpp")).unwrap();
    let key = |path: &str| build_key(cpp, Path::new(path), b"int main() {}");
    assert_ne!(key("/a/sol.cpp"), key("/a/brute.cpp"));
    assert_eq!(key("/a/sol.cpp"), key("/elsewhere/sol.cpp"));
}
