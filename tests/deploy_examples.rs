//! The README's examples of a class split across a cluster or a CI matrix, checked as the
//! systems that run them would read them: the Kubernetes Indexed Job against the schema of a
//! batch/v1 Job, the GitHub Actions workflow against the workflow syntax's (the parts of
//! each these examples use, vendored in `tests/data/`), and both against `--partition`: each
//! share of the class graded exactly once, and every part merged.

mod common;

use serde_json::Value;

/// The YAML blocks of the README, in order, parsed as JSON values.
fn readme_yaml() -> Vec<Value> {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let mut blocks = Vec::new();
    let mut rest = readme.as_str();
    while let Some(start) = rest.find("```yaml\n") {
        rest = &rest[start + "```yaml\n".len()..];
        let end = rest.find("```").expect("a closed block");
        blocks.push(yaml_to_json(&rest[..end]));
        rest = &rest[end..];
    }
    blocks
}

/// A YAML document as JSON, read by PyYAML's safe loader (the system's `python3-yaml`). PyYAML
/// reads YAML 1.1, where a bare `on` key is the boolean true: GitHub reads it as the string
/// `on`, and so does this.
const YAML_TO_JSON: &str = "import json, sys, yaml
document = yaml.safe_load(sys.stdin)
if isinstance(document, dict):
    document = {('on' if key is True else key): value for key, value in document.items()}
json.dump(document, sys.stdout)";

fn yaml_to_json(yaml: &str) -> Value {
    use std::io::Write;
    let mut child = std::process::Command::new("python3")
        .args(["-c", YAML_TO_JSON])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python3 runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(yaml.as_bytes())
        .unwrap();
    let output = child.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "a README YAML block does not parse (python3 with PyYAML): {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap()
}

fn example(kind: &str) -> Value {
    readme_yaml()
        .into_iter()
        .find(|v| match kind {
            "job" => v["kind"] == "Job",
            _ => v.get("jobs").is_some(),
        })
        .unwrap_or_else(|| panic!("the README has a {kind} example"))
}

/// Panics, naming every place at fault, unless `document` follows `tests/data/NAME`.
fn assert_follows(name: &str, document: &Value) {
    let path = common::root().join("tests/data").join(name);
    let schema: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let validator = jsonschema::validator_for(&schema).expect("a valid schema");
    let errors: Vec<String> = validator
        .iter_errors(document)
        .map(|e| format!("  at {}: {e}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "not a valid {name}:\n{}",
        errors.join("\n")
    );
}

/// The `--partition` argument and the `--out` folder of a grade command line.
fn partition_and_out(command: &str) -> (String, String) {
    // A value runs to the next flag: it may hold spaces (`$((INDEX + 1))/4`).
    let after = |flag: &str| {
        let start = command.find(&format!("{flag} ")).expect(flag) + flag.len() + 1;
        let rest = &command[start..];
        rest[..rest.find(" --").unwrap_or(rest.len())]
            .trim()
            .to_string()
    };
    let grades = command.split_whitespace().filter(|w| *w == "grade");
    assert_eq!(grades.count(), 1, "{command}");
    (after("--partition"), after("--out"))
}

#[test]
fn the_kubernetes_indexed_job_is_a_valid_job_grading_each_share_once() {
    let job = example("job");
    assert_follows("kubernetes-job.schema.json", &job);
    let spec = &job["spec"];
    assert_eq!(spec["completionMode"], "Indexed");
    let shares = spec["completions"].as_u64().unwrap();
    let container = &spec["template"]["spec"]["containers"][0];
    let command: Vec<&str> = container["command"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert_eq!(command[..2], ["sh", "-c"], "the shell expands the index");
    let (partition, out) = partition_and_out(command[2]);
    // Kubernetes numbers the pods 0..completions; shares are numbered from 1.
    assert_eq!(
        partition,
        format!("$((JOB_COMPLETION_INDEX + 1))/{shares}"),
        "{command:?}"
    );
    assert!(
        out.contains("$JOB_COMPLETION_INDEX"),
        "each share has its own --out"
    );
    // The parts are written where the merge reads them: the mounted volume.
    let mount = container["volumeMounts"][0]["mountPath"].as_str().unwrap();
    assert!(out.starts_with(mount), "{out} is on the volume at {mount}");
    let volume = &spec["template"]["spec"]["volumes"][0];
    assert_eq!(volume["name"], container["volumeMounts"][0]["name"]);
    assert_eq!(
        spec["parallelism"].as_u64(),
        Some(shares),
        "every share at once"
    );
}

#[test]
fn the_github_actions_matrix_is_a_valid_workflow_that_grades_each_share_and_merges() {
    let workflow = example("workflow");
    assert_follows("github-workflow.schema.json", &workflow);
    let jobs = workflow["jobs"].as_object().unwrap();
    let (grade_name, grade) = jobs
        .iter()
        .find(|(_, job)| job.get("strategy").is_some())
        .expect("a matrix job");
    let shares: Vec<u64> = grade["strategy"]["matrix"]["share"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_u64().unwrap())
        .collect();
    let n = shares.len() as u64;
    assert_eq!(shares, (1..=n).collect::<Vec<_>>(), "every share, once");
    let steps = grade["steps"].as_array().unwrap();
    let run = steps
        .iter()
        .find_map(|s| s["run"].as_str().filter(|r| r.contains(" grade ")))
        .expect("a grade step");
    let (partition, out) = partition_and_out(run);
    assert_eq!(partition, format!("${{{{ matrix.share }}}}/{n}"));
    let upload = steps
        .iter()
        .find(|s| {
            s["uses"]
                .as_str()
                .is_some_and(|u| u.starts_with("actions/upload-artifact@"))
        })
        .expect("the part is uploaded");
    assert_eq!(upload["with"]["path"], out.as_str());
    // The merge job waits for every share and merges every part by the names they upload.
    let (_, merge) = jobs
        .iter()
        .find(|(_, job)| {
            job["steps"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["run"].as_str().is_some_and(|r| r.contains(" merge ")))
        })
        .expect("a merge job");
    let needs = match &merge["needs"] {
        Value::String(one) => vec![one.clone()],
        Value::Array(all) => all
            .iter()
            .map(|n| n.as_str().unwrap().to_string())
            .collect(),
        other => panic!("needs: {other}"),
    };
    assert!(needs.contains(grade_name), "{needs:?}");
    let merge_steps = merge["steps"].as_array().unwrap();
    assert!(merge_steps.iter().any(|s| s["uses"]
        .as_str()
        .is_some_and(|u| u.starts_with("actions/download-artifact@"))));
    let merge_run = merge_steps
        .iter()
        .find_map(|s| s["run"].as_str().filter(|r| r.contains(" merge ")))
        .unwrap();
    let artifact = upload["with"]["name"].as_str().unwrap();
    let parts: Vec<String> = shares
        .iter()
        .map(|k| artifact.replace("${{ matrix.share }}", &k.to_string()))
        .collect();
    let merged: Vec<&str> = merge_run
        .split_whitespace()
        .skip_while(|w| *w != "merge")
        .skip(1)
        .take_while(|w| !w.starts_with("--"))
        .collect();
    assert_eq!(merged, parts, "{merge_run}");
}

#[test]
fn the_schemas_refuse_what_a_cluster_or_ci_would_refuse() {
    // The checks above can fail: a Job whose pods restart always, a misspelt key, a step
    // that neither uses an action nor runs a command.
    let validator = |name: &str| {
        let path = common::root().join("tests/data").join(name);
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        jsonschema::validator_for(&schema).unwrap()
    };
    let job = example("job");
    let jobs = validator("kubernetes-job.schema.json");
    assert!(jobs.is_valid(&job));
    let mut always = job.clone();
    always["spec"]["template"]["spec"]["restartPolicy"] = "Always".into();
    assert!(!jobs.is_valid(&always));
    let mut misspelt = job.clone();
    misspelt["spec"]["completionsMode"] = "Indexed".into();
    assert!(!jobs.is_valid(&misspelt));

    let workflow = example("workflow");
    let workflows = validator("github-workflow.schema.json");
    assert!(workflows.is_valid(&workflow));
    let mut empty_step = workflow.clone();
    empty_step["jobs"]["merge"]["steps"][0] = serde_json::json!({ "name": "nothing" });
    assert!(!workflows.is_valid(&empty_step));
    let mut no_runner = workflow.clone();
    no_runner["jobs"]["grade"]
        .as_object_mut()
        .unwrap()
        .remove("runs-on");
    assert!(!workflows.is_valid(&no_runner));
}
