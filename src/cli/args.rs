//! The command line, parsed by clap. Nothing here does work: `cli::run` turns these into
//! a configuration and then into the library's objects.

use std::path::PathBuf;

use clap::{Args, ColorChoice, Parser, Subcommand, ValueEnum};

use boardgrade::execution::{bounds, PythonRunner, Sandbox};
use boardgrade::report::class_files::{ReportFormat, ReportRequest};
use boardgrade::report::class_output::GradeFormat;
use boardgrade::report::gradescope::FeedbackFormat;
use boardgrade::report::Format;

#[derive(Debug, Parser)]
#[command(
    name = "boardgrade",
    version,
    about = "Autograder and test harness for board-game programming assignments"
)]
#[command(after_help = super::exit::HELP)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Replay scenarios against the reference, a command or a Python submission.
    Test(TestArgs),
    /// Grade submissions: one file or folder, or a class folder of them.
    Grade(GradeArgs),
    /// Build the autograder zip to upload to Gradescope.
    Gradescope(GradescopeArgs),
    /// Write PrairieLearn's external grader: course files and a question's settings.
    Prairielearn(PrairielearnArgs),
    /// Serve a game's reference engine on stdin/stdout (a correct "student").
    Engine(EngineArgs),
    /// List the games and their dialects.
    Games,
    /// Count chess move sequences (perft): of one position, or of a suite against its
    /// published counts.
    Perft(PerftArgs),
    /// Record a scenario from typed lines, a transcript or stdin; the reference writes the
    /// expectations.
    Record(RecordArgs),
    /// Rewrite scenarios' expectations from the reference, editing the files in place.
    Bless(BlessArgs),
    /// Generate random games as a scenario file, reproducible from the seed.
    Gen(GenArgs),
    /// Play random games on the reference and a submission; shrink each distinct failure to
    /// a short scenario file.
    Fuzz(FuzzArgs),
    /// Play a game in the terminal, alone or against the reference.
    Play(PlayArgs),
    /// Join the result folders of `grade --partition K/N` runs into one, as a single run.
    Merge(MergeArgs),
    /// Course variants of a dialect: `variant new BASE NAME` starts one.
    Variant(VariantArgs),
    /// List the scenarios bundled into boardgrade (or of the files given), by game,
    /// dialect and file.
    List(ListArgs),
    /// Replay scenarios (default: the bundled specs, batteries included) on the reference
    /// and count the rule events they reach; exit 1 if some event is never reached.
    Coverage(CoverageArgs),
    /// Print a shell's completion script for boardgrade.
    Completions(CompletionsArgs),
    /// Write the man pages (boardgrade.1 and one per subcommand) to a folder.
    Man(ManArgs),
}

#[derive(Debug, Args)]
pub struct ListArgs {
    /// Scenario files or folders (default: the specs bundled into boardgrade).
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub only: ScenarioFilter,
    /// Only scenarios whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
}

#[derive(Debug, Args)]
pub struct CoverageArgs {
    /// Scenario files or folders (default: the specs bundled into boardgrade).
    pub paths: Vec<PathBuf>,
    #[command(flatten)]
    pub only: ScenarioFilter,
    /// The table for people, or one JSON document.
    #[arg(long, value_enum, default_value = "text")]
    pub format: CoverageFormat,
}

/// How `coverage` writes its table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CoverageFormat {
    Text,
    Json,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell, e.g. `boardgrade completions bash > /etc/bash_completion.d/boardgrade`.
    pub shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The folder to write the pages to (created if missing).
    #[arg(value_name = "DIR")]
    pub out: PathBuf,
}

/// The game, dialect and options an authoring command works on.
#[derive(Debug, Args)]
pub struct GameArgs {
    /// The game (see `boardgrade games`).
    pub game: String,
    /// The dialect (default: the game's first): a built-in one, a variant bundled or among
    /// the specs, or a variant file's path.
    #[arg(long)]
    pub dialect: Option<String>,
    /// A game option, KEY=VALUE with a TOML value (repeatable), as in a scenario's `options`.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
}

/// The file-level keys of a written scenario file.
#[derive(Debug, Args)]
pub struct HeadArgs {
    /// Points of each scenario.
    #[arg(long, default_value_t = 1.0)]
    pub points: f64,
    /// visible, hidden, after_due_date or after_published.
    #[arg(long)]
    pub visibility: Option<String>,
    /// The handout section the scenarios test.
    #[arg(long)]
    pub section: Option<String>,
    /// The file to write (default: stdout).
    #[arg(long, short = 'o', value_name = "FILE")]
    pub out: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct RecordArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// A transcript to record, one line sent per line (`-` for stdin); blank lines and lines
    /// starting with `#` are skipped. Without it: typed at a prompt, or read from stdin when
    /// it is not a terminal.
    #[arg(long, value_name = "FILE")]
    pub input: Option<PathBuf>,
    /// The scenario's name.
    #[arg(long, default_value = "recorded game")]
    pub name: String,
    /// Also record lines the rules refuse (illegal moves the scenario tests).
    #[arg(long)]
    pub keep_refused: bool,
    #[command(flatten)]
    pub head: HeadArgs,
}

#[derive(Debug, Args)]
pub struct BlessArgs {
    /// Scenario files or folders (default: specs/).
    pub paths: Vec<PathBuf>,
    /// Only report what would change; exit 1 if anything would.
    #[arg(long)]
    pub check: bool,
    /// Also write the reference's answer where a step has no `expect` (and the opening a
    /// program prints, where none is written), so the file states what it expects.
    #[arg(long)]
    pub fill: bool,
    /// Colours: `auto` colours a terminal unless NO_COLOR is set (not empty); CLICOLOR_FORCE
    /// forces them.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
}

#[derive(Debug, Args)]
pub struct GenArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Seed of the random games: the same seed makes the same file.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games to generate, one scenario each.
    #[arg(long, default_value_t = 10)]
    pub count: usize,
    /// Most lines sent in one game.
    #[arg(long, default_value_t = 60)]
    pub max_steps: usize,
    /// Write the lines only, no `expect`: each step takes the reference's answer when it
    /// runs (much smaller files for program protocols, whose answers hold boards).
    #[arg(long)]
    pub lines_only: bool,
    #[command(flatten)]
    pub head: HeadArgs,
}

/// The program under test (neither: the reference engine, where a command allows it).
#[derive(Debug, Args)]
pub struct TargetArgs {
    /// Run this command (through `sh -c`) as the program under test.
    #[arg(long, conflicts_with = "python")]
    pub cmd: Option<String>,
    /// A Python submission (file or folder) to test.
    #[arg(long, value_name = "FILE")]
    pub python: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct FuzzArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The program under test: --cmd or --python is required.
    #[command(flatten)]
    pub target: TargetArgs,
    /// Seed of the random games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random games to play.
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    /// Most lines sent in one game.
    #[arg(long, default_value_t = 200)]
    pub max_steps: usize,
    /// Most runs of the submission while shrinking one failure.
    #[arg(long, default_value_t = 300)]
    pub shrink_budget: usize,
    /// Stop after this many distinct failures.
    #[arg(long, default_value_t = 5)]
    pub max_failures: usize,
    /// Wall-clock seconds for one game (from 1 to 3600).
    #[arg(long, default_value_t = 10.0,
          value_parser = |text: &str| bounds::parse(text, bounds::time_limit))]
    pub time_limit: f64,
    /// Folder for the scenario files of the failures.
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub out: PathBuf,
    #[command(flatten)]
    pub run: RunArgs,
    /// Colours: `auto` colours a terminal unless NO_COLOR is set (not empty); CLICOLOR_FORCE
    /// forces them.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Show only the failures found, not each failing game.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct PlayArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The reference plays the other side.
    #[arg(long)]
    pub against: bool,
    /// Seed of the reference's random moves (games without a strong player).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(Debug, Args)]
pub struct TestArgs {
    /// Scenario files or folders (default: the specs bundled into boardgrade).
    pub paths: Vec<PathBuf>,
    /// The program under test (default: the reference engine).
    #[command(flatten)]
    pub target: TargetArgs,
    #[command(flatten)]
    pub only: ScenarioFilter,
    /// Only scenarios whose name contains this text.
    #[arg(long, value_name = "TEXT")]
    pub filter: Option<String>,
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// A further report from the same run, written atomically (repeatable): `json=r.json`,
    /// `junit=j.xml`.
    #[arg(long = "report", value_name = "FORMAT=PATH", value_parser = parse_report)]
    pub reports: Vec<ReportRequest>,
}

/// Which scenarios to keep, by game and dialect.
#[derive(Debug, Args)]
pub struct ScenarioFilter {
    /// Only scenarios of this game.
    #[arg(long)]
    pub game: Option<String>,
    /// Only scenarios of this dialect.
    #[arg(long)]
    pub dialect: Option<String>,
    /// Only scenarios with this tag (repeatable: any of them).
    #[arg(long, value_name = "TAG")]
    pub tag: Vec<String>,
    /// Leave out scenarios with this tag (repeatable), e.g. `challenge`.
    #[arg(long, value_name = "TAG")]
    pub skip_tag: Vec<String>,
    /// The course policy file (default: the `course.toml` nearest above each scenario file).
    #[arg(long, value_name = "FILE")]
    pub policy: Option<PathBuf>,
    /// The seed of every rule battery (default: the course file's `battery_seed`, else the
    /// scenario file's): reproduces the games a report names.
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
}

/// How scenarios are run.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// Scenarios run at once (default: the number of cores; under `--sandbox limits`, one
    /// submission's scenarios run one at a time).
    #[arg(long, short = 'j', value_parser = jobs_count)]
    pub jobs: Option<usize>,
    /// The Python interpreter for Python submissions [env: BOARDGRADE_PYTHON; default: python3].
    #[arg(long, value_name = "PATH")]
    pub python_bin: Option<PathBuf>,
    /// Most bytes a program may print to stdout in one scenario (at least 1024).
    #[arg(long, value_name = "BYTES", default_value_t = 1 << 20,
          value_parser = |text: &str| bounds::parse(text, bounds::output_bytes))]
    pub output_limit: usize,
    /// Address-space limit for a program, in MiB (0 for none; from 64 MiB to 16 TiB).
    #[arg(long, value_name = "MIB", default_value_t = 2048,
          value_parser = |text: &str| bounds::parse(text, bounds::memory_mib))]
    pub memory_limit: u64,
    /// How student programs are fenced in (default: bwrap where it works, else limits).
    #[arg(long, value_enum)]
    pub sandbox: Option<Sandbox>,
    /// How Python submissions run: loaded once and forked per scenario, or a fresh interpreter each
    #[arg(long, value_enum, value_name = "HOW", default_value_t = PythonRunner::Fork)]
    pub python_runner: PythonRunner,
}

#[derive(Debug, Args)]
pub struct OutputArgs {
    #[arg(long, value_enum, default_value_t = Format::Human)]
    pub format: Format,
    /// Colours: `auto` colours a terminal unless NO_COLOR is set (not empty); CLICOLOR_FORCE
    /// forces them.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// Show only scenarios that did not pass.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct GradeArgs {
    /// Submissions: files, folders, or class folders (one submission per subfolder or file).
    #[arg(required = true)]
    pub submissions: Vec<PathBuf>,
    /// Scenario files or folders (default: the bundled specs).
    #[arg(long, value_name = "DIR")]
    pub specs: Vec<PathBuf>,
    #[command(flatten)]
    pub only: ScenarioFilter,
    /// The entry file to look for in each submission instead of the dialect's.
    #[arg(long, value_name = "FILE")]
    pub entry: Option<String>,
    /// Each SUBMISSION is one student's, never a class folder, whatever its files are named.
    #[arg(long)]
    pub one_submission: bool,
    /// Folder for per-submission results, grades.csv and the class summary.
    #[arg(long, value_name = "DIR", default_value = "boardgrade-results")]
    pub out: PathBuf,
    /// Skip submissions whose result is already stored in --out for the same files and
    /// scenarios.
    #[arg(long)]
    pub resume: bool,
    /// Seconds one submission's scenarios may take (at least 1): once spent, the rest are not started and
    /// score 0 ("not run: the submission's time budget was spent"); the results are always
    /// written. Set it below a platform's own timeout.
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    pub budget: Option<f64>,
    /// Seconds a submission's import may take (call protocols; at least 1): one that does not finish
    /// in it does not load ("the import did not finish in 10 s; it was in `time.sleep`"),
    /// and no scenario runs. Checked once per submission.
    #[arg(long, value_name = "SECONDS", default_value_t = boardgrade::grade::DEFAULT_IMPORT_LIMIT.as_secs_f64(), value_parser = parse_seconds)]
    pub import_limit: f64,
    /// Grade only share K of N of the submissions (the class in the order of a hash of each
    /// one's name, cut in N: shares differ by one at most, and a student added later moves
    /// at most N - 1 others); `boardgrade merge` joins the N result folders.
    #[arg(long, value_name = "K/N")]
    pub partition: Option<boardgrade::grade::Partition>,
    /// The assignment's column name in gradebook.csv.
    #[arg(long, value_name = "NAME", default_value = "boardgrade")]
    pub assignment: String,
    #[arg(long, value_enum, default_value_t = GradeFormat::Human)]
    pub format: GradeFormat,
    /// How --format gradescope writes each test's feedback: html (boards drawn) or text.
    #[arg(long, value_enum, default_value_t = FeedbackFormat::Html)]
    pub feedback: FeedbackFormat,
    /// A further report, written besides the others from the same run, atomically
    /// (repeatable): `json=all.json`, `junit=junit.xml`, `csv=grades.csv`,
    /// `summary=summary.txt`, `gradebook=gradebook.csv`, `html=report.html`; for one
    /// submission `gradescope=results.json`, `prairielearn=results.json`.
    #[arg(long = "report", value_name = "FORMAT=PATH", value_parser = parse_report)]
    pub reports: Vec<ReportRequest>,

    /// Colours: `auto` colours a terminal unless NO_COLOR is set (not empty); CLICOLOR_FORCE
    /// forces them.
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    #[command(flatten)]
    pub run: RunArgs,
}

#[derive(Debug, Args)]
pub struct MergeArgs {
    /// The --out folders of the partitioned runs.
    #[arg(required = true, value_name = "OUT")]
    pub parts: Vec<PathBuf>,
    /// The folder to write the joined results to.
    #[arg(long, value_name = "DIR", default_value = "boardgrade-results")]
    pub out: PathBuf,
    /// The assignment's column name in gradebook.csv.
    #[arg(long, value_name = "NAME", default_value = "boardgrade")]
    pub assignment: String,
    /// Further reports, as for `grade` (repeatable).
    #[arg(long = "report", value_name = "FORMAT=PATH", value_parser = parse_report)]
    pub reports: Vec<ReportRequest>,
}

fn parse_report(value: &str) -> Result<ReportRequest, String> {
    let (name, path) = value
        .split_once('=')
        .ok_or_else(|| format!("expected FORMAT=PATH (html=report.html), found {value:?}"))?;
    let format = ReportFormat::from_str(name, true).map_err(|_| {
        let known: Vec<String> = ReportFormat::value_variants()
            .iter()
            .filter_map(|f| f.to_possible_value().map(|v| v.get_name().to_string()))
            .collect();
        format!(
            "unknown report format {name:?}; expected one of {}",
            known.join(", ")
        )
    })?;
    if path.is_empty() {
        return Err(format!("no path after {name}="));
    }
    Ok(ReportRequest {
        format,
        path: PathBuf::from(path),
    })
}

#[derive(Debug, Args)]
pub struct GradescopeArgs {
    /// Scenario files or folders to grade with (copied into the zip).
    #[arg(long, value_name = "DIR", required_unless_present = "run_autograder")]
    pub specs: Vec<PathBuf>,
    /// The least protection acceptable for student programs: where Gradescope's machine
    /// cannot give it, the autograder refuses to grade and says why (`limits` needs root,
    /// `bwrap` also needs bubblewrap to work there).
    #[arg(long, value_enum, default_value_t = Sandbox::Limits)]
    pub sandbox: Sandbox,
    /// Grade even where student programs would keep the network (`limits` on a kernel
    /// without unprivileged network namespaces); without it the autograder refuses there.
    #[arg(long)]
    pub allow_open_network: bool,
    /// What `run_autograder` runs inside Gradescope: grade AUTOGRADER_ROOT/submission
    /// (default /autograder) and write results/results.json.
    #[arg(long)]
    pub run_autograder: bool,
    /// With --run-autograder: the arguments for `boardgrade grade`.
    #[arg(last = true, value_name = "GRADE_ARGS")]
    pub grade_args: Vec<String>,
    #[command(flatten)]
    pub only: ScenarioFilter,
    /// The entry file to look for in the submission instead of the dialect's.
    #[arg(long, value_name = "FILE")]
    pub entry: Option<String>,
    /// The zip to write.
    #[arg(long, value_name = "FILE", default_value = "autograder.zip")]
    pub out: PathBuf,
    /// Seconds a submission's scenarios may take on Gradescope (`grade --budget`): below the
    /// assignment's timeout (10 minutes unless changed), so results.json is always written.
    #[arg(long, value_name = "SECONDS", default_value_t = 540.0, value_parser = parse_seconds)]
    pub budget: f64,
    /// The course's requirements.txt: shipped in the zip and installed by setup.sh into a
    /// virtual environment whose Python grades the submissions.
    #[arg(long, value_name = "FILE")]
    pub requirements: Option<PathBuf>,
    /// How each test's feedback is written: html (boards drawn) or text.
    #[arg(long, value_enum, default_value_t = FeedbackFormat::Html)]
    pub feedback: FeedbackFormat,
}

#[derive(Debug, Args)]
pub struct PrairielearnArgs {
    /// Scenario files or folders to grade with (copied into the question's tests/specs).
    #[arg(long, value_name = "DIR", required_unless_present = "run_grader")]
    pub specs: Vec<PathBuf>,
    /// The least protection acceptable for student programs: where PrairieLearn's machine
    /// cannot give it, nothing is graded (`gradable: false`, the reason, no attempt spent).
    /// `bwrap` (the default) needs bubblewrap to work in the grading image; `limits` allows
    /// grading without it, student programs run as users of their own (the grader must run
    /// as root), each without the network where the kernel allows it.
    #[arg(long, value_enum, default_value_t = Sandbox::Bwrap)]
    pub sandbox: Sandbox,
    /// Grade even where student programs would keep the network (`limits` on a kernel
    /// without unprivileged network namespaces); without it nothing is graded there.
    #[arg(long)]
    pub allow_open_network: bool,
    /// What the entrypoint (run.sh) runs inside PrairieLearn: grade PL_GRADE_ROOT/student
    /// (default /grade) and write results/results.json.
    #[arg(long)]
    pub run_grader: bool,
    /// With --run-grader: the arguments for `boardgrade grade`.
    #[arg(last = true, value_name = "GRADE_ARGS")]
    pub grade_args: Vec<String>,
    #[command(flatten)]
    pub only: ScenarioFilter,
    /// The entry file to look for in the submission instead of the dialect's.
    #[arg(long, value_name = "FILE")]
    pub entry: Option<String>,
    /// The folder to write: serverFilesCourse/ and questions/, to copy into the course.
    #[arg(long, value_name = "DIR", default_value = "prairielearn")]
    pub out: PathBuf,
    /// The question's folder name under questions/.
    #[arg(long, default_value = "boardgrade")]
    pub question: String,
    /// The question's title (default: the games and dialects graded).
    #[arg(long)]
    pub title: Option<String>,
    /// The Docker image grading runs in (it must have Python 3).
    #[arg(long, default_value = boardgrade::package::prairielearn::DEFAULT_IMAGE)]
    pub image: String,
    /// The course's requirements.txt: shipped with the course files and installed into a
    /// virtual environment before each grading (the grader then needs the network; an
    /// image with the packages installed is faster).
    #[arg(long, value_name = "FILE")]
    pub requirements: Option<PathBuf>,
}

/// `engine` takes a game, a dialect and options, as the authoring commands do.
pub type EngineArgs = GameArgs;

#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The position as FEN (default: the start position).
    #[arg(long, conflicts_with = "suite")]
    pub fen: Option<String>,
    /// Plies to count (at most 7).
    #[arg(long, required_unless_present = "suite", conflicts_with = "suite")]
    pub depth: Option<u32>,
    /// Also print each first move's count.
    #[arg(long, conflicts_with = "suite")]
    pub divide: bool,
    /// Check every count of the bundled perft suite (or of --epd FILE); exit 1 on a mismatch.
    #[arg(long)]
    pub suite: bool,
    /// A suite file in the bundled suite's format, instead of the bundled one.
    #[arg(long, value_name = "FILE", requires = "suite")]
    pub epd: Option<PathBuf>,
    /// Skip suite counts above this many nodes.
    #[arg(long, value_name = "N", requires = "suite")]
    pub max_nodes: Option<u64>,
    /// Threads counting at once (default: the number of cores).
    #[arg(long, short = 'j', value_parser = jobs_count)]
    pub jobs: Option<usize>,
}

#[derive(Debug, Args)]
pub struct VariantArgs {
    #[command(subcommand)]
    pub command: VariantCommand,
}

#[derive(Debug, Subcommand)]
pub enum VariantCommand {
    /// Write a variant file of BASE (GAME/DIALECT, or a dialect name only one game has)
    /// named NAME: every key a variant may change, with BASE's value, commented.
    New {
        base: String,
        name: String,
        /// The file to write (default: specs/GAME/NAME/variant.toml); never overwritten.
        #[arg(long, short = 'o', value_name = "FILE")]
        out: Option<PathBuf>,
    },
}

/// A `--budget` or `--import-limit`: seconds, at least one.
fn parse_seconds(text: &str) -> Result<f64, bounds::LimitError> {
    bounds::parse(text, bounds::seconds)
}

/// A count of jobs: `0` is refused rather than quietly taken to mean one (or every core).
fn jobs_count(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("a run needs at least 1 job (leave --jobs out for one per core)".into()),
        Ok(jobs) => Ok(jobs),
        Err(e) => Err(e.to_string()),
    }
}
