use super::*;

#[test]
fn a_rate_is_steps_between_the_last_samples_of_each_moment() {
    let series: Vec<Value> = [(0.0, 0), (1.0, 10), (1.0, 30), (2.0, 50)]
        .iter()
        .map(|&(s, c)| serde_json::json!({"seconds": s, "cases": c}))
        .collect();
    assert_eq!(
        rate(&series, "cases"),
        [(0.0, 30.0), (1.0, 30.0), (1.0, 20.0), (2.0, 20.0)]
    );
}

#[test]
fn a_document_that_is_not_lockstep_s_is_an_error_naming_it() {
    let source = |name: &str, text: &str| Source {
        name: name.to_string(),
        document: serde_json::from_str(text).unwrap(),
    };
    let error = |s: Source| report_sections(&[s]).err().unwrap().to_string();
    assert!(
        error(source("a.json", r#"{"lockstep": "fuzz", "schema": 2}"#))
            .contains("a.json: schema 2")
    );
    assert!(error(source("b.json", r#"{"schema": 1}"#)).contains("b.json: not the JSON"));
    let empty = source(
        "c.json",
        r#"{"lockstep": "fuzz", "schema": 1, "puzzles": []}"#,
    );
    assert!(report_sections(&[empty]).unwrap().is_empty());
}
