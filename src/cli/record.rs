//! `boardgrade record`: lines from a transcript, stdin or a prompt go to the reference; the
//! scenario file gets each line it accepted with its answer. Also the helpers the other
//! authoring commands share (file-level keys, writing the file, showing a line's fate).

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

use boardgrade::author::record::{Fed, Recorder};
use boardgrade::author::write::{file_text, FileHead};
use boardgrade::games::{Protocol, Session};
use boardgrade::scenario::Visibility;
use boardgrade::Error;

use super::args::{HeadArgs, RecordArgs};
use super::engine::setup;
use super::exit;

/// `head` with the file-level keys given on the command line.
pub fn with_flags(mut head: FileHead, args: &HeadArgs) -> Result<FileHead, Error> {
    if let Some(name) = &args.visibility {
        head.visibility = toml::Value::String(name.clone())
            .try_into::<Visibility>()
            .map_err(|_| {
                Error::Usage(format!(
                    "--visibility {name:?}: expected visible, hidden, after_due_date or after_published"
                ))
            })?;
    }
    if !(args.points.is_finite() && args.points >= 0.0) {
        return Err(Error::Usage(format!(
            "--points {}: expected a number of at least 0",
            args.points
        )));
    }
    head.points = args.points;
    if let Some(section) = &args.section {
        head.section = section.clone();
    }
    Ok(head)
}

/// Writes `text` to `out`, or to stdout.
pub fn write_out(out: Option<&Path>, text: &str) -> Result<(), Error> {
    match out {
        Some(path) => {
            std::fs::write(path, text).map_err(|e| Error::path(path, format!("cannot write: {e}")))
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(text.as_bytes())
                .and_then(|_| stdout.flush())
                .map_err(|e| Error::io("cannot write to stdout", e))
        }
    }
}

/// What a person sees after a line: the answer, the board where answers do not show it,
/// or why the line was refused.
pub fn describe(line: &str, fed: &Fed, session: &dyn Session, protocol: Protocol) -> String {
    let board = || match protocol {
        Protocol::Call => session.board_view().unwrap_or_default(),
        Protocol::Program => String::new(),
    };
    match fed {
        Fed::Recorded { reply, refused } => {
            let mut text = reply.text.clone();
            if *refused {
                text.push_str(&format!("({line:?} is refused by the rules; recorded)\n"));
            }
            if !text.is_empty() && !text.ends_with('\n') && protocol == Protocol::Call {
                text.push('\n');
            }
            format!("{text}{}", board())
        }
        Fed::Refused { reply, reason } => {
            let answer = match reply.text.lines().next() {
                Some(first) if !first.trim().is_empty() => {
                    format!(" (the reference answers {:?})", first.trim_end())
                }
                _ => String::new(),
            };
            format!("not played: {line:?}{answer}: {reason}\n")
        }
        Fed::Ended => "the game is over\n".to_string(),
    }
}

/// The lines of a transcript: blank lines and `#` comments skipped.
fn transcript_lines(reader: impl BufRead, name: &str) -> Result<Vec<String>, Error> {
    let mut lines = Vec::new();
    for line in reader.lines() {
        let line = line.map_err(|e| Error::io(format!("cannot read {name}"), e))?;
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        lines.push(line.to_string());
    }
    Ok(lines)
}

pub fn run(args: &RecordArgs) -> Result<i32, Error> {
    let setup = setup(&args.game)?;
    let protocol = setup.dialect.protocol;
    let mut recorder = Recorder::new(setup.clone(), args.keep_refused)?;
    let interactive = args.input.is_none() && std::io::stdin().is_terminal();
    let mut skipped = 0;
    if interactive {
        prompt_loop(&mut recorder)?;
    } else {
        let lines = match args.input.as_deref() {
            Some(path) if path != Path::new("-") => {
                let file = std::fs::File::open(path)
                    .map_err(|e| Error::path(path, format!("cannot read: {e}")))?;
                transcript_lines(std::io::BufReader::new(file), &path.display().to_string())?
            }
            _ => transcript_lines(std::io::stdin().lock(), "stdin")?,
        };
        for (number, line) in lines.iter().enumerate() {
            let fed = recorder.feed(line)?;
            if !matches!(fed, Fed::Recorded { .. }) {
                skipped += 1;
                let text = describe(line, &fed, recorder.session(), protocol);
                eprint!("input {}: {text}", number + 1);
            }
        }
    }
    if recorder.lines().is_empty() && protocol == Protocol::Call {
        return Err(Error::Usage(
            "nothing was recorded: a scenario of a call protocol needs at least one line".into(),
        ));
    }
    let scenario = recorder.scenario(&args.name)?;
    let head = FileHead {
        comments: vec![format!(
            "Recorded with `boardgrade record {} --dialect {}`: expectations are the reference's answers.",
            setup.game.name(),
            setup.dialect.name
        )],
        section: "(fill in the handout section)".to_string(),
        points: 1.0,
        visibility: Visibility::Visible,
        tags: Vec::new(),
    };
    let head = with_flags(head, &args.head)?;
    write_out(
        args.head.out.as_deref(),
        &file_text(&setup, &head, &[scenario]),
    )?;
    if let Some(out) = &args.head.out {
        eprintln!(
            "recorded {} line(s) to {}{}",
            recorder.lines().len(),
            out.display(),
            if skipped > 0 {
                format!(" ({skipped} not recorded)")
            } else {
                String::new()
            }
        );
    }
    Ok(exit::SUCCESS)
}

const HELP: &str = "type a line to send it; `?` lists the legal inputs, `:N` sends the N-th, \
`:undo` takes back the last line, `:done` (or end of input) writes the scenario\n";

/// Reads lines typed at a prompt (on stderr, so the scenario may go to stdout).
fn prompt_loop(recorder: &mut Recorder) -> Result<(), Error> {
    let protocol = recorder.setup().dialect.protocol;
    eprint!("{HELP}{}", recorder.opening().text);
    if protocol == Protocol::Call {
        eprint!("{}", recorder.session().board_view().unwrap_or_default());
    }
    let stdin = std::io::stdin();
    let mut input = String::new();
    loop {
        if recorder.is_over() {
            eprintln!("the game is over");
            return Ok(());
        }
        eprint!(
            "{}> ",
            if protocol == Protocol::Program {
                "\n"
            } else {
                ""
            }
        );
        input.clear();
        if stdin
            .lock()
            .read_line(&mut input)
            .map_err(|e| Error::io("cannot read stdin", e))?
            == 0
        {
            return Ok(());
        }
        let line = input.trim_end_matches(['\n', '\r']);
        match line.trim() {
            ":done" => return Ok(()),
            "?" => {
                eprintln!("{}", numbered(&recorder.session().legal_inputs()));
                continue;
            }
            ":undo" => {
                if recorder.undo()? {
                    let board = match protocol {
                        Protocol::Call => recorder.session().board_view(),
                        Protocol::Program => None,
                    };
                    eprint!("taken back\n{}", board.unwrap_or_default());
                } else {
                    eprintln!("nothing to take back");
                }
                continue;
            }
            _ => {}
        }
        let line = recorder.expand(line);
        let fed = recorder.feed(&line)?;
        eprint!("{}", describe(&line, &fed, recorder.session(), protocol));
    }
}

/// The next line of stdin without its line ending, `None` at its end.
pub fn read_line(buffer: &mut String) -> Result<Option<&str>, Error> {
    buffer.clear();
    let read = std::io::stdin()
        .lock()
        .read_line(buffer)
        .map_err(|e| Error::io("cannot read stdin", e))?;
    Ok((read > 0).then(|| buffer.trim_end_matches(['\n', '\r'])))
}

/// The legal inputs, numbered for `:N`.
pub fn numbered(inputs: &[String]) -> String {
    if inputs.is_empty() {
        return "no input is legal now".to_string();
    }
    inputs
        .iter()
        .enumerate()
        .map(|(i, input)| format!("  :{} {input}", i + 1))
        .collect::<Vec<_>>()
        .join("\n")
}
