//! `boardgrade prairielearn`: what an instructor copies into a PrairieLearn course repository
//! to grade a question with boardgrade through PrairieLearn's external grader:
//!
//! ```text
//! OUT/serverFilesCourse/boardgrade/boardgrade    the binary
//! OUT/serverFilesCourse/boardgrade/run.sh        the grading entrypoint
//! OUT/questions/QUESTION/info.json               external grading settings
//! OUT/questions/QUESTION/question.html           a file upload for the entry files
//! OUT/questions/QUESTION/tests/specs/...         the scenarios (mounted at /grade/tests)
//! ```
//!
//! PrairieLearn mounts the course's `serverFilesCourse/boardgrade/` at
//! `/grade/serverFilesCourse/boardgrade/`, the question's `tests/` at `/grade/tests/` and the
//! student's files at `/grade/student/`, runs the entrypoint in the course's Docker image, and
//! reads `/grade/results/results.json`.

use std::path::{Path, PathBuf};

use serde_json::json;

use super::{packaged_specs, shell_quote, Network};
use crate::error::{Error, PackageError};
use crate::execution::Sandbox;

const RUN: &str = include_str!("prairielearn_run.sh");

/// The Docker image grading runs in when the course names none: PrairieLearn's own image
/// with Python.
pub const DEFAULT_IMAGE: &str = "prairielearn/grader-python";

/// Seconds PrairieLearn allows beyond the scenarios' own time limits (starting the
/// container, Python, the reports).
const TIMEOUT_MARGIN: u64 = 30;
/// Seconds more when the course's packages are installed before grading.
const INSTALL_MARGIN: u64 = 60;

/// What the course files hold.
#[derive(Debug, Clone)]
pub struct Package {
    /// Scenario files or folders, copied under the question's `tests/specs/`.
    pub specs: Vec<PathBuf>,
    /// The boardgrade binary to ship (normally the running one).
    pub binary: PathBuf,
    /// Extra arguments for `boardgrade grade`, each a word.
    pub grade_args: Vec<String>,
    /// The course policy, shipped as `specs/course.toml` so that it governs every scenario
    /// (a course file of that name inside the specs gives way to it).
    pub policy: Option<PathBuf>,
    /// The question's folder name under `questions/`.
    pub question: String,
    /// Its title.
    pub title: String,
    /// The Docker image to grade in.
    pub image: String,
    /// The files a student uploads (the dialects' entry files).
    pub entry_files: Vec<String>,
    /// Seconds of all the scenarios' time limits together.
    pub time_limits: u64,
    /// The question's UUID (PrairieLearn wants one per question).
    pub uuid: String,
    /// The least protection acceptable for student programs: where the machine cannot give
    /// it, nothing is graded (`gradable: false`, the reason).
    pub sandbox: Sandbox,
    /// Whether student programs may keep the network where the sandbox cannot close it.
    pub network: Network,
    /// The course's `requirements.txt`: shipped beside the entrypoint, which installs it
    /// into a virtual environment before grading.
    pub requirements: Option<PathBuf>,
}

/// The entrypoint script with the least sandbox, the course's choice about the network and
/// the grade arguments filled in.
pub fn run_script(sandbox: Sandbox, network: Network, grade_args: &[String]) -> String {
    let args: Vec<String> = grade_args.iter().map(|a| shell_quote(a)).collect();
    RUN.replace("@SANDBOX@", sandbox.as_str())
        .replace("@NETWORK@", network.flag())
        .replace("@ARGS@", &args.join(" "))
}

/// The question's `info.json`.
pub fn info_json(package: &Package) -> serde_json::Value {
    json!({
        "uuid": package.uuid,
        "title": package.title,
        "topic": "Programming",
        "tags": ["boardgrade"],
        "type": "v3",
        "singleVariant": true,
        "gradingMethod": "External",
        "externalGradingOptions": {
            "enabled": true,
            "image": package.image,
            "serverFilesCourse": ["boardgrade/"],
            "entrypoint": "/grade/serverFilesCourse/boardgrade/run.sh",
            "timeout": package.time_limits
                + TIMEOUT_MARGIN
                + if package.requirements.is_some() { INSTALL_MARGIN } else { 0 },
            // Installing the course's packages needs the network.
            "enableNetworking": package.requirements.is_some(),
        }
    })
}

/// The question's `question.html`: upload the entry files, see the results.
pub fn question_html(package: &Package) -> String {
    let names: Vec<&str> = package
        .entry_files
        .iter()
        .map(|f| f.rsplit('/').next().unwrap_or(f))
        .collect();
    let listed: Vec<String> = names.iter().map(|n| format!("<code>{n}</code>")).collect();
    format!(
        "<pl-question-panel>\n  <p>Upload {}. It is graded by replaying the course's \
         scenarios against it.</p>\n</pl-question-panel>\n\n\
         <pl-file-upload file-names=\"{}\"></pl-file-upload>\n\n\
         <pl-submission-panel>\n  <pl-external-grader-results></pl-external-grader-results>\n  \
         <pl-file-preview></pl-file-preview>\n</pl-submission-panel>\n",
        listed.join(" or "),
        names.join(", ")
    )
}

fn write(path: &Path, bytes: &[u8], executable: bool) -> Result<(), Error> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| Error::io(format!("cannot create {}", dir.display()), e))?;
    }
    std::fs::write(path, bytes)
        .map_err(|e| Error::io(format!("cannot write {}", path.display()), e))?;
    if executable {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| Error::io(format!("cannot make {} executable", path.display()), e))?;
    }
    Ok(())
}

/// Writes the course files under `out`, and nowhere else.
pub fn write_layout(package: &Package, out: &Path) -> Result<(), Error> {
    // The question's name is one folder under `questions/`: never a path out of it.
    let mut parts = Path::new(&package.question).components();
    if !matches!(
        (parts.next(), parts.next()),
        (Some(std::path::Component::Normal(_)), None)
    ) {
        return Err(PackageError::NotAFolderName {
            name: package.question.clone(),
        }
        .into());
    }
    let server = out.join("serverFilesCourse").join("boardgrade");
    let binary = std::fs::read(&package.binary)
        .map_err(|e| Error::io(format!("cannot read {}", package.binary.display()), e))?;
    write(&server.join("boardgrade"), &binary, true)?;
    write(
        &server.join("run.sh"),
        run_script(package.sandbox, package.network, &package.grade_args).as_bytes(),
        true,
    )?;
    if let Some(requirements) = &package.requirements {
        write(
            &server.join(super::REQUIREMENTS),
            &super::read_requirements(requirements)?,
            false,
        )?;
    }
    let question = out.join("questions").join(&package.question);
    let info = serde_json::to_vec_pretty(&info_json(package))
        .map_err(|e| Error::encode("info.json", e))?;
    write(&question.join("info.json"), &info, false)?;
    write(
        &question.join("question.html"),
        question_html(package).as_bytes(),
        false,
    )?;
    let tests = question.join("tests");
    for (name, bytes) in packaged_specs(&package.specs, package.policy.as_deref())? {
        write(&tests.join(name), &bytes, false)?;
    }
    Ok(())
}

/// A random (version 4) UUID for the new question.
pub fn new_uuid() -> String {
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        ^ (u64::from(std::process::id()) << 32);
    let mut rng = crate::rng::Rng::new(seed);
    let (a, b) = (rng.next_u64(), rng.next_u64());
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        0x8000 | ((b >> 48) & 0x3fff),
        b & 0xffff_ffff_ffff
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package() -> Package {
        Package {
            specs: Vec::new(),
            binary: PathBuf::new(),
            grade_args: vec!["--dialect".into(), "ecs10".into()],
            policy: None,
            question: "minichess".into(),
            title: "miniChess".into(),
            image: DEFAULT_IMAGE.into(),
            entry_files: vec!["prog67.py".into(), "pychess/logic/chess_logic.py".into()],
            time_limits: 40,
            uuid: "6f1c1a52-0000-4000-8000-000000000000".into(),
            requirements: None,
            sandbox: Sandbox::Bwrap,
            network: Network::MustBeClosed,
        }
    }

    #[test]
    fn info_json_asks_for_external_grading_with_the_entrypoint() {
        let info = info_json(&package());
        assert_eq!(info["gradingMethod"], "External");
        let options = &info["externalGradingOptions"];
        assert_eq!(options["enabled"], true);
        assert_eq!(options["image"], DEFAULT_IMAGE);
        assert_eq!(options["serverFilesCourse"], json!(["boardgrade/"]));
        assert_eq!(
            options["entrypoint"],
            "/grade/serverFilesCourse/boardgrade/run.sh"
        );
        assert_eq!(options["timeout"], 70);
    }

    #[test]
    fn the_script_carries_the_arguments_and_the_upload_names_the_files() {
        let script = run_script(Sandbox::Bwrap, Network::MustBeClosed, &package().grade_args);
        assert!(script.contains("--run-grader --sandbox bwrap -- --dialect ecs10\n"));
        assert!(!script.contains("@ARGS@") && !script.contains("@NETWORK@"));
        let allowing = run_script(Sandbox::Limits, Network::MayBeOpen, &[]);
        assert!(allowing.contains("--run-grader --sandbox limits --allow-open-network --"));
        let html = question_html(&package());
        assert!(
            html.contains("file-names=\"prog67.py, chess_logic.py\""),
            "{html}"
        );
    }
}
