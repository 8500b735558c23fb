//! `probe-cli completions SHELL` and `probe-cli man`: the command line's own description, from the same clap
//! structs that parse it (`cli.rs`), as a shell completion script or a roff manual page.

use std::io::Write as _;

use anyhow::Context as _;
use clap::CommandFactory as _;

use crate::cli::{Cli, CompletionsArgs};
use crate::outcome::{Failure, Outcome};
use crate::output::print_text;

/// Runs `completions`.
pub fn completions(a: &CompletionsArgs) -> Result<Outcome, Failure> {
    let mut out = Vec::new();
    clap_complete::generate(a.shell, &mut Cli::command(), "probe-cli", &mut out);
    let mut script = String::from_utf8(out).context("the completion script")?;
    if a.shell == clap_complete::Shell::Bash {
        // clap_complete 4.6.12's bash script spells a hyphenated binary's state `probe__cli__subcmd__report` in its
        // dispatch loop but `probe__subcmd__cli__subcmd__report` in its case arms, so no command's flags complete
        // (clap-rs/clap#6421; the fix, #6428, builds the arms as the loop does, which this does too).
        script = script.replace("probe__subcmd__cli", "probe__cli");
    }
    print_text(&script)?;
    Ok(Outcome::Clean)
}

/// Runs `man`: the top-level page, then one section per command (and per `estimate` subcommand) with its synopsis,
/// description, options and examples, so that `man -l -` shows every flag on one page.
pub fn man() -> Result<Outcome, Failure> {
    let mut cmd = Cli::command();
    cmd.build();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut out).context("the manual page")?;
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let nested: Vec<_> = sub.get_subcommands().filter(|s| s.get_name() != "help").cloned().collect();
        let pages = if nested.is_empty() { vec![sub.clone()] } else { nested };
        for page in pages {
            let name = match page.get_bin_name() {
                Some(n) => n.to_string(),
                None => format!("probe-cli {}", page.get_name()),
            };
            writeln!(out, ".SH \"{}\"", name.to_uppercase()).context("the manual page")?;
            let man = clap_mangen::Man::new(page.display_name(name.clone()).bin_name(name));
            let mut section = Vec::new();
            man.render_synopsis_section(&mut section).context("the manual page")?;
            man.render_description_section(&mut section).context("the manual page")?;
            man.render_options_section(&mut section).context("the manual page")?;
            man.render_extra_section(&mut section).context("the manual page")?;
            // The command's parts as subsections of its section.
            for line in String::from_utf8_lossy(&section).lines() {
                let line = match line {
                    ".SH SYNOPSIS" => ".SS Synopsis",
                    ".SH DESCRIPTION" => ".SS Description",
                    ".SH OPTIONS" => ".SS Options",
                    ".SH EXTRA" => ".SS Examples",
                    other => other,
                };
                writeln!(out, "{line}").context("the manual page")?;
            }
        }
    }
    // The top page lists the commands as pages of their own (`probe-cli-report(1)`); here they are sections below.
    let mut text = String::from_utf8(out).context("the manual page")?;
    for sub in cmd.get_subcommands() {
        let roff = sub.get_name().replace('-', "\\-");
        text = text.replace(&format!("probe\\-cli\\-{roff}(1)"), &format!("probe\\-cli {roff} (below)"));
    }
    print_text(&text)?;
    Ok(Outcome::Clean)
}
