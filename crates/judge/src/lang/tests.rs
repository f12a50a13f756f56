use super::*;

#[test]
fn the_printed_table_reads_back_as_itself() {
    let defaults = Languages::defaults(PathBuf::from("/nowhere"));
    let mut again = Languages::defaults(PathBuf::from("/nowhere"));
    again
        .apply(&defaults.to_string(), Path::new("printed"))
        .unwrap();
    assert_eq!(again.list, defaults.list);
    let names: Vec<&str> = defaults.list.iter().map(|l| l.name.as_str()).collect();
    assert_eq!(names, ["c", "cpp", "java", "python", "rust"]);
}

#[test]
fn overrides_change_keys_add_languages_and_say_what_is_wrong() {
    let mut languages = Languages::defaults(PathBuf::from("/nowhere"));
    languages
        .apply(
            "# mine\n[python]\nrun = pypy3 {src}\ntime = 2.5\n\n[kotlin]\nextensions = .kt\nrun = kotlin {exe}\n",
            Path::new("mine.conf"),
        )
        .unwrap();
    let python = languages.of_path(Path::new("a/b.py")).unwrap();
    assert_eq!((python.run.as_str(), python.time), ("pypy3 {src}", 2.5));
    assert!(python.compile.is_some(), "untouched keys stay");
    assert_eq!(languages.of_path(Path::new("x.kt")).unwrap().name, "kotlin");
    assert!(languages.of_path(Path::new("x.txt")).is_none());
    for (text, says) in [
        ("run = x\n", "line 1: run comes before any [language]"),
        ("[c]\ncolour = red\n", "line 2: unknown key \"colour\""),
        (
            "[c]\ntime = 0\n",
            "line 2: time must be a number from 0.01 to 100",
        ),
        (
            "[c]\n\ntime = 1e300\n",
            "line 3: time must be a number from 0.01 to 100",
        ),
        ("[c]\ntime = inf\n", "line 2: time must be a number"),
        ("[c]\ntime = NaN\n", "line 2: time must be a number"),
        (
            "[go]\nrun = {exe}\n",
            "[go] needs extensions and a run line",
        ),
        ("[c]\nnothing here\n", "line 2: expected KEY = VALUE"),
    ] {
        let mut languages = Languages::defaults(PathBuf::from("/nowhere"));
        let error = languages.apply(text, Path::new("bad.conf")).unwrap_err();
        assert!(matches!(error, crate::JudgeError::Setting(_)), "{error:?}");
        let error = error.to_string();
        assert!(error.contains(says), "{text:?}: {error}");
        assert!(error.starts_with("bad.conf"), "{error}");
    }
}
