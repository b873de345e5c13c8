//! The `ludus` command's tools, run as a user runs them: output on success, exit status 2 and one
//! line on bad input, never a panic.

use std::process::{Command, Output};

fn ludus(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ludus"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn refused_with(output: &Output, needle: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        output.status.code(),
        Some(2),
        "exit status 2, stderr: {stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
    assert!(
        stderr.contains(needle),
        "{stderr:?} should mention {needle:?}"
    );
    assert!(!stderr.contains("panicked"));
}

#[test]
fn analyze_prints_the_analysis_as_json() {
    let out = ludus(&[
        "analyze",
        "--variant",
        "petteia-6",
        "--position",
        "4DD/6/L5/2D3/2L3/6 l",
    ]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["variant"], "petteia-6");
    assert_eq!(json["position"], "4DD/6/L5/2D3/2L3/6 l 0 1");
    assert_eq!(json["to_move"], "light");
    assert_eq!(json["outcome"], serde_json::Value::Null);
    assert!(
        json["legal_moves"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m == "A4-C4")
    );
    assert_eq!(json["threatened"]["dark"], serde_json::json!(["C3"]));
}

#[test]
fn analyze_reports_a_finished_position() {
    let out = ludus(&[
        "analyze",
        "--variant",
        "petteia-6",
        "--position",
        "5D/3L2/2L1L1/DD4/4LL/2DL2 d 100 95",
    ]);
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        json["outcome"],
        serde_json::json!({"winner": null, "termination": "no-capture"})
    );
    assert_eq!(json["legal_moves"], serde_json::json!([]));
}

#[test]
fn perft_prints_the_node_count_last() {
    let out = ludus(&["perft", "--variant", "petteia-6", "--depth", "3"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim().lines().last(),
        Some("14284")
    );
}

#[test]
fn bad_input_exits_with_status_two_and_one_line() {
    refused_with(
        &ludus(&["analyze", "--variant", "chess", "--position", "x"]),
        "unknown variant",
    );
    refused_with(
        &ludus(&[
            "analyze",
            "--variant",
            "petteia-6",
            "--position",
            "DDDDDD/6/6 l",
        ]),
        "ranks",
    );
    refused_with(
        &ludus(&[
            "analyze",
            "--variant",
            "petteia-8",
            "--position",
            "DDDDDD/6/6/6/6/LLLLLL l",
        ]),
        "petteia-8 position has 8 ranks",
    );
    refused_with(
        &ludus(&[
            "analyze",
            "--variant",
            "petteia-6",
            "--position",
            "DDDDDD/6/6/6/6/LLLLLL l",
            "--dice",
            "3,9",
        ]),
        "die 2",
    );
    refused_with(
        &ludus(&[
            "analyze",
            "--variant",
            "petteia-6",
            "--position",
            "DDDDDD/6/6/6/6/LLLLLL l",
            "--dice",
            "3",
        ]),
        "without dice",
    );
    refused_with(
        &ludus(&[
            "perft",
            "--variant",
            "petteia-6",
            "--position",
            "",
            "--depth",
            "2",
        ]),
        "position",
    );
}
