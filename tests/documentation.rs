//! The documentation held to the binary. Transcripts run as written: in
//! every ```` ```text ```` block of the README and `docs/`, a line
//! `$ npuzzle …` and the lines after it are a command and what it prints, and
//! each one that needs no pattern databases and no shell prints exactly that,
//! times aside. Column lists name the columns the binary writes, in order.
//! On these pages and those of `benches/` and `puzzles/`, every flag given
//! a command is one that command takes, and every link between pages leads
//! to a file and a heading that exist. The README's test command is the one
//! CI runs, and installs what the tests need.

use crate::util::npuzzle;
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

/// The README and every page of `docs/`.
fn pages() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut docs: Vec<_> = fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    docs.insert(0, root.join("README.md"));
    docs
}

/// The pages above, and those of `benches/` and `puzzles/`.
fn every_page() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut all = pages();
    all.extend(["benches/README.md", "benches/RESULTS.md", "puzzles/README.md"].map(|page| root.join(page)));
    all
}

/// A page's path from the crate's root, as messages name it.
fn shown(page: &Path) -> String {
    page.strip_prefix(env!("CARGO_MANIFEST_DIR")).unwrap_or(page).display().to_string()
}

/// A command of a transcript and the lines shown after it.
struct Transcript {
    page: String,
    command: String,
    shown: Vec<String>,
}

fn transcripts(page: &Path) -> Vec<Transcript> {
    let text = fs::read_to_string(page).unwrap();
    let page = shown(page);
    let mut found: Vec<Transcript> = Vec::new();
    let mut in_text = false;
    let mut current: Option<Transcript> = None;
    for line in text.lines() {
        if line.starts_with("```") {
            found.extend(current.take());
            in_text = line == "```text" && !in_text;
            continue;
        }
        if !in_text {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ ") {
            found.extend(current.take());
            current = Some(Transcript { page: page.clone(), command: command.to_owned(), shown: Vec::new() });
        } else if let Some(transcript) = &mut current {
            transcript.shown.push(line.to_owned());
        }
    }
    for transcript in &mut found {
        while transcript.shown.last().is_some_and(|line| line.trim().is_empty()) {
            transcript.shown.pop();
        }
    }
    found
}

/// A line as it is compared: a time differs from run to run, so only its
/// label is kept.
fn timeless(line: &str) -> &str {
    match line.split_once("runtime_ms:") {
        Some((label, _)) => label,
        None => line,
    }
}

#[test]
fn every_transcript_that_needs_no_tables_prints_what_its_page_shows() {
    let mut ran = 0;
    for transcript in pages().iter().flat_map(|page| transcripts(page)) {
        let Transcript { page, command, shown } = transcript;
        let words: Vec<&str> = command.split_whitespace().collect();
        // A pipe needs a shell, and tables take minutes to build.
        if words.first() != Some(&"npuzzle") || words.contains(&"|") || words.contains(&"pdb") {
            continue;
        }
        let output = npuzzle().args(&words[1..]).output().unwrap();
        let printed = format!(
            "{}{}",
            String::from_utf8(output.stdout).unwrap(),
            String::from_utf8(output.stderr).unwrap()
        );
        let printed: Vec<&str> = printed.lines().map(timeless).collect();
        let shown: Vec<&str> = shown.iter().map(|line| timeless(line)).collect();
        assert_eq!(printed, shown, "{page}: `{command}` prints something else than the page shows");
        ran += 1;
    }
    // The README's breadth-first solve, its generated board and its
    // malformed file at least.
    assert!(ran >= 3, "only {ran} transcripts found");
}

/// The comma-separated names in the first code span after `marker` in
/// `docs/scripting.md`.
fn documented_columns(marker: &str) -> Vec<String> {
    let page = fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/scripting.md")).unwrap();
    let after = &page[page.find(marker).unwrap_or_else(|| panic!("no '{marker}' in docs/scripting.md"))..];
    let span = after.split('`').nth(1).unwrap();
    span.split(',').map(|name| name.trim().to_owned()).collect()
}

fn csv_header(args: &[&str]) -> Vec<String> {
    let output = npuzzle().args(args).args(["--format", "csv"]).output().unwrap();
    let stdout = String::from_utf8(output.stdout).unwrap();
    stdout.lines().next().unwrap().split(',').map(str::to_owned).collect()
}

#[test]
fn the_documented_row_columns_are_the_ones_batch_writes() {
    let mut written = csv_header(&["batch", "puzzles/3x3/easy-3.txt"]);
    // The page names these apart: the ones the table does not have.
    assert_eq!(written.split_off(written.len() - 4), ["start", "path", "goal", "flags"]);
    assert_eq!(documented_columns("### Rows"), written);
}

#[test]
fn the_documented_compare_columns_are_the_ones_compare_writes() {
    let written = csv_header(&["compare", "puzzles/3x3/easy-3.txt"]);
    assert_eq!(documented_columns("then the table's columns:"), written);
}

/// Every place a page writes `npuzzle SUBCOMMAND …`: in code blocks, and in
/// code spans of one line. Each is the words from the subcommand on, to the
/// end of that command (a pipe, `;`, `&&`, a redirection or a comment).
fn documented_commands(text: &str) -> Vec<Vec<String>> {
    const SUBCOMMANDS: [&str; 8] =
        ["solve", "batch", "generate", "check", "merge", "compare", "completions", "pdb"];
    let mut snippets = Vec::new();
    let mut in_block = false;
    for line in text.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
        } else if in_block {
            snippets.push(line.to_owned());
        } else {
            snippets.extend(line.split('`').skip(1).step_by(2).map(str::to_owned));
        }
    }
    let mut commands = Vec::new();
    for snippet in snippets {
        let words: Vec<&str> = snippet.split_whitespace().collect();
        for (i, _) in words.iter().enumerate().filter(|(_, w)| **w == "npuzzle") {
            let Some(sub) = words.get(i + 1).filter(|w| SUBCOMMANDS.contains(w)) else { continue };
            let mut command = vec![(*sub).to_owned()];
            for word in &words[i + 2..] {
                if ["|", ";", "&&", ">", ">>", "<", "#", "&"].contains(word) || word.ends_with(';') {
                    break;
                }
                command.push((*word).to_owned());
            }
            commands.push(command);
        }
    }
    commands
}

#[test]
fn every_flag_the_documentation_gives_a_command_is_one_it_takes() {
    let pages = every_page();
    let mut helps = HashMap::new();
    let mut checked = 0;
    for page in &pages {
        for command in documented_commands(&fs::read_to_string(page).unwrap()) {
            // `pdb` has subcommands of its own.
            let path: Vec<&str> = match command[0].as_str() {
                "pdb" => command.iter().take(2).map(String::as_str).collect(),
                _ => vec![command[0].as_str()],
            };
            let help = helps.entry(path.join(" ")).or_insert_with(|| {
                let output = npuzzle().args(&path).arg("--help").output().unwrap();
                assert!(output.status.success(), "`npuzzle {} --help` fails", path.join(" "));
                String::from_utf8(output.stdout).unwrap()
            });
            for word in &command {
                let word = word.trim_start_matches(['[', '(']);
                let Some(flag) = word.strip_prefix("--") else { continue };
                let flag: String =
                    flag.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
                let named = help.match_indices(&format!("--{flag}")).any(|(at, found)| {
                    !help[at + found.len()..].starts_with(|c: char| c.is_ascii_alphanumeric() || c == '-')
                });
                assert!(
                    named,
                    "{}: `npuzzle {}` gives --{flag}, which `npuzzle {} --help` does not list",
                    shown(page),
                    command.join(" "),
                    path.join(" ")
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} flags found");
}

/// The anchors GitHub gives a page's headings: lowercased, spaces to `-`,
/// every other character but letters, digits, `-` and `_` dropped, and a
/// repeated one numbered (`-1`, `-2`, …).
fn anchors(page: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut in_block = false;
    for line in page.lines() {
        if line.starts_with("```") {
            in_block = !in_block;
        }
        let Some(heading) = line.strip_prefix('#').filter(|_| !in_block) else { continue };
        let text = heading.trim_start_matches('#').trim();
        let base: String = text
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                _ => None,
            })
            .collect();
        let repeats = found
            .iter()
            .filter(|a| {
                **a == base || a.strip_prefix(&format!("{base}-")).is_some_and(|n| n.parse::<u32>().is_ok())
            })
            .count();
        found.push(if repeats == 0 { base } else { format!("{base}-{repeats}") });
    }
    found
}

#[test]
fn every_link_between_pages_leads_to_a_file_and_heading_that_exist() {
    let pages = every_page();
    let mut checked = 0;
    for page in &pages {
        let text = fs::read_to_string(page).unwrap();
        for link in text.split("](").skip(1).filter_map(|rest| rest.split_once(')').map(|(link, _)| link)) {
            if link.contains("://") || link.starts_with("mailto:") {
                continue;
            }
            let (file, anchor) = link.split_once('#').unwrap_or((link, ""));
            let target = if file.is_empty() { page.clone() } else { page.parent().unwrap().join(file) };
            assert!(target.exists(), "{}: the link ({link}) leads to no file", shown(page));
            if !anchor.is_empty() {
                let headings = anchors(&fs::read_to_string(&target).unwrap());
                assert!(
                    headings.iter().any(|a| a == anchor),
                    "{}: the link ({link}) names no heading of {}",
                    shown(page),
                    shown(&target)
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 50, "only {checked} links found");
}

/// The README's test command is the one CI ends with, and it works on a
/// fresh machine: it is a script of the repository that installs what the
/// tests need where it is missing (GNU parallel, which the job-runner
/// recipe runs) before it runs them, not a bare `cargo test`.
#[test]
fn the_readmes_test_command_is_cis_and_installs_what_the_tests_need() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = fs::read_to_string(root.join("README.md")).unwrap();
    let block = readme.split("```sh\n").nth(1).expect("the README opens with a sh block");
    let command = block.lines().nth(1).expect("its second line is the test command");
    let ci = fs::read_to_string(root.join(".ci/run")).unwrap();
    assert_eq!(ci.lines().rfind(|line| !line.trim().is_empty()), Some(command), ".ci/run ends otherwise");
    let script = root.join(command.split_whitespace().next().unwrap());
    let text = fs::read_to_string(&script)
        .unwrap_or_else(|e| panic!("`{command}` is no script of the repository ({e}): it installs nothing"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_ne!(fs::metadata(&script).unwrap().permissions().mode() & 0o111, 0, "{command} is executable");
    }
    assert!(text.contains("apt-get install -y -qq parallel"), "{command} installs GNU parallel");
    assert_eq!(text.lines().rfind(|line| !line.trim().is_empty()), Some("exec cargo test \"$@\""));
}
